package io.flushcheck.vm;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.report.Json;
import io.flushcheck.report.JsonInput;
import io.flushcheck.report.ResultData;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * The result element of the JSON contract ({@link ResultData}) with {@code environment},
     * {@code cacheMode}, {@code accelerator}, {@code guestWriteCache}, {@code hostDevice}, {@code bootMillis},
     * {@code guestFlushes} and {@code hostFlushes}, and per cost {@code guestFlushes} and {@code hostFlushes}.
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap() {
        // The contract's element as written, as a tree to add to: a VM run takes seconds, so writing it
        // and reading it back costs nothing that shows.
        Map<String, Object> base = JsonInput.parseObject(Json.write(ResultData.of(result)));
        base.remove("environment");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("environment", environment());
        m.putAll(base);
        m.put("cacheMode", cacheMode.id());
        m.put("accelerator", accelerator);
        m.put("acceleratorReason", acceleratorReason);
        m.put("guestWriteCache", guestWriteCache);
        m.put("hostDevice", hostDevice);
        m.put("bootMillis", bootMillis);
        m.put("guestFlushes", guestFlushes());
        m.put("hostFlushes", hostFlushes());
        List<Object> costs = new ArrayList<>();
        List<SyncCost> typed = result.costs();
        List<Object> maps = (List<Object>) base.get("costs");
        for (int i = 0; i < maps.size(); i++) {
            Map<String, Object> c = new LinkedHashMap<>((Map<String, Object>) maps.get(i));
            c.put("guestFlushes", guestFlushes(typed.get(i)));
            c.put("hostFlushes", hostFlushes(typed.get(i)));
            costs.add(c);
        }
        m.put("costs", costs);
        return m;
    }
}
