package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemDevicesTests {

    @Test
    void aBtrfsListsEveryDeviceButTheOneMountinfoNames(@TempDir Path sys) throws IOException {
        Files.createDirectories(sys.resolve("fs/btrfs/1111/devices/sdc"));
        Files.createDirectories(sys.resolve("fs/btrfs/2222/devices/loop0"));
        Files.createDirectories(sys.resolve("fs/btrfs/2222/devices/loop1"));
        Files.createDirectories(sys.resolve("fs/btrfs/2222/devices/loop7"));
        Files.createDirectories(sys.resolve("fs/btrfs/features"));
        assertThat(FilesystemDevices.btrfsOthers(sys, "loop1")).containsExactlyInAnyOrder("loop0", "loop7");
        assertThat(FilesystemDevices.btrfsOthers(sys, "sdc")).isEmpty();
        assertThat(FilesystemDevices.btrfsOthers(sys, "vda")).isEmpty();
        assertThat(FilesystemDevices.btrfsOthers(sys, null)).isEmpty();
    }

    @Test
    void anExt4WithoutAJournalThreadHasNoJournalDevice(@TempDir Path sys) throws IOException {
        Files.createDirectories(sys.resolve("fs/ext4/vda"));
        Files.writeString(sys.resolve("fs/ext4/vda/journal_task"), "<none>\n");
        assertThat(FilesystemDevices.ext4Journal(sys, "vda")).isNull();
        assertThat(FilesystemDevices.ext4Journal(sys, "sdz")).isNull();
    }
}
