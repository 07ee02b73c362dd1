package io.flushcheck.powercut;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A record kept twice, as a store keeps two copies of its superblock, with a commit marker after them: three
 * 4 KiB blocks written in place with O_DIRECT, copy A, copy B, then the marker, each a version number over a
 * whole block, and one fdatasync after the three. Recovery reads the newer copy, which must be at least the
 * marker's version, so a drive that loses either copy alone loses nothing. It loses a commit only where both
 * copies and not the marker were lost: the marker is not ordered after the copies by a flush.
 */
final class MirroredRecord {

    private static final int BLOCK = 4096;

    private MirroredRecord() {
    }

    /** The record at version 0, synced with its name. */
    static void create(Path file) throws IOException {
        Slot.createZeros(file, 3 * BLOCK);
    }

    /** Copy A, copy B and the marker at {@code version}, then one fdatasync. */
    static void commit(Path file, int version) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            ByteBuffer b = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK);
            for (int block = 0; block < 3; block++) {
                b.clear();
                while (b.hasRemaining()) {
                    b.putInt(version);
                }
                b.flip();
                while (b.hasRemaining()) {
                    ch.write(b, (long) block * BLOCK + b.position());
                }
            }
            ch.force(false);
        }
    }

    /** A copy holds the marker's version or a newer one, and the marker is no older than the last acknowledged. */
    static void verify(Path file, List<String> mustSurvive) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
        int a = b.getInt(0);
        int copyB = b.getInt(BLOCK);
        int marker = b.getInt(2 * BLOCK);
        if (Math.max(a, copyB) < marker) {
            throw new AssertionError("the marker commits version " + marker + ", but copy A holds " + a + " and copy B "
                    + copyB);
        }
        int acknowledged = mustSurvive.isEmpty() ? 0 : Integer.parseInt(mustSurvive.get(mustSurvive.size() - 1));
        if (marker < acknowledged) {
            throw new AssertionError("version " + acknowledged + " was acknowledged, the marker commits " + marker);
        }
    }
}
