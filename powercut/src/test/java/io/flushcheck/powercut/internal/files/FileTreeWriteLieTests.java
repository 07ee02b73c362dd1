package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.model.PowerLossModel;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file model's lost and misdirected writes ({@link FileTree#loseWrites}, {@link FileTree#misdirectWrites}): read
 * back with the power on as the program wrote them, durable as the drive wrote them.
 */
class FileTreeWriteLieTests {

    private static final long ROOT = FileTree.ROOT;

    @TempDir
    Path tmp;

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String read(FileTree t, long id) throws FileTree.Errno {
        ByteBuffer out = ByteBuffer.allocate(100);
        t.read(id, 0, out);
        return new String(out.array(), 0, out.position(), StandardCharsets.UTF_8);
    }

    private String survivor(FileTree t, String name) throws IOException {
        t.cut(PowerLossModel.CutMode.FLUSHED, 0);
        Path to = Files.createDirectories(tmp.resolve("survivor"));
        t.save(to);
        return Files.readString(to.resolve(name));
    }

    /** File {@code name} holding {@code text}, synced with its name. */
    private static long synced(FileTree t, String name, String text) throws FileTree.Errno {
        long a = t.create(ROOT, name, false, 0644, 0, 0).id();
        t.write(a, 0, bytes(text));
        t.sync(a);
        t.sync(ROOT);
        return a;
    }

    @Test
    void aLostWriteReadsBackWithThePowerOnAndNoSyncMakesItDurable() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = synced(t, "a", "0123456789");
        t.loseWrites(a, 2, 3, false);
        t.write(a, 1, bytes("abcdef"));
        t.sync(a);
        t.sync(a);
        assertThat(read(t, a)).as("the page cache's view").isEqualTo("0abcdef789");
        assertThat(t.lostWrites()).isEqualTo(1);
        assertThat(survivor(t, "a")).as("outside the range the write is durable").isEqualTo("0a234ef789");
    }

    @Test
    void aLostWriteKeepsWhatAnEarlierUnsyncedWriteGaveTheDriveAndGrowsTheFileWithZeros() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = synced(t, "a", "0123");
        t.write(a, 0, bytes("AB"));
        t.loseWrites(a, 0, 100, true);
        t.write(a, 1, bytes("xyz!"));
        t.sync(a);
        assertThat(read(t, a)).isEqualTo("Axyz!");
        assertThat(survivor(t, "a")).isEqualTo("AB23\0");
    }

    @Test
    void aMisdirectedWriteLandsInTheTargetAtItsSyncAndItsOwnRangeKeepsItsOldBytes() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = synced(t, "a", "aaaaaaaaaa");
        long b = synced(t, "b", "bbbbbbbbbb");
        t.misdirectWrites(a, 4, 2, false, b, 7);
        t.write(a, 3, bytes("XYZ"));
        t.sync(a);
        t.sync(b);
        assertThat(read(t, a)).isEqualTo("aaaXYZaaaa");
        assertThat(read(t, b)).as("the target's page cache does not see it").isEqualTo("bbbbbbbbbb");
        assertThat(t.misdirectedWrites()).isEqualTo(1);
        t.cut(PowerLossModel.CutMode.FLUSHED, 0);
        Path to = Files.createDirectories(tmp.resolve("survivor"));
        t.save(to);
        assertThat(Files.readString(to.resolve("a"))).isEqualTo("aaaXaaaaaa");
        assertThat(Files.readString(to.resolve("b"))).isEqualTo("bbbbbbbYZb");
    }

    @Test
    void aMisdirectedWriteWithinItsFileIsDurableAtItsSyncAndLandsOnlyWithinTheFile() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = synced(t, "a", "0123456789");
        t.misdirectWrites(a, 0, 4, false, a, 8);
        t.write(a, 0, bytes("WXYZ"));
        t.sync(a);
        assertThat(read(t, a)).isEqualTo("WXYZ456789");
        assertThat(survivor(t, "a")).as("the bytes past the end land in no file").isEqualTo("01234567WX");
    }

    @Test
    void aWriteAcrossSeveralRangesMeetsEachAndCountsOnce() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = synced(t, "a", "0123456789");
        t.loseWrites(a, 1, 2, false);
        t.loseWrites(a, 5, 2, false);
        t.write(a, 0, bytes("abcdefgh"));
        t.sync(a);
        assertThat(read(t, a)).isEqualTo("abcdefgh89");
        assertThat(t.lostWrites()).isEqualTo(1);
        assertThat(survivor(t, "a")).isEqualTo("a12de56h89");
    }

    @Test
    void aRecordingStartsFromWhatTheDriveHoldsNotFromTheBytesALostWriteLeftInThePageCache() throws Exception {
        Path file = tmp.resolve("recording");
        FileTree t = new FileTree(0, 0, Files.createDirectories(tmp.resolve("store")), Long.MAX_VALUE, true);
        try {
            long a = synced(t, "a", "0123456789");
            t.loseWrites(a, 2, 3, false);
            t.write(a, 0, bytes("abcdefghij"));
            t.sync(a);
            t.record(file);
            t.write(a, 9, bytes("!"));
            t.stopRecording();
        } finally {
            t.close();
        }
        java.util.List<String> seen = new java.util.ArrayList<>();
        try (RegularFile recording = RegularFile.open(file)) {
            TreeStates.Enumerated states = TreeStates.enumerate(recording, Files.createDirectories(tmp.resolve("scratch")),
                    Integer.MAX_VALUE);
            TreeStates.visit(recording, Files.createDirectories(tmp.resolve("scratch2")), states.states(),
                    tmp.resolve("state"), (c, survivor) -> seen.add(Files.readString(survivor.resolve("a"))));
        }
        assertThat(seen).containsExactlyInAnyOrder("ab234fghij", "ab234fghi!");
    }

    @Test
    void aFaultOnNoFileIsRefused() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = synced(t, "a", "x");
        assertThatThrownBy(() -> t.loseWrites(999, 0, 1, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no file has node 999");
        assertThatThrownBy(() -> t.misdirectWrites(a, 0, 1, false, ROOT, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no file has node " + ROOT);
    }
}
