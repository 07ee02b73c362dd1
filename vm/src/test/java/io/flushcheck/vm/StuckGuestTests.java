package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A guest that gives no result in time is killed, says so, and leaves nothing attached. */
class StuckGuestTests {

    @Test
    void aGuestPastItsDeadlineIsKilledAndItsDiskReleased() throws Exception {
        VmTesting.requireVm();
        VmProbe probe = new VmProbe(null, m -> { });
        probe.prepare();
        BootImage image = BootImage.obtain(BootImage.defaultCache(), BootImage.Inputs.ofThisMachine(), m -> { });
        Path dir = VmTesting.hostDir("stuck");
        int rounds = 60_000 + (int) (ProcessHandle.current().pid() % 1000);
        ProbePlan plan = ProbePlan.defaults().withModes(List.of(SyncMode.OVERWRITE_FDATASYNC)).withRounds(rounds);
        String loop;
        try (DataDisk disk = DataDisk.create(dir, DataDisk.sizeFor(rounds, 4096))) {
            loop = disk.loop().name();
            List<String> cmd = QemuGuest.command(image, Accelerator.choose(), CacheMode.NONE, disk.loop(), plan);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> QemuGuest.run(cmd, disk.loop(), 2_000))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no result within 2 s, QEMU was killed")
                    .hasMessageContaining("the guest's last lines");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("killed at the deadline").isLessThan(15_000);
            assertThat(VmTesting.qemuProcessesWith("flushcheck.args=" + rounds + ",")).isEmpty();
        }
        assertThat(LoopDevice.attached(loop) && VmTesting.loopsBackedIn(dir).contains(loop)).isFalse();
        assertThat(VmTesting.ownFilesIn(dir)).isEmpty();
    }
}
