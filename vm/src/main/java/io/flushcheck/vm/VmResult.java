package io.flushcheck.vm;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.report.ExtendedResult;
import io.flushcheck.report.ResultData;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One QEMU guest's probe, judged across its virtual disk's edge.
 *
 * @param cacheMode       the drive's cache mode
 * @param accelerator     {@code kvm} or {@code tcg}, and why ({@link #acceleratorReason})
 * @param acceleratorReason one sentence
 * @param guestWriteCache what the guest's disk claims ({@code /sys/block/vda/queue/write_cache}: "write back",
 *                        "write through")
 * @param hostDevice      the host's loop device under the guest's disk ({@code loop3}), released since
 * @param result          the guest's result: its costs have two devices each, the guest's {@code vda} and the
 *                        host's loop device (terminal), so {@code flushes} is what reached the host; path
 *                        {@code qemu:/data}, no storage facts
 * @param bootMillis      from QEMU's start to the guest's disk mounted
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public record VmResult(CacheMode cacheMode, String accelerator, String acceleratorReason, String guestWriteCache,
                       String hostDevice, CheckResult result, long bootMillis) {

    /** The guest's own disk, as the guest names it. */
    public static final String GUEST_DEVICE = "vda";

    public Verdict verdict() {
        return result.verdict();
    }

    /** {@code qemu/cache=none}. */
    public String environment() {
        return cacheMode.environment();
    }

    /** Flushes the guest's disk completed over every mode's loop (what QEMU acknowledged). */
    public long guestFlushes() {
        return sum(GUEST_DEVICE);
    }

    /** Flushes the host's loop device completed over every mode's loop (what reached the host). */
    public long hostFlushes() {
        return sum(hostDevice);
    }

    public long guestFlushes(SyncCost c) {
        return EdgeJudge.flushes(c, GUEST_DEVICE);
    }

    public long hostFlushes(SyncCost c) {
        return EdgeJudge.flushes(c, hostDevice);
    }

    private long sum(String device) {
        long s = 0;
        for (SyncCost c : result.costs()) {
            long f = EdgeJudge.flushes(c, device);
            if (f < 0) {
                return -1;
            }
            s += f;
        }
        return s;
    }

    /** A guest's fields after the contract's, on its result element. */
    public record Fields(String cacheMode, String accelerator, String acceleratorReason, String guestWriteCache,
                         String hostDevice, long bootMillis, long guestFlushes, long hostFlushes) {
    }

    /** A guest's fields after the contract's, on each of its costs. */
    public record CostFields(long guestFlushes, long hostFlushes) {
    }

    /**
     * The result element of the JSON contract ({@link ResultData}, with {@code environment}) followed by
     * {@link Fields}, and each cost followed by {@link CostFields}.
     */
    public ExtendedResult element() {
        List<CostFields> perCost = new ArrayList<>();
        for (SyncCost c : result.costs()) {
            perCost.add(new CostFields(guestFlushes(c), hostFlushes(c)));
        }
        return new ExtendedResult(ResultData.of(result).withEnvironment(environment()), new Fields(cacheMode.id(),
                accelerator, acceleratorReason, guestWriteCache, hostDevice, bootMillis, guestFlushes(), hostFlushes()),
                perCost);
    }
}
