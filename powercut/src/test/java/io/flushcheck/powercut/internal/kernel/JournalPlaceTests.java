package io.flushcheck.powercut.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.sys.Commands;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's place read from a fresh image by the filesystem's own tools, checked by the magic number the
 * journal starts with there: jbd2's superblock (0xC03B3998, big-endian) and xfs's log record header (0xFEEDBABE).
 */
class JournalPlaceTests {

    @TempDir
    Path tmp;

    @Test
    void ext4sJournalStartsWithJbd2sMagic() throws IOException {
        Path image = image("ext4", 64);
        List<JournalPlace.Range> journal = JournalPlace.of("ext4", image);
        System.out.println("ext4, 64 MiB: journal at " + journal);
        assertThat(journal).isNotEmpty();
        assertThat(magicAt(image, journal.get(0).offset())).isEqualTo(0xC03B3998);
        assertThat(journal.stream().mapToLong(JournalPlace.Range::length).sum()).isEqualTo(4L << 20);
    }

    @Test
    void xfssLogStartsWithALogRecordHeader() throws IOException {
        Path image = image("xfs", 512);
        List<JournalPlace.Range> log = JournalPlace.of("xfs", image);
        System.out.println("xfs, 512 MiB: log at " + log);
        assertThat(log).hasSize(1);
        assertThat(magicAt(image, log.get(0).offset())).isEqualTo(0xFEEDBABE);
    }

    @Test
    void btrfsHasNoJournalToPlace() throws IOException {
        assertThat(JournalPlace.of("btrfs", tmp.resolve("not-read.img"))).isEmpty();
    }

    @Test
    void debugfsExtentsAreReadInBlocks() {
        String stat = "Inode: 8   Type: regular\nEXTENTS:\n(0-1023):16385-17408, (1024):20000, (1025-1026):30000-30001\n";
        assertThat(JournalPlace.extExtents(stat, 1024)).containsExactly(
                new JournalPlace.Range(16385L * 1024, 1024L * 1024),
                new JournalPlace.Range(20000L * 1024, 1024),
                new JournalPlace.Range(30000L * 1024, 2048));
        assertThat(JournalPlace.extExtents("Inode: 8\nBLOCKS:\n(0-11):100-111\n", 4096)).isEmpty();
    }

    @Test
    void xfsLogstartCarriesItsAllocationGroupInItsHighBits() {
        String fields = "logstart = 65542\nlogblocks = 16384\nblocksize = 4096\nagblocks = 32768\nagblklog = 15\n";
        assertThat(JournalPlace.xfsLog(fields)).containsExactly(
                new JournalPlace.Range((2L * 32768 + 6) * 4096, 16384L * 4096));
        assertThat(JournalPlace.xfsLog(fields.replace("logstart = 65542", "logstart = 0")))
                .as("an external log is on another device").isEmpty();
    }

    private Path image(String fs, int mib) throws IOException {
        Requirements.require(Filesystems.find(Filesystems.tool(fs)) != null, Filesystems.tool(fs) + " ("
                + Filesystems.debianPackage(fs) + ")");
        Path image = tmp.resolve(fs + ".img");
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.setLength((long) mib << 20);
        }
        List<String> mkfs = Filesystems.mkfs(fs, List.of(), image.toString());
        mkfs.set(0, Filesystems.find(mkfs.get(0)).toString());
        Commands.run(mkfs.toArray(new String[0]));
        return image;
    }

    private static int magicAt(Path image, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "r")) {
            f.seek(offset);
            return f.readInt();
        }
    }
}
