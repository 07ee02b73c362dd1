package io.flushcheck.powercut;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * What {@link SimulatedDisk#corrupt} changed, in words a report can quote ({@link #toString()}): "bit 3 of byte 8200
 * of db/wal flipped (drive byte 1056776)", "bytes 4096+4096 of db/wal zeroed (drive bytes 1052672+4096)".
 *
 * @param file     the file whose bytes changed, or null for the drive's own bytes
 * @param name     the file as the report names it: relative to the disk (or the survivor) it is on
 * @param offset   the first byte changed, in the file (or the drive)
 * @param length   how many bytes from it changed: 1 for bit rot
 * @param bit      the bit flipped, 0 (least significant) to 7; -1 when the bytes were zeroed
 * @param survivor true when the bytes changed on what survived a cut, false when with the power on
 * @param drive    where the changed bytes lie on the block model's drive (or its survivor's image); empty on the file model
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record Corruption(Path file, String name, long offset, long length, int bit, boolean survivor,
                         List<DriveRange> drive) {

    /** {@code length} bytes of the drive from {@code offset}. */
    public record DriveRange(long offset, long length) {
    }

    public Corruption {
        drive = List.copyOf(drive);
    }

    /** True when a bit was flipped, false when bytes were zeroed. */
    public boolean bitRot() {
        return bit >= 0;
    }

    @Override
    public String toString() {
        String of = file == null ? "of the drive" : "of " + name;
        String what = bitRot() ? "bit " + bit + " of byte " + offset + " " + of + " flipped"
                : "bytes " + offset + "+" + length + " " + of + " zeroed";
        if (file == null || drive.isEmpty()) {
            return what;
        }
        if (bitRot()) {
            return what + " (drive byte " + drive.get(0).offset() + ")";
        }
        return what + " (drive bytes " + drive.stream().map(r -> r.offset() + "+" + r.length())
                .collect(Collectors.joining(", ")) + ")";
    }
}
