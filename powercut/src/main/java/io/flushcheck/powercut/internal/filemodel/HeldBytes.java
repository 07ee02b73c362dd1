package io.flushcheck.powercut.internal.filemodel;

import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.disk.ModelDisk.FaultRange;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which bytes of a file of the file model's survivor its drive holds: those some write the cut kept put there. The cut
 * writes the survivor out as plain files in which what no kept write reached (bytes never synced, a size grown by a
 * truncate) is a hole, so the plain copy's data ({@code SEEK_DATA}) is what the drive holds, as FIEMAP's extents are on
 * the block model's.
 */
final class HeldBytes {

    private HeldBytes() {
    }

    /**
     * The pieces of {@code length} bytes from {@code offset} of {@code file} that its plain copy {@code plain} holds, as
     * ranges of {@code unit}, in order.
     *
     * @throws IllegalArgumentException when it holds none of them, as the block model says it
     *                                  ({@link ModelDisk#noBytesOnDrive})
     */
    static List<FaultRange> of(Path file, Path plain, long unit, long offset, long length) throws IOException {
        List<FaultRange> held = new ArrayList<>();
        try (RegularFile f = RegularFile.open(plain)) {
            long size = f.size();
            long end = length > Long.MAX_VALUE - offset ? size : Math.min(size, offset + length);
            for (long at = f.nextData(offset); at < end; at = f.nextData(at)) {
                long hole = Math.min(f.nextHole(at), end);
                held.add(new FaultRange(unit, at, hole - at));
                at = hole;
            }
        }
        if (held.isEmpty()) {
            throw ModelDisk.noBytesOnDrive(file, offset, length);
        }
        return held;
    }
}
