package io.flushcheck.powercut;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.TreeSet;

/**
 * One 4 KiB record overwritten in place with O_DIRECT and synced: an 8-byte version, then a body of the
 * version's byte, with no checksum. A drive that writes 4 KiB atomically keeps one version whole; one that
 * writes 512 bytes may keep the new header over part of the old body.
 */
final class Slot {

    static final int BLOCK = 4096;

    private Slot() {
    }

    /** The slot holding version 0, synced with its name. */
    static void create(Path file) throws IOException {
        createZeros(file, BLOCK);
    }

    /** A new file of {@code bytes} zeros, its blocks allocated, synced with its name: for overwrites in place. */
    static void createZeros(Path file, int bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(bytes));
            ch.force(true);
        }
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    static void overwrite(Path file, int version) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            ByteBuffer b = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK);
            b.putLong(version);
            while (b.hasRemaining()) {
                b.put((byte) version);
            }
            b.flip();
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
            ch.force(false);
        }
    }

    /** The slot holds one whole version, no older than the last in {@code mustSurvive}. */
    static void verify(Path file, List<String> mustSurvive) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
        long version = b.getLong();
        TreeSet<Integer> body = new TreeSet<>();
        while (b.hasRemaining()) {
            body.add((int) b.get());
        }
        if (!body.equals(new TreeSet<>(List.of((int) version)))) {
            throw new AssertionError("the slot holds version " + version + ", its body versions " + body);
        }
        long acknowledged = mustSurvive.isEmpty() ? 0 : Long.parseLong(mustSurvive.get(mustSurvive.size() - 1));
        if (version < acknowledged) {
            throw new AssertionError("the slot holds version " + version + ", after version " + acknowledged
                    + " was acknowledged");
        }
    }
}
