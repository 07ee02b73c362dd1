package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * Damages a block of a survivor's file as a {@link DamagedBlock} says, and says what it did. (Placeholder applying the
 * damage to the file model's survivor directly; the block model goes through the drive.)
 */
final class SurvivorDamage {

    private SurvivorDamage() {
    }

    /** The survivor's file {@code name}, refused when it would lead out of {@code survivor}. */
    static Path file(Path survivor, String name) {
        Path p = survivor.resolve(name).normalize();
        for (Path part : survivor.relativize(p)) {
            if (part.toString().equals("..")) {
                throw new IllegalArgumentException(name + " is not a file of the survivor " + survivor);
            }
        }
        if (!p.startsWith(survivor) || p.equals(survivor)) {
            throw new IllegalArgumentException(name + " is not a file of the survivor " + survivor);
        }
        return p;
    }

    /** Applies {@code d} to the file of {@code survivor} it names; what was done, in words. */
    static String apply(SimulatedDisk disk, Path survivor, DamagedBlock d) throws IOException {
        if (disk.model() == DiskModel.BLOCK) {
            throw new UnsupportedOperationException("damaging a block model survivor's drive is not wired yet");
        }
        Path file = file(survivor, d.file());
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            long size = c.size();
            if (d.offset() >= size) {
                throw new IllegalArgumentException(d.file() + " holds " + size + " bytes on the survivor, none at " + d.offset());
            }
            int held = (int) Math.min(d.length(), size - d.offset());
            if (d.kind() == DamagedBlock.Kind.ZEROED) {
                c.write(ByteBuffer.allocate(held), d.offset());
                c.force(true);
                return "bytes " + d.offset() + "+" + held + " of " + d.file() + " zeroed";
            }
            SplittableRandom r = new SplittableRandom(d.seed());
            long at = d.offset() + r.nextInt(held);
            int bit = r.nextInt(8);
            ByteBuffer b = ByteBuffer.allocate(1);
            c.read(b, at);
            b.put(0, (byte) (b.get(0) ^ (1 << bit)));
            c.write(b.rewind(), at);
            c.force(true);
            return "bit " + bit + " of byte " + at + " of " + d.file() + " flipped";
        }
    }
}
