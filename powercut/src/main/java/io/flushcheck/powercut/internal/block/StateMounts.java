package io.flushcheck.powercut.internal.block;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.kernel.LoopDevices;
import io.flushcheck.powercut.internal.kernel.Mounts;
import io.flushcheck.powercut.internal.kernel.SharedLoops;
import io.flushcheck.powercut.internal.kernel.SurvivorMount;
import io.flushcheck.powercut.internal.kernel.UnmountableTypeException;
import io.flushcheck.powercut.internal.sys.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The block model's crash states mounted to be looked at, by any number of workers at once, each in a place of its
 * own: an image is attached to a loop device, mounted as data ({@link Mounts#DATA}; {@link Mounts#FOREIGN_DATA} for a
 * recording from elsewhere), looked at, unmounted and detached. Each place and each loop device used is noted in the
 * work directory for the cleanup after a killed run.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StateMounts {

    /**
     * Where one worker mounts its states: a directory only this user may enter, with a name no one guesses
     * beforehand, holding the state's image and the mount point. What a state holds is the workload's data, and
     * whatever it holds (a setuid program, a device node) is out of other users' reach.
     */
    public record Place(Path dir, Path image, Path mountPoint) implements AutoCloseable {

        /** Removes the image, the mount point and the directory; nothing is mounted there any more. */
        @Override
        public void close() throws IOException {
            try {
                Files.deleteIfExists(image);
            } finally {
                try {
                    Files.deleteIfExists(mountPoint);
                } finally {
                    Files.deleteIfExists(dir);
                }
            }
        }
    }

    private final Path work;
    private final String fsType;
    private final long flags;
    private final SharedLoops loops = new SharedLoops();
    /** The loop devices noted in the work directory: each once, as the kernel hands the same few out again. */
    private final Set<String> noted = new HashSet<>();

    public StateMounts(Path work, String fsType, boolean foreign) {
        this.work = work;
        this.fsType = fsType;
        this.flags = foreign ? Mounts.FOREIGN_DATA : Mounts.DATA;
    }

    /** A new place in {@code parent}, its mount point noted for the cleanup after a killed run. */
    public Place place(Path parent) throws IOException {
        Path dir = OwnerOnly.directory(parent, "states-");
        Path mountPoint;
        try {
            mountPoint = Files.createDirectory(dir.resolve("state"));
            note("mount", mountPoint.toString());
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(dir.resolve("state"));
            Files.deleteIfExists(dir);
            throw e;
        }
        return new Place(dir, dir.resolve("state.img"), mountPoint);
    }

    /** What is done with a mounted state. */
    @FunctionalInterface
    public interface OnMounted<T> {
        T apply(Path mountPoint) throws IOException;
    }

    /**
     * Attaches {@code place}'s image to a loop device, mounts it at its mount point (the filesystem replays its
     * journal), runs {@code onMounted} there and takes it all down; {@code notMounted}'s answer when the filesystem
     * refuses to mount. A worker that finds no loop device free waits while another holds one ({@link SharedLoops}).
     */
    public <T> T mounted(Place place, OnMounted<T> onMounted, Function<IOException, T> notMounted) throws IOException {
        String loop = loops.attach(place.image());
        boolean inUse = false; // by files the check left open: the kernel frees the device when they close
        try {
            note("loop", loop);
            try {
                SurvivorMount.mount(loop, place.mountPoint(), fsType, flags);
            } catch (UnmountableTypeException e) {
                // The machine's lack, the same for every state: no state is checked, none reported failing.
                throw new UnmountableTypeException(e.type(), "this machine cannot mount " + e.type() + ", the"
                        + " recording's filesystem: its kernel has no " + e.type() + " (load its module: modprobe "
                        + e.type() + ")");
            } catch (IOException e) {
                return notMounted.apply(e);
            }
            try {
                return onMounted.apply(place.mountPoint());
            } finally {
                inUse = Mounts.inUse(place.mountPoint());
                Mounts.unmountLazy(place.mountPoint());
            }
        } finally {
            try {
                LoopDevices.detach(loop);
                if (!inUse) {
                    LoopDevices.awaitRelease(loop, place.image());
                }
            } finally {
                loops.release();
            }
        }
    }

    /** Notes a loop device or mount point in the work directory, each once; workers note theirs one at a time. */
    private synchronized void note(String kind, String what) throws IOException {
        if (kind.equals("mount") || noted.add(what)) {
            Leftovers.record(work, kind, what);
        }
    }
}
