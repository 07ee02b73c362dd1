package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.kernel.FileExtents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Where the files of a block model's survivor lie on its drive, as FIEMAP gives them (the survivor's image is a copy
 * of the drive, byte for byte): for a {@link CorruptedBlocks} lost or misdirected write on a file the workload makes,
 * planned on the drive before the workload runs, at the place the listing run's workload left the block. A workload
 * that makes the same files on a fresh disk of the same template gets the same places from the filesystem's
 * allocator ({@link #allocateAlike}); the invocation checks that it did ({@link #misplaced}). Also for
 * {@code flushcheck powercut damage}, whose checks do the same with a command.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DrivePlaces {

    /** {@code length} bytes of the drive from {@code drive}. */
    public record Piece(long drive, long length) {
        @Override
        public String toString() {
            return drive + "+" + length;
        }
    }

    private final Map<String, List<FileExtents.Extent>> files;

    private DrivePlaces(Map<String, List<FileExtents.Extent>> files) {
        this.files = files;
    }

    /** A lying write planned on the drive: the write faults to arm, and where the block lay ({@link #at}). */
    public record Planned(List<WriteFault> faults, List<Piece> at) {
        /** Where the block lay, in words: {@code drive bytes 8917000+4096}. */
        public String words() {
            return "drive bytes " + DrivePlaces.words(at);
        }
    }

    /** No file's places: every block had none. */
    static DrivePlaces none() {
        return new DrivePlaces(Map.of());
    }

    /** Where the regular files of a block model's {@code survivor} lie on the drive (ext4's lost+found left out). */
    public static DrivePlaces of(Path survivor) throws IOException {
        return of(survivor, BlockSites.files(survivor));
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
        allocateAlikeOn(loopDevice);
    }

    /**
     * As {@link #allocateAlike(String)} for {@code disk}, when it is a block model's ext4; nothing on another disk.
     *
     * @throws IOException when the setting cannot be written
     */
    public static void allocateAlike(SimulatedDisk disk) throws IOException {
        if (disk.model() == DiskModel.BLOCK && disk.fsType().equals("ext4")) {
            allocateAlikeOn(disk.loopDevice());
        }
    }

    private static void allocateAlikeOn(String loopDevice) throws IOException {
        String name = Path.of(loopDevice).getFileName().toString();
        if (!name.matches("loop\\d+")) {
            throw new IllegalArgumentException("not a loop device: " + loopDevice);
        }
        java.nio.file.Files.writeString(Path.of("/sys/fs/ext4", name, "mb_stream_req"), "0\n");
    }

    /**
     * {@code damage}, a lost or misdirected write, as write faults on the drive where its block lay here, a piece
     * each; a misdirected write's pieces land on its target's, which must lie in pieces as long.
     *
     * @throws IllegalArgumentException on btrfs (a changed block goes to a new place), or when the block or its target
     *                                  had no such place
     */
    public Planned plan(DamagedBlock damage, String fsType) {
        if (fsType.equals("btrfs")) {
            throw new IllegalArgumentException("btrfs writes a changed block to a new place (copy on write), so the"
                    + " place of " + damage.file() + " on the drive is not where its next write goes: sweep lying"
                    + " writes on ext4 or xfs");
        }
        String bytes = damage.file() + " bytes " + damage.offset() + "+" + damage.length();
        refuseNotAsStored(damage.file(), damage.offset(), damage.length(), bytes);
        List<Piece> at = of(damage.file(), damage.offset(), damage.length());
        if (at.isEmpty()) {
            throw new IllegalArgumentException(bytes + " had no place on the drive in the listing run");
        }
        List<Piece> to = List.of();
        if (damage.kind() == BlockDamage.MISDIRECTED_WRITE) {
            long length = at.stream().mapToLong(Piece::length).sum();
            refuseNotAsStored(damage.file(), damage.target(), length, "the target, " + damage.file() + " bytes "
                    + damage.target() + "+" + length + ",");
            to = of(damage.file(), damage.target(), length);
            if (!to.stream().map(Piece::length).toList().equals(at.stream().map(Piece::length).toList())) {
                throw new IllegalArgumentException("the target, " + damage.file() + " bytes " + damage.target() + "+"
                        + length + ", lay on the drive in the listing run as " + (to.isEmpty() ? "nothing" : to)
                        + ", not in pieces as long as the block's " + at);
            }
        }
        List<WriteFault> faults = new ArrayList<>();
        for (int i = 0; i < at.size(); i++) {
            WriteFault f = WriteFault.toDrive(at.get(i).drive(), at.get(i).length());
            faults.add((damage.kind() == BlockDamage.LOST_WRITE ? f.lost() : f.misdirectedToDrive(to.get(i).drive()))
                    .always());
        }
        return new Planned(List.copyOf(faults), List.copyOf(at));
    }

    /**
     * Null when {@code damage}'s block lies on {@code survivor}'s drive where {@code planned} says; else why not (the
     * lie met other writes than the block's, or the file is not there).
     *
     * @throws IOException when the file cannot be mapped
     */
    public static String misplaced(Path survivor, DamagedBlock damage, Planned planned) throws IOException {
        Path file = damage.fileOf(survivor);
        if (!java.nio.file.Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return damage.file() + " is not a file on this survivor (the workload left other files this time)";
        }
        List<FileExtents.Extent> extents = FileExtents.of(file);
        FileExtents.Extent odd = FileExtents.notAsStored(extents, damage.offset(), damage.length());
        if (odd != null) {
            return damage.file() + " bytes " + odd.logical() + "+" + odd.length() + " " + odd.notAsStored()
                    + " in this run: the drive holds no bytes of the file's own there";
        }
        List<Piece> now = clip(extents, damage.offset(), damage.length());
        if (now.equals(planned.at())) {
            return null;
        }
        return damage.file() + " bytes " + damage.offset() + "+" + damage.length() + " lay at " + planned.words()
                + " in the listing run and at " + (now.isEmpty() ? "none" : "drive bytes " + words(now)) + " in this one:"
                + " the lie met other writes than the block's";
    }

    /**
     * Refuses a block of which some bytes had no place of the file's own on the drive in the listing run (inline,
     * compressed, preallocated: {@link FileExtents.Extent#notAsStored}): a lie armed on the rest would damage part of
     * the block while the report names all of it.
     */
    private void refuseNotAsStored(String file, long offset, long length, String bytes) {
        List<FileExtents.Extent> extents = files.get(file);
        FileExtents.Extent e = extents == null ? null : FileExtents.notAsStored(extents, offset, length);
        if (e != null) {
            throw new IllegalArgumentException(bytes + " had no bytes of the file's own on the drive in the listing run:"
                    + " its bytes " + e.logical() + "+" + e.length() + " " + e.notAsStored());
        }
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
