package io.flushcheck.powercut.internal.disk;

import io.flushcheck.powercut.internal.host.DriveClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Deque;
import org.apiguardian.api.API;

/**
 * The drive a cut's survivor moves onto so that its reads can fail ({@link ModelDisk#serveSurvivor}), what every model
 * shares of that move: made on first ask, so that a cut costs nothing more for the tests that never fail a survivor's
 * reads, the same drive after; refused before a cut, and while something holds the survivor where it is (a file of it
 * open, a process working in it), which would go on reading what no longer fails; stopped when the disk closes. How the
 * survivor moves is the model's.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SurvivorDrive {

    /** Lets go of the survivor where it lies, so that it can move. */
    @FunctionalInterface
    public interface Release {
        /** Null once nothing holds the survivor, else what holds it, in words for the refusal. */
        String held() throws IOException;
    }

    /** Moves the survivor onto a drive whose reads can fail, at the same place; on failure puts it back. */
    @FunctionalInterface
    public interface Move {
        DriveClient move() throws IOException;
    }

    private final Deque<Runnable> undo;
    private DriveClient drive;

    /** A survivor's drive for a disk whose steps of undoing are {@code undo}, run last first as it closes. */
    public SurvivorDrive(Deque<Runnable> undo) {
        this.undo = undo;
    }

    /** The drive serving the survivor; null until one does. */
    public DriveClient drive() {
        return drive;
    }

    /**
     * The drive serving {@code survivor} (null before a cut): made by {@code move} once {@code release} says nothing
     * holds it; what the move makes of it ({@code becomes}: "its files can move into a tree whose reads can fail")
     * goes into the refusal.
     *
     * @throws IllegalStateException before a cut, or while something holds the survivor
     */
    public DriveClient serve(Path survivor, String becomes, Release release, Move move) throws IOException {
        if (drive != null) {
            return drive;
        }
        if (survivor == null) {
            throw new IllegalStateException("no cut has left a survivor to serve");
        }
        String held = release.held();
        if (held != null) {
            throw new IllegalStateException("files of the survivor " + survivor + " are open (" + held + "): fail its"
                    + " reads before opening its files, as cutPower() returns it, so that " + becomes);
        }
        drive = move.move();
        return drive;
    }

    /**
     * Stops {@code served} when the disk closes, before what was made before it is undone, and unmounts its mount at
     * {@code mountPoint} then: a mount the server made itself outlives a server that did not stop cleanly.
     */
    public void stopOnClose(DriveClient served, Path mountPoint) {
        undo.push(() -> {
            try {
                served.quit();
            } catch (IOException e) {
                // the server is gone (or was stopped already); its mount goes next
            }
            ModelDisk.unmountQuietly(mountPoint);
        });
    }
}
