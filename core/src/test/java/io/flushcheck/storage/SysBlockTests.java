package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysBlockTests {

    @Test
    void onlyRamFollowedByDigitsIsABrdDisk() {
        assertThat(SysBlock.isRamDisk("ram0")).isTrue();
        assertThat(SysBlock.isRamDisk("ram15")).isTrue();
        assertThat(SysBlock.isRamDisk("ram")).isFalse();
        assertThat(SysBlock.isRamDisk("ramoops")).isFalse();
        assertThat(SysBlock.isRamDisk("ram1p1")).isFalse();
        assertThat(SysBlock.isRamDisk("zram0")).isFalse();
        assertThat(SysBlock.isRamDisk("sda")).isFalse();
    }

    /** A disk {@code name} under {@code sys/devices}, linked from class/block, with its write cache. */
    private static Path disk(Path sys, String name, String cache) throws IOException {
        Path dir = Files.createDirectories(sys.resolve("devices/pci0/" + name));
        Files.createDirectories(dir.resolve("device"));
        Files.createDirectories(dir.resolve("queue"));
        Files.writeString(dir.resolve("queue/write_cache"), cache + "\n");
        Files.createDirectories(sys.resolve("class/block"));
        Files.createSymbolicLink(sys.resolve("class/block").resolve(name), dir);
        return dir;
    }

    @Test
    void anMdArraysSpareAndFaultyMembersAreNotWhereItsFlushesLand(@TempDir Path sys) throws IOException {
        Path md = Files.createDirectories(sys.resolve("devices/virtual/block/md0"));
        Files.createDirectories(md.resolve("slaves"));
        for (String[] m : new String[][] {{"sda", "in_sync"}, {"sdb", "in_sync,write_mostly"}, {"sdc", "spare"},
                {"sdd", "faulty"}}) {
            Files.createSymbolicLink(md.resolve("slaves").resolve(m[0]), disk(sys, m[0], "write back"));
            Files.createDirectories(md.resolve("md/dev-" + m[0]));
            Files.writeString(md.resolve("md/dev-" + m[0] + "/state"), m[1] + "\n");
        }
        Files.createSymbolicLink(sys.resolve("class/block/md0"), md);
        BlockDevice chain = new SysBlock(sys, new MountTable(java.util.List.of())).chainOfName("md0");
        assertThat(chain.kind()).isEqualTo(BlockDevice.Kind.MD_RAID);
        assertThat(chain.terminals()).extracting(BlockDevice::name).containsExactlyInAnyOrder("sda", "sdb");
    }
}
