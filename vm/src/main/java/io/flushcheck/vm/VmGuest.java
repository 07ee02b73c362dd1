package io.flushcheck.vm;

import io.flushcheck.guest.GuestPlace;
import io.flushcheck.guest.GuestRequest;
import io.flushcheck.guest.RunOutput;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.storage.HostEdge;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * A QEMU guest as a place for a {@link io.flushcheck.guest.GuestSuite}: test classes run there in this JVM's
 * Java with this JVM's class path, and their data directory is an ext4 on a virtual disk with the given cache
 * mode, so that {@code @TempDir} and {@code java.io.tmpdir} land on it.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> hostContainersAndVms() {
 *     return GuestSuite.of(OrderRepositoryDurabilityTests.class)
 *             .also(VmGuest.of(CacheMode.NONE), VmGuest.of(CacheMode.UNSAFE))
 *             .dynamicTests();
 * }
 * }</pre>
 *
 * <p>Judged from both sides of the virtual disk: before the tests, the guest's probe runs once while the host
 * counts the flushes arriving on the disk's loop device ({@link VmProbe}); what the host found is stated to the
 * guest's JVM ({@link HostEdge}), so a flushcheck check inside the guest, {@code @RequiresRealFlush} included,
 * is NO_REAL_FLUSH where the host received none of the flushes ({@code cache=unsafe}), with the host's figures.
 *
 * <p>Needs what {@link VmProbe#requirements()} names, and Java and the class path outside {@code /run},
 * {@code /proc}, {@code /sys} and {@code /dev}, which the guest mounts for itself. Under emulation (TCG) a JVM
 * starts about ten times slower than on the host: a guest with one small test class takes 15 to 30 s.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public final class VmGuest implements GuestPlace {

    /** How long one guest run may take, tests included, before QEMU is killed. */
    static final long TIMEOUT_MILLIS = 30L * 60 * 1000;
    /** The host's look beyond the disk: 64 rounds of each verification mode, a few seconds under TCG. */
    static final ProbePlan EDGE_PLAN = ProbePlan.verification().withRounds(64);

    private final CacheMode cache;
    private final Path imageCache;

    private VmGuest(CacheMode cache, Path imageCache) {
        this.cache = cache;
        this.imageCache = imageCache;
    }

    /** A guest whose data disk has this cache mode; images are cached where {@link VmProbe} keeps them. */
    public static VmGuest of(CacheMode cache) {
        return new VmGuest(cache, null);
    }

    /** The same guest with its images cached in {@code dir}. */
    public VmGuest imageCache(Path dir) {
        return new VmGuest(cache, dir);
    }

    /** {@code qemu/cache=<mode>}, as {@code flushcheck vm} names its results. */
    @Override
    public String name() {
        return cache.environment();
    }

    @Override
    public void requireAvailable() {
        try {
            VmProbe.requirements();
        } catch (VmUnavailableException e) {
            GuestPlace.notHere(name() + " cannot run here: " + e.getMessage());
        }
    }

    @Override
    public RunOutput run(GuestRequest request, Consumer<String> progress) throws IOException {
        VmProbe probe = new VmProbe(imageCache, progress);
        progress.accept(name() + ": counting the host's flushes under the guest's disk first");
        VmResult edge = probe.run(cache, request.hostDir(), EDGE_PLAN, null, Thresholds.DEFAULT);
        HostEdge statement = statement(edge);
        String said = "the host's side of " + VmResult.GUEST_DEVICE + ": " + edge.verdict() + ", "
                + edge.result().judgement().summary();
        progress.accept(name() + ": " + said);
        RunOutput out = JreRun.run(probe.image(), probe.chosenAccelerator(), cache, request, statement, TIMEOUT_MILLIS,
                progress);
        return new RunOutput(out.json(), out.exitCode(), "flushcheck: " + said + "\n" + out.log());
    }

    /** What the host tells the guest: REAL_FLUSH as reached, NO_REAL_FLUSH as missing, nothing when undecided. */
    static HostEdge statement(VmResult edge) {
        Verdict v = edge.verdict();
        if (v == Verdict.UNKNOWN) {
            return null;
        }
        return new HostEdge(VmResult.GUEST_DEVICE, v == Verdict.REAL_FLUSH, edge.result().judgement().summary());
    }

    @Override
    public String toString() {
        return name();
    }
}
