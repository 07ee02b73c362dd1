package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.OwnFiles;
import io.flushcheck.testing.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A JVM killed while its guest runs leaves no QEMU running and no loop device attached. */
class KilledRunTests {

    @Test
    void aKilledJvmsGuestDiesAndItsLoopDeviceIsReleased() throws Exception {
        VmTesting.requireVm();
        new VmProbe(null, m -> { }).prepare(); // the image built beforehand, not in the child's five seconds
        Path dir = VmTesting.hostDir("killed");
        int rounds = 50_000 + (int) (ProcessHandle.current().pid() % 1000);
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), KilledVmChild.class.getName(),
                List.of(dir.toString(), Integer.toString(rounds))), 120);
        assertThat(r.exit()).as("%s", r).isEqualTo(128 + 9);
        assertThat(r.stdout()).contains("killing").doesNotContain("finished before the kill");
        Matcher m = Pattern.compile("on /dev/(loop\\d+)\\)").matcher(r.stdout());
        assertThat(m.find()).as(r.stdout()).isTrue();
        String loop = m.group(1);
        String marker = "flushcheck.args=" + rounds + ",";
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((LoopDevice.attached(loop) && VmTesting.loopsBackedIn(dir).contains(loop)
                || !VmTesting.qemuProcessesWith(marker).isEmpty()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(VmTesting.qemuProcessesWith(marker)).as("QEMU outlived the JVM that started it").isEmpty();
        assertThat(VmTesting.loopsBackedIn(dir)).as("loop devices left attached").isEmpty();
        // SIGKILL runs no hook: the disk image stays until the next probe in that directory sweeps it.
        assertThat(VmTesting.ownFilesIn(dir)).hasSize(1);
        assertThat(OwnFiles.sweep(dir)).contains("removed 1 file");
        assertThat(VmTesting.ownFilesIn(dir)).isEmpty();
    }
}
