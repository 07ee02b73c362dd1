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
        // Not listed: which devices it has is not known, which is not "none".
        assertThat(FilesystemDevices.btrfsOthers(sys, "vda")).isNull();
        assertThat(FilesystemDevices.btrfsOthers(sys, null)).isNull();
    }

    @Test
    void anExt4WithoutAJournalHasNoJournalDevice(@TempDir Path sys, @TempDir Path proc) throws IOException {
        Files.createDirectories(sys.resolve("fs/ext4/vda"));
        Files.writeString(sys.resolve("fs/ext4/vda/journal_task"), "<none>\n");
        Files.createDirectories(proc.resolve("fs/jbd2"));
        assertThat(FilesystemDevices.ext4Journal(sys, proc, "vda")).isEqualTo(FilesystemDevices.INTERNAL);
    }

    /** An ext4 on vda1 whose journal thread {@code journal_task} names (or null for a kernel without the file). */
    private static void ext4(Path sys, Path proc, String task, String... jbd2) throws IOException {
        Files.createDirectories(sys.resolve("fs/ext4/vda1"));
        Files.createDirectories(sys.resolve("class/block/loop0"));
        Files.createDirectories(sys.resolve("class/block/loop1"));
        Files.createDirectories(proc.resolve("fs/ext4/vda1"));
        Files.writeString(proc.resolve("fs/ext4/vda1/options"), "rw\nbarrier\ndata=ordered\n");
        if (task != null) {
            Files.writeString(sys.resolve("fs/ext4/vda1/journal_task"), task + "\n");
        }
        for (String j : jbd2) {
            Files.createDirectories(proc.resolve("fs/jbd2").resolve(j));
        }
    }

    @Test
    void anInternalJournalIsToldByJbd2sEntryWithoutItsThread(@TempDir Path sys, @TempDir Path proc) throws IOException {
        ext4(sys, proc, "0", "vda1-8", "loop0");
        assertThat(FilesystemDevices.ext4Journal(sys, proc, "vda1")).isEqualTo(FilesystemDevices.INTERNAL);
    }

    @Test
    void aJournalInodeMovedByTune2fsIsStillInternal(@TempDir Path sys, @TempDir Path proc) throws IOException {
        ext4(sys, proc, null, "vda1-12");
        assertThat(FilesystemDevices.ext4Journal(sys, proc, "vda1")).isEqualTo(FilesystemDevices.INTERNAL);
    }

    @Test
    void anExternalJournalIsNamedByItsThread(@TempDir Path sys, @TempDir Path proc) throws IOException {
        ext4(sys, proc, "4242", "loop0", "loop1", "vda2-8");
        Files.createDirectories(proc.resolve("4242"));
        Files.writeString(proc.resolve("4242/comm"), "jbd2/loop1\n");
        assertThat(FilesystemDevices.ext4Journal(sys, proc, "vda1").device()).isEqualTo("loop1");
    }

    @Test
    void anExternalJournalWhoseThreadCannotBeSeenIsNotPlacedNotInternal(@TempDir Path sys, @TempDir Path proc)
            throws IOException {
        // 0: the thread is in no PID namespace of ours (a container); unreadable comm: hidepid; no file: an older kernel.
        for (String task : new String[] {"0", "4242", null}) {
            ext4(sys, proc, task, "loop0");
            FilesystemDevices.Journal j = FilesystemDevices.ext4Journal(sys, proc, "vda1");
            assertThat(j.device()).as("%s", task).isNull();
            assertThat(j.why()).as("%s", task).contains("vda1").contains("not known");
            Files.deleteIfExists(sys.resolve("fs/ext4/vda1/journal_task"));
        }
    }

    @Test
    void aCutThreadNameThatFitsTwoJournalsIsNotPlaced(@TempDir Path sys, @TempDir Path proc) throws IOException {
        ext4(sys, proc, "4242", "nvme0n1p12345", "nvme0n1p12346");
        Files.createDirectories(sys.resolve("class/block/nvme0n1p12345"));
        Files.createDirectories(proc.resolve("4242"));
        Files.writeString(proc.resolve("4242/comm"), "jbd2/nvme0n1p12\n");
        assertThat(FilesystemDevices.ext4Journal(sys, proc, "vda1").why()).contains("fits");
    }
}
