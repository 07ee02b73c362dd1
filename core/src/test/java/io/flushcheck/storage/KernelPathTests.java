package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelPathTests {

    @Test
    void aPathInAnotherProcesssRootNamesThatProcess() {
        assertThat(KernelPath.namespacePid("/proc/4242/root/srv/data")).isEqualTo(4242);
        assertThat(KernelPath.namespacePid("/proc/4242/root")).isEqualTo(4242);
        assertThat(KernelPath.inner("/proc/4242/root/srv/data")).isEqualTo("/srv/data");
        assertThat(KernelPath.inner("/proc/4242/root")).isEqualTo("/");
    }

    @Test
    void otherPathsNameNoProcess() {
        assertThat(KernelPath.namespacePid("/srv/data")).isEqualTo(-1);
        assertThat(KernelPath.namespacePid("/proc/self/root/srv")).isEqualTo(-1);
        assertThat(KernelPath.namespacePid("/proc/4242/rootfs/srv")).isEqualTo(-1);
        assertThat(KernelPath.namespacePid("/proc/4242/cwd/srv")).isEqualTo(-1);
        assertThat(KernelPath.namespacePid("/proc//root/srv")).isEqualTo(-1);
    }

    @Test
    void aWalkInThisNamespaceEndsWhereRealpathDoes(@TempDir Path dir) throws IOException {
        Path target = Files.createDirectories(dir.resolve("a/b"));
        Path relative = Files.createSymbolicLink(dir.resolve("rel"), Path.of("a/b"));
        Path absolute = Files.createSymbolicLink(dir.resolve("abs"), relative.toAbsolutePath());
        Path throughSelf = Path.of("/proc/self/root" + absolute.toAbsolutePath());
        for (Path p : new Path[] {relative, absolute, throughSelf, dir.resolve("a/b/../b")}) {
            assertThat(KernelPath.walk(p.toAbsolutePath().toString())).as("%s", p).isEqualTo(target.toRealPath().toString());
            assertThat(KernelPath.resolve(p.toFile())).as("%s", p).isEqualTo(target.toRealPath().toString());
        }
    }
}
