package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real QEMU guests on a real loop device: what each cache mode does with the guest's flushes, counted on
 * the host's side of the disk.
 */
class VmProbeTests {

    static final int ROUNDS = 100;
    static final ProbePlan PLAN = ProbePlan.defaults().withModes(List.of(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FDATASYNC))
            .withRounds(ROUNDS);

    static VmProbe probe;
    static CheckResult hostStorage;
    Path dir;
    final List<String> progress = new ArrayList<>();

    @BeforeAll
    static void image() throws Exception {
        VmTesting.requireVm();
        probe = new VmProbe(null, System.err::println);
        probe.prepare();
    }

    @BeforeEach
    void host() throws Exception {
        dir = VmTesting.hostDir("probe");
        if (hostStorage == null) {
            hostStorage = Flushcheck.check(dir, CheckOptions.defaults().withPlan(ProbePlan.defaults()
                    .withModes(List.of(SyncMode.OVERWRITE_FDATASYNC)).withRounds(ROUNDS)), ProbeListener.NONE);
        }
    }

    @AfterEach
    void nothingLeft() throws Exception {
        assertThat(VmTesting.qemuProcessesFor(dir)).as("QEMU processes left").isEmpty();
        assertThat(VmTesting.loopsBackedIn(dir)).as("loop devices left attached").isEmpty();
        assertThat(VmTesting.ownFilesIn(dir)).as("disk images left").isEmpty();
    }

    private VmResult run(CacheMode mode) {
        return probe.run(mode, dir, PLAN, hostStorage, Thresholds.DEFAULT);
    }

    @Test
    void aDiskImageOnTmpfsIsNoRealFlushHoweverTheFlushesPassed() throws Exception {
        Path shm = Files.createDirectories(Path.of("/dev/shm", "flushcheck-vm-" + ProcessHandle.current().pid()));
        try {
            CheckResult tmpfs = Flushcheck.check(shm, CheckOptions.defaults(), ProbeListener.NONE);
            assertThat(tmpfs.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            VmResult r = probe.run(CacheMode.WRITEBACK, shm, PLAN.withModes(List.of(SyncMode.OVERWRITE_FDATASYNC)), tmpfs,
                    Thresholds.DEFAULT);
            assertThat(r.verdict()).as(r.result().judgement().summary()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(r.result().judgement().reasons()).extracting(f -> f.code())
                    .containsExactly(FindingCode.HOST_STORAGE_NO_REAL_FLUSH);
            assertThat(r.result().judgement().reasons().get(0).message()).contains(shm.toString(), "tmpfs");
            // the flushes did pass the edge: it is the host's storage that does not keep them
            assertThat(r.result().judgement().has(FindingCode.HOST_FLUSHES_REACHED)).isTrue();
            assertThat(VmTesting.loopsBackedIn(shm)).isEmpty();
            assertThat(VmTesting.ownFilesIn(shm)).isEmpty();
        } finally {
            Files.deleteIfExists(shm);
        }
    }

    @Test
    void unsafeAcknowledgesFlushesTheHostDiskNeverReceives() {
        VmResult r = run(CacheMode.UNSAFE);
        assertThat(r.verdict()).as(r.result().judgement().summary()).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(r.result().judgement().reasons().get(0).code()).isEqualTo(FindingCode.HOST_FLUSHES_MISSING);
        assertThat(r.result().judgement().reasons().get(0).message()).contains("cache=unsafe");
        assertThat(r.guestWriteCache()).isEqualTo("write back");
        for (SyncCost c : r.result().costs()) {
            assertThat(r.guestFlushes(c)).as(c.mode().id() + " guest flushes").isGreaterThanOrEqualTo(ROUNDS);
            assertThat(r.hostFlushes(c)).as(c.mode().id() + " host flushes").isLessThan(ROUNDS / 10);
            assertThat(c.latencies().count()).isEqualTo(ROUNDS);
        }
    }

    @Test
    void noneAndWritebackPassEveryFlushToTheHostDisk() {
        for (CacheMode mode : List.of(CacheMode.NONE, CacheMode.WRITEBACK)) {
            VmResult r = run(mode);
            assertThat(r.verdict()).as(mode + ": " + r.result().judgement().summary()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(r.result().judgement().has(FindingCode.HOST_FLUSHES_REACHED)).isTrue();
            assertThat(r.result().judgement().has(FindingCode.HOST_STORAGE)).isTrue();
            for (SyncCost c : r.result().costs()) {
                assertThat(r.guestFlushes(c)).as(mode + " " + c.mode().id() + " guest flushes").isGreaterThanOrEqualTo(ROUNDS);
                assertThat(r.hostFlushes(c)).as(mode + " " + c.mode().id() + " host flushes").isGreaterThanOrEqualTo(ROUNDS);
            }
        }
    }

    @Test
    void writeThroughDisksSendNoFlushesWhileTheHostSyncsEveryWrite() {
        for (CacheMode mode : List.of(CacheMode.WRITETHROUGH, CacheMode.DIRECTSYNC)) {
            VmResult r = run(mode);
            assertThat(r.verdict()).as(mode + ": " + r.result().judgement().summary()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(r.result().judgement().has(FindingCode.HOST_WRITES_SYNCED)).isTrue();
            assertThat(r.guestWriteCache()).isEqualTo("write through");
            for (SyncCost c : r.result().costs()) {
                assertThat(r.guestFlushes(c)).as(mode + " " + c.mode().id() + " guest flushes").isZero();
                assertThat(r.hostFlushes(c)).as(mode + " " + c.mode().id() + " host flushes").isGreaterThanOrEqualTo(ROUNDS);
            }
        }
    }
}
