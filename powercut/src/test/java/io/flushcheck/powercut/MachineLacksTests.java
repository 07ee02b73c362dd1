package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What {@link DiskRequirements} says this machine lacks, checked against the machine as programs see it. */
class MachineLacksTests {

    @Test
    void rootIsWhatIdSays() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(id.waitFor()).isZero();
        assertThat(DiskRequirements.root()).isEqualTo(uid.equals("0"));
        assertThat(DiskModel.root()).isEqualTo(uid.equals("0"));
    }

    @Test
    void theBlockModelIsAskedRootThenFuseThenItsMkfs() throws IOException {
        boolean fuse = Files.exists(Path.of("/dev/fuse"));
        DiskRequirements.Lack noSuchFs = DiskRequirements.lacking(DiskModel.BLOCK, "nosuchfs");
        if (!DiskRequirements.root()) {
            assertThat(noSuchFs).isEqualTo(DiskRequirements.Lack.ROOT);
            assertThat(DiskModel.blockModelMissing()).isEqualTo("not root");
        } else if (!fuse) {
            assertThat(noSuchFs).isEqualTo(DiskRequirements.Lack.FUSE_DEVICE);
            assertThat(DiskModel.blockModelMissing()).isEqualTo("no /dev/fuse");
        } else {
            assertThat(noSuchFs).isEqualTo(DiskRequirements.Lack.MKFS);
            assertThat(DiskRequirements.lacking(DiskModel.BLOCK, null)).isNull();
            assertThat(DiskModel.blockModelMissing()).isNull();
            boolean ext4 = Files.isExecutable(Path.of("/sbin/mkfs.ext4")) || Files.isExecutable(Path.of("/usr/sbin/mkfs.ext4"));
            assertThat(DiskRequirements.lacking(DiskModel.BLOCK, "ext4")).isEqualTo(ext4 ? null : DiskRequirements.Lack.MKFS);
        }
        assertThat(DiskRequirements.mkfs("xfs")).isEqualTo("mkfs.xfs");
        assertThat(DiskRequirements.mkfsInstalled("nosuchfs")).isFalse();
    }

    @Test
    void theFileModelNeedsFuseAndWithoutRootFusermount() {
        DiskRequirements.Lack lack = DiskRequirements.lacking(DiskModel.FILE, "nosuchfs");
        if (!Files.exists(Path.of("/dev/fuse"))) {
            assertThat(lack).isEqualTo(DiskRequirements.Lack.FUSE_DEVICE);
        } else {
            assertThat(lack).isEqualTo(DiskRequirements.root() || SimulatedDisk.fusermount() != null ? null
                    : DiskRequirements.Lack.FUSERMOUNT);
        }
    }
}
