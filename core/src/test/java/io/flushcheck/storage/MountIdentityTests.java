package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MountIdentityTests {

    @Test
    void pathsThroughAnotherNamespaceAreKeyedByItsMountsNotByProc() throws IOException {
        Mounts.requireMountTools();
        Requirements.requireCommand("unshare", "util-linux");
        Path base = Files.createDirectories(Path.of("target", "mount-identity").toAbsolutePath());
        Path disk = Files.createDirectories(base.resolve("disk"));
        Path disk2 = Files.createDirectories(base.resolve("disk2"));
        try (Mounts mounts = new Mounts()) {
            long pid = mounts.namespaceWithTmpfs(base.resolve("tmpfs"));
            String tmpfs = KernelPath.resolve(new File("/proc/" + pid + "/root" + base.resolve("tmpfs")));
            String onDisk = KernelPath.resolve(new File("/proc/" + pid + "/root" + disk));
            String onDisk2 = KernelPath.resolve(new File("/proc/" + pid + "/root" + disk2));
            assertThat(MountIdentity.of(tmpfs)).isNotEqualTo(MountIdentity.of(onDisk)).startsWith("mnt:[");
            assertThat(MountIdentity.of(onDisk)).isEqualTo(MountIdentity.of(onDisk2));
            assertThat(MountIdentity.of(disk.toString())).isNotEqualTo(MountIdentity.of(onDisk))
                    .isEqualTo("mount " + MountTable.live().mountOf(disk.toString()).mountId());
        }
    }
}
