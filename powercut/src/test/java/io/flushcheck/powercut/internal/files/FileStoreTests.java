package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file model's store: versions of up to {@link FileStore#SLOT} bytes share one file, each reading back its own
 * bytes and zeros past them; one that outgrows its slot moves to a file of its own with its bytes, and the slot it
 * leaves shows none of them to the version handed it next.
 */
class FileStoreTests {

    @TempDir
    Path tmp;

    @Test
    void smallVersionsShareOneFileAndEachReadsBackItsOwnBytes() throws Exception {
        try (FileStore store = new FileStore(tmp)) {
            for (int i = 0; i < 1000; i++) {
                store.write("n" + i, i % 7, bytes("version " + i));
            }
            for (int i = 0; i < 1000; i++) {
                assertThat(read(store, "n" + i, 0, i % 7 + 12)).isEqualTo("\0".repeat(i % 7) + padded("version " + i, 12));
            }
            assertThat(files(store)).as("files in the store's directory").hasSize(1);
        }
    }

    @Test
    void aVersionOutgrowingItsSlotKeepsItsBytesInAFileOfItsOwnAndItsSlotIsHandedOutClean() throws Exception {
        try (FileStore store = new FileStore(tmp)) {
            store.write("big", 0, bytes("x".repeat(100)));
            store.write("big", FileStore.SLOT + 10, bytes("far"));
            assertThat(read(store, "big", 0, 100)).isEqualTo("x".repeat(100));
            assertThat(read(store, "big", 100, FileStore.SLOT - 90)).isEqualTo("\0".repeat(FileStore.SLOT - 90));
            assertThat(read(store, "big", FileStore.SLOT + 10, 3)).isEqualTo("far");
            assertThat(files(store)).hasSize(2);
            // The slot "big" left, with its x's, goes to the next small version: it reads zeros before its bytes.
            store.write("small", 50, bytes("y"));
            assertThat(read(store, "small", 0, 52)).isEqualTo("\0".repeat(50) + "y\0");
            try (FileChannel out = FileChannel.open(tmp.resolve("copy"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                store.copyTo("small", 1000, out);
            }
            assertThat(Files.readString(tmp.resolve("copy"))).isEqualTo("\0".repeat(50) + "y");
        }
    }

    @Test
    void aTruncatedSlotReadsZerosPastItsNewSizeWhenWrittenFurtherOn() throws Exception {
        try (FileStore store = new FileStore(tmp)) {
            store.write("f", 0, bytes("abcdefgh"));
            store.truncate("f", 3);
            store.write("f", 6, bytes("Z"));
            assertThat(read(store, "f", 0, 8)).isEqualTo("abc\0\0\0Z\0");
        }
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String padded(String s, int length) {
        return s + "\0".repeat(length - s.length());
    }

    private static String read(FileStore store, String name, long pos, int length) {
        ByteBuffer out = ByteBuffer.allocate(length);
        store.read(name, pos, out);
        return new String(Arrays.copyOf(out.array(), length), StandardCharsets.UTF_8);
    }

    private static List<Path> files(FileStore store) throws Exception {
        try (Stream<Path> all = Files.list(store.dir())) {
            return all.toList();
        }
    }
}
