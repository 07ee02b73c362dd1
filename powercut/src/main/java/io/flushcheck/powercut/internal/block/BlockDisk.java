package io.flushcheck.powercut.internal.block;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.disk.BytesAtRest;
import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.disk.ModelStates;
import io.flushcheck.powercut.internal.disk.RecordingFiles;
import io.flushcheck.powercut.internal.disk.ServedDisk;
import io.flushcheck.powercut.internal.disk.SurvivorDrive;
import io.flushcheck.powercut.internal.drive.FuseDiskServer;
import io.flushcheck.powercut.internal.explain.BlockCutExplanation;
import io.flushcheck.powercut.internal.explain.TreeView;
import io.flushcheck.powercut.internal.host.DriveClient;
import io.flushcheck.powercut.internal.host.DriveHost;
import io.flushcheck.powercut.internal.kernel.FileExtents;
import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.powercut.internal.kernel.InterruptedFilesystem;
import io.flushcheck.powercut.internal.kernel.JournalPlace;
import io.flushcheck.powercut.internal.kernel.LoopDevices;
import io.flushcheck.powercut.internal.kernel.LoopPool;
import io.flushcheck.powercut.internal.kernel.LoopsExhaustedException;
import io.flushcheck.powercut.internal.kernel.Mounts;
import io.flushcheck.powercut.internal.kernel.SurvivorMount;
import io.flushcheck.powercut.internal.states.Recording;
import io.flushcheck.powercut.internal.states.WritePlaces;
import io.flushcheck.powercut.internal.sys.Commands;
import io.flushcheck.powercut.internal.sys.PageCache;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The block model of a simulated disk: a real filesystem made by mkfs (or copied from a drive made
 * alike) on a loop device over the drive's file, mounted by the kernel; after a cut the surviving image on
 * a loop device of its own, mounted where the test reads it, and the cut said by file.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BlockDisk implements ModelDisk {

    private static final String BASE_IMAGE = "base.img";

    private final long sizeBytes;
    private final String fsType;
    private final List<String> mkfsOptions;
    private final boolean directIo;
    private final int atomicWriteBytes;
    /** What makes a filesystem: drives made alike start from the first one's image instead of running mkfs. */
    private final String template;
    private Path work;
    private DriveClient drive;
    private Deque<Runnable> undo;
    private Path path;
    private String loop;
    private List<JournalPlace.Range> journal;
    private DriveHost host;
    /** The last cut's survivor: its image, the loop device carrying it, where it is mounted; null before a cut. */
    private Path survivorImage;
    private String survivorLoop;
    private Path survivorPath;
    /** The drive serving the survivor once a read fault on it asked for one ({@link #serveSurvivor}). */
    private SurvivorDrive survivors;
    /** Images whose filesystem was in use when it was unmounted: the kernel frees their devices when that use ends. */
    private final Set<Path> inUse = new HashSet<>();

    private BlockDisk(long sizeBytes, String fsType, List<String> mkfsOptions, boolean directIo, int atomicWriteBytes) {
        this.sizeBytes = sizeBytes;
        this.fsType = fsType;
        this.mkfsOptions = mkfsOptions;
        this.directIo = directIo;
        this.atomicWriteBytes = atomicWriteBytes;
        this.template = fsType + " " + sizeBytes + " " + String.join(" ", mkfsOptions);
    }

    /**
     * The block model's disk, made under {@code work}, its options checked by the face that asks;
     * the server's failures reach its users as {@code failures} makes them.
     */
    public static ServedDisk make(Path work, long sizeBytes, String fsType, List<String> mkfsOptions, boolean directIo,
                           int atomicWriteBytes, Function<DriveHost.ServerFailure, ? extends IOException> failures)
            throws IOException {
        try {
            return ServedDisk.make(work, new BlockDisk(sizeBytes, fsType, mkfsOptions, directIo, atomicWriteBytes), failures);
        } catch (LostLoopDevice e) {
            // Loop devices are shared: a program that detaches a device by its name after it was freed
            // and given to this disk takes it away. Once is bad luck; twice is worth an error.
            System.err.println("flushcheck powercut: " + e.getMessage() + "; making the disk again");
            return ServedDisk.make(work, new BlockDisk(sizeBytes, fsType, mkfsOptions, directIo, atomicWriteBytes), failures);
        }
    }

    /** A loop device of this disk that another program detached or reused while the disk was being made. */
    private static final class LostLoopDevice extends IOException {
        private static final long serialVersionUID = 1L;

        LostLoopDevice(String message, Throwable cause) {
            super(message, cause);
        }
    }

    @Override
    public String fsType() {
        return fsType;
    }

    @Override
    public int atomicWriteBytes() {
        return atomicWriteBytes;
    }

    @Override
    public String loopDevice() {
        return loop;
    }

    /** True when the kernel reads and writes the drive with direct I/O (its {@code /sys/block/loopN/loop/dio} is 1). */
    @Override
    public boolean directIo() {
        return loop != null && LoopDevices.directIo(loop);
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public DriveClient serve(DriveHost host, Path work) throws IOException {
        this.work = work;
        this.host = host;
        Path fuse = Files.createDirectories(work.resolve("drive"));
        drive = DriveClient.drive(host, fuse, sizeBytes, atomicWriteBytes, template);
        return drive;
    }

    @Override
    public void start(DriveClient drive, Deque<Runnable> undo) throws IOException {
        this.undo = undo;
        survivors = new SurvivorDrive(undo);
        Path image = work.resolve("drive").resolve(FuseDiskServer.FILE);
        loop = attach(image, directIo);
        selfTest(loop);
        if (directIo && !directIo()) {
            throw new IOException("direct I/O was asked for, but the kernel left it off for " + loop + " on " + image
                    + " (" + LoopDevices.sysLoop(loop).resolve("dio") + " reads 0)");
        }
        path = Files.createDirectories(work.resolve("fs"));
        Leftovers.record(work, "mount", path.toString());
        try {
            if (!drive.templated()) {
                Commands.run(Filesystems.mkfs(fsType, mkfsOptions, loop).toArray(new String[0]));
                removeLostFound(loop, path);
                drive.keepAsTemplate(template);
            }
            Mounts.mount(loop, path, fsType, Filesystems.mountOptions(fsType));
        } catch (IOException e) {
            String now = LoopDevices.backingFile(loop);
            if (!image.toString().equals(now)) {
                throw new LostLoopDevice(loop + " was detached by another program while this disk was being made on it"
                        + " (it maps " + (now == null ? "nothing" : now) + " now)", e);
            }
            throw e;
        }
        Path mounted = path;
        undo.push(() -> unmount(mounted, image));
    }

    /**
     * Removes the lost+found that ext2, ext3 and ext4's mkfs makes, which a test listing its disk would find,
     * in a mount of its own that is cleanly unmounted: the drive keeps the filesystem as mkfs and that unmount
     * leave it, and each disk made from it starts without the directory and with nothing written.
     */
    private void removeLostFound(String loop, Path mountPoint) throws IOException {
        if (!fsType.startsWith("ext")) {
            return;
        }
        Mounts.mount(loop, mountPoint, fsType, Filesystems.mountOptions(fsType));
        IOException failed = null;
        try {
            Files.deleteIfExists(mountPoint.resolve("lost+found"));
        } catch (IOException e) {
            failed = e;
        }
        if (!Mounts.unmountIfIdle(mountPoint)) {
            Mounts.unmountLazy(mountPoint); // gone from the path; its device stays busy until its user lets go
            IOException busy = new IOException("the new filesystem at " + mountPoint + " was in use when unmounted");
            if (failed != null) {
                busy.addSuppressed(failed);
            }
            throw busy;
        }
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * A flush asked of the loop device must reach the drive, or every sync on the disk would look done: fsync the
     * device from this JVM (whose fsync a preloaded library such as eatmydata may switch off) and see the drive
     * count a flush. The block layer completes a flush without passing it on where the device's write cache mode
     * reads {@code write through}; a FUSE server can refuse fsync for good.
     */
    private void selfTest(String device) throws IOException {
        long before = drive.stats().flushes();
        try (FileChannel ch = FileChannel.open(Path.of(device), StandardOpenOption.READ)) {
            ch.force(true);
        }
        if (drive.stats().flushes() <= before) {
            throw new IOException("the simulated drive saw no flush for an fsync of " + device + " (its queue/write_cache"
                    + " reads " + LoopDevices.writeCacheMode(device) + "): fsync does not reach it");
        }
    }

    /** Said by file once the survivor is there to compare with; until then, the cut is known without it. */
    @Override
    public List<String> discardedBeforeSurvivor(List<String> discarded) {
        return List.of();
    }

    @Override
    public Survivor survive(List<String> discarded, int n) throws IOException {
        List<BlockCutExplanation.Range> ranges = BlockCutExplanation.ranges(discarded);
        // Held only for each call: a descriptor of the filesystem's own would count as a file open there below.
        try (InterruptedFilesystem interrupted = InterruptedFilesystem.open(path, loop)) {
            if (interrupted != null) {
                interrupted.stopAccessTimes();
            }
        }
        BlockCutExplanation.Before before = lookBeforeUnmount(ranges);
        // The drive is frozen: unmounting may still write, and the drive discards it. What the filesystem does to
        // end runs beside the survivor's making; the loop device waits for it (autoclear). Files the test still
        // holds open there, as a cut leaves a program's, keep it past its unmount, until they close, when the
        // drive's server may be gone: it is shut down as a filesystem whose disk went away, so that they fail from
        // now on and its unmount writes nothing.
        Path driveImage = work.resolve("drive").resolve(FuseDiskServer.FILE);
        if (noteUse(path, driveImage)) {
            try (InterruptedFilesystem interrupted = InterruptedFilesystem.open(path, loop)) {
                if (interrupted != null) {
                    interrupted.shutDown();
                }
            }
        }
        Mounts.unmountInBackground(path);
        detach(loop, driveImage);
        // Without its mount the path would be a directory of the build: writes there must fail, not land.
        Files.deleteIfExists(path);
        Path image = work.resolve("survivor-" + n + ".img");
        try {
            drive.save(image);
        } catch (DriveClient.Refused r) {
            throw new IOException("cannot save the surviving image: " + r.reply());
        }
        undo.push(() -> deleteQuietly(image));
        String survivorLoop = attach(image, false);
        Path survivor = Files.createDirectories(work.resolve("survivor-" + n));
        Leftovers.record(work, "mount", survivor.toString());
        SurvivorMount.mount(survivorLoop, survivor, fsType, Mounts.DATA);
        undo.push(() -> unmount(survivor, image));
        survivorImage = image;
        this.survivorLoop = survivorLoop;
        survivorPath = survivor;
        return new Survivor(survivor, explain(before, survivor, ranges, image));
    }

    /**
     * The interrupted filesystem as the kernel still holds it, looked at before it is unmounted; null when it
     * cannot be. Looking reads no file's data, only names and attributes, nearly all of them in the kernel's
     * caches still: what it must read from the frozen drive reads as what survived.
     */
    private BlockCutExplanation.Before lookBeforeUnmount(List<BlockCutExplanation.Range> ranges) {
        try {
            return BlockCutExplanation.look(path, fsType, ranges);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The cut said by file (BlockCutExplanation); a line saying why not, when the filesystem cannot be read. */
    private List<String> explain(BlockCutExplanation.Before before, Path survivor, List<BlockCutExplanation.Range> ranges,
                                 Path image) {
        if (before == null) {
            return List.of("what the cut lost cannot be said by file: the interrupted filesystem could not be read");
        }
        try {
            return BlockCutExplanation.explain(before, TreeView.of(survivor), ranges, () -> journal(image));
        } catch (IOException | RuntimeException e) {
            return List.of("what the cut lost cannot be said by file: " + e.getMessage());
        }
    }

    /** Where the journal lies on the drive, found once for its template: mkfs placed it, and it does not move. */
    private List<JournalPlace.Range> journal(Path image) {
        if (journal == null) {
            try {
                journal = drive.journalPlace(template, fsType, image);
            } catch (IOException e) {
                journal = List.of();
            }
        }
        return journal;
    }

    /** A range of the drive, or a file's bytes on it, placed by FIEMAP. */
    @Override
    public List<FaultRange> place(Path file, long offset, long length) throws IOException {
        if (file == null) {
            return List.of(new FaultRange(0, offset, length));
        }
        if (fsType.equals("btrfs")) {
            throw new IllegalArgumentException("btrfs writes a changed block to a new place (copy on write), so the"
                    + " drive's bytes of " + file + " are not where its next write goes: plan write faults on ext4 or xfs");
        }
        List<FaultRange> ranges = new ArrayList<>();
        for (FileExtents.Extent e : FileExtents.of(file, offset, length)) {
            ranges.add(new FaultRange(0, e.device(), e.length()));
        }
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException(file + " has no bytes on the drive in " + offset + "+"
                    + length + " yet: write and fsync them before planning a fault on them");
        }
        return ranges;
    }

    /**
     * A range of the drive, or where a file's bytes lie on it now: the file is fsynced first, so every byte of it
     * has its place (a filesystem that allocates at writeback has not placed unsynced bytes yet); on btrfs, where its
     * chunk tree maps them.
     */
    @Override
    public List<FaultRange> placeReads(Path file, long offset, long length) throws IOException {
        if (file == null) {
            return List.of(new FaultRange(0, offset, length));
        }
        DriveRanges.sync(file);
        return onDrive(file, offset, length);
    }

    /**
     * Where {@code length} bytes from {@code offset} of {@code file}, synced, lie on the drive ({@link DriveRanges}).
     *
     * @throws IllegalArgumentException when they have no place of their own there
     */
    private List<FaultRange> onDrive(Path file, long offset, long length) throws IOException {
        return DriveRanges.of(file, offset, length, fsType);
    }

    /**
     * The survivor is a saved image on a loop device of its own: the bytes change in the image, where the file's
     * bytes lie in it (FIEMAP on the survivor, the file synced first), and the file's pages and the device's pages of
     * the range are dropped, so the next reads reach the image. A range of the drive changes the image there, and
     * drops no file's pages.
     */
    @Override
    public List<FaultRange> corruptSurvivor(Path file, long offset, long length, int bit) throws IOException {
        if (survivorImage == null) {
            throw new IllegalStateException("no cut has left a survivor to corrupt");
        }
        List<FaultRange> ranges;
        if (file == null) {
            if (offset + length > sizeBytes) {
                throw new IllegalArgumentException("the drive has " + sizeBytes + " bytes, not " + offset + "+" + length);
            }
            ranges = List.of(new FaultRange(0, offset, length));
        } else {
            DriveRanges.sync(file);
            ranges = onDrive(file, offset, length);
        }
        for (FaultRange r : ranges) {
            if (survivors.drive() != null) { // its writes are the drive's own, over the image: the drive changes them
                if (bit >= 0) {
                    survivors.drive().flipBit(r.unit(), r.from(), bit);
                } else {
                    survivors.drive().zero(r.unit(), r.from(), r.length());
                }
            } else if (bit >= 0) {
                BytesAtRest.flip(survivorImage, r.from(), bit);
            } else {
                BytesAtRest.zero(survivorImage, r.from(), r.length());
            }
        }
        if (file != null) {
            PageCache.drop(file, 0, 0);
        }
        for (FaultRange r : ranges) {
            PageCache.drop(survivors.drive() != null ? survivorDriveImage() : Path.of(survivorLoop), r.from(), r.length());
        }
        return ranges;
    }

    /**
     * The file's pages (synced by {@link #placeReads}) and the drive image's pages of the ranges: the loop device
     * reads the image through the page cache unless it does direct I/O, so both caches stand between a read and
     * the drive. After a cut, the survivor's drive's image.
     */
    @Override
    public void uncache(Path file, List<FaultRange> ranges) throws IOException {
        if (file != null) {
            PageCache.drop(file, 0, 0);
        }
        Path image = survivors.drive() != null ? survivorDriveImage() : work.resolve("drive").resolve(FuseDiskServer.FILE);
        for (FaultRange r : ranges) {
            PageCache.drop(image, r.from(), r.length());
        }
    }

    @Override
    public DriveClient survivorDrive() {
        return survivors.drive();
    }

    /**
     * The survivor is a saved image on a plain loop device, which cannot fail a read: it moves onto a drive of its own,
     * served as the disk's drive is and starting from the image (read where it lies; its writes are the drive's own),
     * under a loop device as the disk's (direct I/O as asked of it), mounted at the same place ({@link SurvivorDrive}:
     * on first ask). Refused while files of the survivor are open, as the kernel's refusal to unmount it tells: its
     * filesystem cannot move from under them.
     */
    @Override
    public DriveClient serveSurvivor() throws IOException {
        return survivors.serve(survivorImage == null ? null : survivorPath,
                "its filesystem can move onto a drive whose reads can fail",
                () -> Mounts.unmountIfIdle(survivorPath) ? null : "or a process works there", this::moveSurvivor);
    }

    /** Moves the survivor, unmounted, onto a drive of its own ({@link #serveSurvivor}); on failure mounts it again. */
    private DriveClient moveSurvivor() throws IOException {
        Path fuse = survivorDriveImage().getParent();
        DriveClient served = null;
        String loop = null;
        try {
            detach(survivorLoop, survivorImage);
            LoopDevices.awaitRelease(survivorLoop, survivorImage);
            Files.createDirectories(fuse);
            Leftovers.record(work, "mount", fuse.toString());
            served = DriveClient.image(host, fuse, sizeBytes, atomicWriteBytes, survivorImage);
            survivors.stopOnClose(served, fuse);
            loop = attach(survivorDriveImage(), directIo);
            SurvivorMount.mount(loop, survivorPath, fsType, Mounts.DATA);
        } catch (IOException | RuntimeException e) {
            remountSurvivor(e, served, loop, fuse);
            throw e;
        }
        undo.push(() -> unmount(survivorPath, survivorDriveImage()));
        survivorLoop = loop;
        return served;
    }

    /**
     * Puts the survivor back as it was before {@link #serveSurvivor} failed at {@code failure}: its drive stopped,
     * its saved image mounted again at its place (the drive only reads the image: it is as the cut left it). When
     * that fails too, {@code failure} says the survivor is lost and why.
     */
    private void remountSurvivor(Exception failure, DriveClient served, String loop, Path fuse) {
        try {
            if (loop != null) {
                detach(loop, survivorDriveImage());
            }
            if (served != null) {
                try {
                    served.quit();
                } catch (IOException e) {
                    // the server is gone; its mount goes next
                }
                ModelDisk.unmountQuietly(fuse);
            }
            String again = attach(survivorImage, false);
            SurvivorMount.mount(again, survivorPath, fsType, Mounts.DATA);
            survivorLoop = again;
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(new IOException("survivor lost: " + survivorPath + " is not mounted again from "
                    + survivorImage + " (" + e.getMessage() + ")", e));
        }
    }

    /** The file the survivor's drive serves ({@link #serveSurvivor}), beside its image. */
    private Path survivorDriveImage() {
        String image = survivorImage.getFileName().toString();
        return work.resolve(image.substring(0, image.length() - ".img".length()) + "-drive").resolve(FuseDiskServer.FILE);
    }

    /** The filesystem is synced first: the recording starts from a durable image, which the drive saves as the base. */
    @Override
    public void startRecording(Path dir, Path log) throws IOException {
        Mounts.syncFilesystem(path);
        drive.record(log, dir.resolve(BASE_IMAGE));
    }

    @Override
    public ModelStates crashStates(Path dir, Path log, BooleanSupplier powered) throws IOException {
        RecordingFiles held = RecordingFiles.open(dir.resolve(BASE_IMAGE), log);
        try {
            return new BlockCrashStates(work, dir, held, Recording.epochs(held.log(), held.base().size()), fsType, atomicWriteBytes, places(powered), endedView(powered), false);
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
    }

    /**
     * The names of the filesystem as the recording ended, page cache included, to explain a failing state that
     * lost none of its epoch's writes; null after a cut, or where it could not be looked at.
     */
    private TreeView endedView(BooleanSupplier powered) {
        if (!powered.getAsBoolean()) {
            return null;
        }
        try {
            return TreeView.of(path);
        } catch (IOException | RuntimeException e) {
            return null; // such a state is then explained by its writes alone
        }
    }

    /** Where the files lie on the drive now, to name a crash state's writes by file; none after a cut. */
    private WritePlaces places(BooleanSupplier powered) {
        if (!powered.getAsBoolean()) {
            return WritePlaces.none();
        }
        try {
            return WritePlaces.look(path);
        } catch (IOException | RuntimeException e) {
            return WritePlaces.none(); // the writes are then named by their place on the drive alone
        }
    }

    /** The server unmounts the drive too; should the server be gone, this leaves no drive mounted. */
    @Override
    public void serverStopped(boolean gone) {
        ModelDisk.unmountQuietly(work.resolve("drive"));
    }

    /**
     * Attaches a loop device to {@code image}, recorded for cleanup. When attaching fails with every loop
     * device in use, says so with the devices and their files instead of the kernel's words. The device is
     * checked to map {@code image} before it is used, and detached only while it still does: a device
     * detached while its filesystem is busy is freed later, and by then may carry someone else's file.
     */
    private String attach(Path image, boolean dio) throws IOException {
        String device;
        try {
            device = LoopDevices.attach(image, dio);
        } catch (IOException e) {
            LoopPool pool = LoopPool.current();
            if (pool.exhausted()) {
                throw new LoopsExhaustedException(pool.explain(image));
            }
            throw e;
        }
        Leftovers.record(work, "loop", device);
        String backing = LoopDevices.backingFile(device);
        undo.push(() -> {
            detach(device, image);
            // One whose filesystem files still hold is freed by the kernel when the last of them closes
            // (detaching a device in use sets its autoclear): nothing here can hasten that, so nothing waits.
            if (!inUse.contains(image)) {
                LoopDevices.awaitRelease(device, image);
            }
        });
        if (!image.toString().equals(backing)) {
            throw new LostLoopDevice(device + " was attached to " + image + " but maps " + (backing == null ? "nothing" : backing)
                    + " now: another program detached or reused it", null);
        }
        return device;
    }

    /** Unmounts {@code mountPoint} lazily, noting first whether files open there keep {@code image}'s device. */
    private void unmount(Path mountPoint, Path image) {
        noteUse(mountPoint, image);
        ModelDisk.unmountQuietly(mountPoint);
    }

    /**
     * Notes {@code image} as in use when files open at {@code mountPoint}, its filesystem, keep it mounted.
     *
     * @return whether they do
     */
    private boolean noteUse(Path mountPoint, Path image) {
        if (Mounts.inUse(mountPoint)) {
            inUse.add(image);
            return true;
        }
        return false;
    }

    /** Detaches {@code device} if it still maps {@code image}. */
    private static void detach(String device, Path image) {
        if (image.toString().equals(LoopDevices.backingFile(device))) {
            try {
                LoopDevices.detach(device);
            } catch (IOException e) {
                // teardown goes on; Leftovers names the device if it stays attached
            }
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // removed with the work directory, or reported there
        }
    }
}
