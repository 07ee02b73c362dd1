package io.flushcheck.cli.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Directories reached through another mount namespace's {@code /proc/PID/root} are on the mounts of that namespace:
 * each is probed on its own, never judged with another's probe because this namespace sees them all on /proc.
 */
class NamespaceMountsTests {

    @Test
    void aTmpfsAndADiskDirectoryThroughAnotherNamespaceAreNotOneMount() throws IOException {
        Mounts.requireMountTools();
        Requirements.requireCommand("unshare", "util-linux");
        Path base = Files.createDirectories(Path.of("target", "ns-mounts").toAbsolutePath());
        Path disk = Files.createDirectories(base.resolve("disk"));
        try (Mounts mounts = new Mounts()) {
            long pid = mounts.namespaceWithTmpfs(base.resolve("tmpfs"));
            String tmpfs = "/proc/" + pid + "/root" + base.resolve("tmpfs");
            String onDisk = "/proc/" + pid + "/root" + disk;
            InProcess.Run r = InProcess.run("--modes", "overwrite-fdatasync", "--rounds", "40", tmpfs, onDisk);
            assertThat(r.err()).as("%s", r).doesNotContain("is on the mount of");
            assertThat(r.out()).as("%s", r).contains("verdict: NO_REAL_FLUSH").contains("verdict: REAL_FLUSH");
        }
    }
}
