package io.flushcheck.powercut.internal.block;

import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.disk.ModelDisk.FaultRange;
import io.flushcheck.powercut.internal.kernel.BtrfsChunks;
import io.flushcheck.powercut.internal.kernel.FileExtents;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** Where a file's bytes lie on a block model's drive: a live disk's, a survivor's or a crash state's image. */
final class DriveRanges {

    private DriveRanges() {
    }

    /** Syncs {@code file}, so that a filesystem that allocates at writeback has placed every byte of it. */
    static void sync(Path file) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            c.force(true);
        }
    }

    /**
     * Where {@code length} bytes from {@code offset} of {@code file}, synced, lie on the drive, on a filesystem of type
     * {@code fsType}: FIEMAP's extents, on btrfs mapped from its logical addresses onto the drive by its chunk tree
     * ({@link BtrfsChunks}).
     *
     * @throws IllegalArgumentException when they have no place of their own there
     */
    static List<FaultRange> of(Path file, long offset, long length, String fsType) throws IOException {
        List<FileExtents.Extent> extents = FileExtents.of(file, offset, length);
        FileExtents.Extent odd = FileExtents.notAsStored(extents, offset, length);
        if (odd != null) {
            throw new IllegalArgumentException("bytes " + odd.logical() + "+" + odd.length() + " of " + file + " "
                    + odd.notAsStored() + ": the drive holds no bytes of the file's own there");
        }
        if (fsType.equals("btrfs")) {
            extents = BtrfsChunks.of(file).onDevice(extents);
        }
        List<FaultRange> ranges = new ArrayList<>();
        for (FileExtents.Extent e : extents) {
            ranges.add(new FaultRange(0, e.device(), e.length()));
        }
        if (ranges.isEmpty()) {
            throw ModelDisk.noBytesOnDrive(file, offset, length);
        }
        return ranges;
    }
}
