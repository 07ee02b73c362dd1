package io.flushcheck.powercut.internal.filemodel;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.disk.BytesAtRest;
import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.disk.ModelStates;
import io.flushcheck.powercut.internal.disk.RecordingFiles;
import io.flushcheck.powercut.internal.disk.ServedDisk;
import io.flushcheck.powercut.internal.disk.SurvivorDrive;
import io.flushcheck.powercut.internal.host.DriveClient;
import io.flushcheck.powercut.internal.host.DriveHost;
import io.flushcheck.powercut.internal.sys.OpenFiles;
import io.flushcheck.powercut.internal.sys.PageCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Deque;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The file model of a simulated disk: a tree of files under {@code rules}, served over FUSE and
 * mounted without root; after a cut the tree that survived, written into a plain directory, with the
 * operations the cut discarded and what only the rules lost.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileDisk implements ModelDisk {

    private final long sizeBytes;
    /** The rules by their word: {@code journaled} or {@code posix}. */
    private final String rules;
    private Path work;
    private Path path;
    private DriveHost host;
    private DriveClient drive;
    /** The tree serving the survivor once a read fault on it asked for one ({@link #serveSurvivor}). */
    private SurvivorDrive survivors;
    /** What the survivor's drive had been asked to write and sync when it began to serve. */
    private DriveClient.Stats servedAsCut;
    /** True once a cut's survivor is being made: the mount is gone, or going. */
    private boolean cut;
    /** The directory the last cut's survivor was written into, or null. */
    private Path survivor;

    private FileDisk(long sizeBytes, String rules) {
        this.sizeBytes = sizeBytes;
        this.rules = rules;
    }

    /**
     * The file model's disk of {@code sizeBytes} under {@code rules} (by their word: {@code journaled} or
     * {@code posix}), made under {@code work}, its options checked by the face that asks; the server's failures
     * reach its users as {@code failures} makes them.
     */
    public static ServedDisk make(Path work, long sizeBytes, String rules,
                           Function<DriveHost.ServerFailure, ? extends IOException> failures) throws IOException {
        return ServedDisk.make(work, new FileDisk(sizeBytes, rules), failures);
    }

    @Override
    public String fsType() {
        return "files";
    }

    @Override
    public int atomicWriteBytes() {
        return 1;
    }

    @Override
    public String rules() {
        return rules;
    }

    @Override
    public Path path() {
        return path;
    }

    /** fusermount's {@code auto_unmount} removes the mount however the server ends. */
    @Override
    public DriveClient serve(DriveHost host, Path work) throws IOException {
        this.work = work;
        this.host = host;
        path = Files.createDirectories(work.resolve("fs"));
        return DriveClient.files(host, path, sizeBytes, rules);
    }

    /** The server mounted the tree as it began to serve it: nothing is left to make. */
    @Override
    public void start(DriveClient drive, Deque<Runnable> undo) {
        this.drive = drive;
        survivors = new SurvivorDrive(undo);
    }

    /** The tree written out into a plain directory, the mount gone; the cut lists the operations it discarded. */
    @Override
    public Survivor survive(List<String> discarded, int n) throws IOException {
        cut = true;
        try {
            drive.unmount();
        } catch (DriveClient.Refused r) {
            throw new IOException("the file model's server did not unmount " + path + ": " + r.reply());
        }
        Files.deleteIfExists(path);
        Path survivor = Files.createDirectories(work.resolve("survivor-" + n));
        try {
            drive.save(survivor);
        } catch (DriveClient.Refused r) {
            throw new IOException("cannot write the surviving tree: " + r.reply());
        }
        this.survivor = survivor;
        return new Survivor(survivor, discarded);
    }

    /**
     * The survivor is a plain directory: the file's bytes change there, as a write would change them (its
     * modification time too).
     */
    @Override
    public List<FaultRange> corruptSurvivor(Path file, long offset, long length, int bit) throws IOException {
        if (file == null) {
            throw new IllegalArgumentException("the file model has no drive: name a file");
        }
        if (survivor == null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(file + " is no regular file of the survivor " + survivor);
        }
        if (survivors.drive() != null) { // served: the tree's bytes change, durable and as they read, not by a write
            long node = place(file, offset, length).get(0).unit();
            for (FaultRange r : held(file, node, offset, length)) {
                if (bit >= 0) {
                    survivors.drive().flipBit(node, r.from(), bit);
                } else {
                    survivors.drive().zero(node, r.from(), r.length());
                }
            }
            // The kernel keeps a served file's pages across opens: those it holds would still read the old bytes.
            PageCache.drop(file, 0, 0);
        } else {
            for (FaultRange r : held(file, 0, offset, length)) { // zeros written into a hole would fill it
                if (bit >= 0) {
                    BytesAtRest.flip(file, r.from(), bit);
                } else {
                    BytesAtRest.zero(file, r.from(), r.length());
                }
            }
        }
        return List.of();
    }

    @Override
    public DriveClient survivorDrive() {
        return survivors.drive();
    }

    /**
     * The survivor is a plain directory, whose reads cannot fail: its files move into a tree of the model's own, served
     * over FUSE as the disk's tree is (rootless), all of them durable, at the same place; the plain directory is kept
     * beside it ({@link SurvivorDrive}: on first ask). Refused while a process holds a file of the survivor open, maps
     * one or works in it, as {@code /proc} tells ({@link OpenFiles}): it would go on reading the plain files.
     */
    @Override
    public DriveClient serveSurvivor() throws IOException {
        return survivors.serve(survivor, "its files can move into a tree whose reads can fail", () -> {
            List<String> open = OpenFiles.under(survivor);
            return open.isEmpty() ? null : "PID and file: " + String.join(", ", open);
        }, this::moveSurvivor);
    }

    /** Moves the survivor's files into a tree served at its place ({@link #serveSurvivor}); on failure moves them back. */
    private DriveClient moveSurvivor() throws IOException {
        Path plain = plainSurvivor();
        Files.move(survivor, plain, StandardCopyOption.ATOMIC_MOVE);
        Path mounted = survivor;
        DriveClient served;
        try {
            Files.createDirectory(mounted);
            Leftovers.record(work, "mount", mounted.toString());
            served = DriveClient.files(host, mounted, sizeBytes, rules, plain);
        } catch (IOException | RuntimeException | Error e) {
            // Whatever step failed, the survivor goes back where the test finds it.
            try {
                Files.deleteIfExists(mounted);
                Files.move(plain, mounted, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException | RuntimeException back) {
                e.addSuppressed(new IOException("survivor lost: its files stay in " + plain
                        + ", which could not move back to " + mounted, back));
            }
            throw e;
        }
        survivors.stopOnClose(served, mounted);
        try {
            servedAsCut = served.stats();
        } catch (IOException e) {
            servedAsCut = null; // unknown: faults on the survivor then cover their ranges whole (held)
        }
        return served;
    }

    /** A file's bytes, by its node. */
    @Override
    public List<FaultRange> place(Path file, long offset, long length) throws IOException {
        if (file == null) {
            throw new IllegalArgumentException("the file model has no drive: name a file (WriteFault.toFile)");
        }
        // The file model's inode number is the tree's node id (FuseTreeServer's attributes).
        long node = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        return List.of(new FaultRange(node, offset, length));
    }

    /** A file's bytes, by its node, as a write fault's; of a survivor's file, those its drive holds ({@link #held}). */
    @Override
    public List<FaultRange> placeReads(Path file, long offset, long length) throws IOException {
        if (file == null) {
            throw new IllegalArgumentException("the file model has no drive: name a file (ReadFault.toFile)");
        }
        FaultRange whole = place(file, offset, length).get(0);
        return held(file, whole.unit(), offset, length);
    }

    /**
     * The pieces of {@code length} bytes from {@code offset} of {@code file} that the drive holds, as ranges of
     * {@code unit}: of a file of the survivor, those some write the cut kept put there ({@link HeldBytes}), read from
     * the plain copy the cut wrote; all of them for a file of the disk with the power on (its tree holds every byte
     * written), and for a served survivor written or synced since it began to serve, which that copy no longer tells.
     *
     * @throws IllegalArgumentException when the drive holds none of them
     */
    private List<FaultRange> held(Path file, long unit, long offset, long length) throws IOException {
        Path copy = null;
        if (survivor != null) {
            Path real = file.toRealPath();
            Path root = survivor.toRealPath();
            if (real.startsWith(root)) {
                copy = survivors.drive() == null ? real : survivors.drive().stats().equals(servedAsCut)
                        ? plainSurvivor().resolve(root.relativize(real)) : null;
            }
        }
        return copy == null ? List.of(new FaultRange(unit, offset, length))
                : HeldBytes.of(file, copy, unit, offset, length);
    }

    /** Where the plain directory the cut wrote the survivor into goes once the survivor is served ({@link #serveSurvivor}). */
    private Path plainSurvivor() {
        return work.resolve(survivor.getFileName() + "-files");
    }

    /** The tree records its operations, everything in it made durable first. */
    @Override
    public void startRecording(Path dir, Path log) throws IOException {
        drive.record(log, null);
    }

    @Override
    public ModelStates crashStates(Path dir, Path log, BooleanSupplier powered) throws IOException {
        RecordingFiles held = RecordingFiles.open(null, log);
        try {
            return new FileCrashStates(dir, held, true);
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
    }

    /** A mount the server made itself (mount(2), no fusermount watcher) outlives a dead server, dead; a cut removed it. */
    @Override
    public void serverStopped(boolean gone) {
        if (gone && !cut) {
            ModelDisk.unmountQuietly(path);
        }
    }
}
