package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.kernel.FileExtents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the files of a block model's survivor lie on its drive, as FIEMAP gives them (the survivor's image is a copy
 * of the drive, byte for byte): for a {@link CorruptedBlocks} lost or misdirected write on a file the workload makes,
 * planned on the drive before the workload runs, at the place the listing run's workload left the block. A workload
 * that makes the same files on a fresh disk of the same template gets the same places from the filesystem's
 * allocator ({@link #allocateAlike}); the invocation checks that it did.
 */
final class DrivePlaces {

    /** {@code length} bytes of the drive from {@code drive}. */
    record Piece(long drive, long length) {
        @Override
        public String toString() {
            return drive + "+" + length;
        }
    }

    private final Map<String, List<FileExtents.Extent>> files;

    private DrivePlaces(Map<String, List<FileExtents.Extent>> files) {
        this.files = files;
    }

    /** Where the regular files {@code listed} of {@code survivor} lie on the drive. */
    static DrivePlaces of(Path survivor, List<BlockSites.SurvivingFile> listed) throws IOException {
        Map<String, List<FileExtents.Extent>> files = new HashMap<>();
        for (BlockSites.SurvivingFile f : listed) {
            files.put(f.name(), FileExtents.of(survivor.resolve(f.name())));
        }
        return new DrivePlaces(files);
    }

    /**
     * Makes ext4 on {@code loopDevice} ({@code /dev/loopN}) place every file's blocks from the file's own pool, not
     * small files' from a pool per processor (mballoc's locality groups, for files of fewer than {@code mb_stream_req}
     * blocks): with the per-processor pools a small file's blocks land where the processor that wrote them back
     * left its pool, which varies from run to run; with the file's own, where its inode's group starts. Sets
     * {@code /sys/fs/ext4/loopN/mb_stream_req} to 0, for that filesystem only.
     *
     * @throws IOException when the setting cannot be written
     */
    static void allocateAlike(String loopDevice) throws IOException {
        String name = Path.of(loopDevice).getFileName().toString();
        if (!name.matches("loop\\d+")) {
            throw new IllegalArgumentException("not a loop device: " + loopDevice);
        }
        java.nio.file.Files.writeString(Path.of("/sys/fs/ext4", name, "mb_stream_req"), "0\n");
    }

    /** Where {@code length} bytes from {@code offset} of {@code file} lay, piece by piece; empty when nowhere. */
    List<Piece> of(String file, long offset, long length) {
        List<FileExtents.Extent> extents = files.get(file);
        return extents == null ? List.of() : clip(extents, offset, length);
    }

    /**
     * Where {@code length} bytes from {@code offset} of {@code file} lie on the drive now.
     *
     * @throws IOException when the file cannot be mapped
     */
    static List<Piece> now(Path file, long offset, long length) throws IOException {
        return clip(FileExtents.of(file), offset, length);
    }

    /** {@code pieces} in words: {@code 8917000+4096, 9438208+1024}. */
    static String words(List<Piece> pieces) {
        return String.join(", ", pieces.stream().map(Piece::toString).toList());
    }

    private static List<Piece> clip(List<FileExtents.Extent> extents, long offset, long length) {
        List<Piece> out = new ArrayList<>();
        long end = offset + length;
        for (FileExtents.Extent e : extents) {
            long from = Math.max(offset, e.logical());
            long to = Math.min(end, e.logical() + e.length());
            if (from < to && e.notAsStored() == null) {
                out.add(new Piece(e.device() + (from - e.logical()), to - from));
            }
        }
        return out;
    }
}
