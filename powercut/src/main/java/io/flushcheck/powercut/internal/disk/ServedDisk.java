package io.flushcheck.powercut.internal.disk;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.cleanup.WorkDirectory;
import io.flushcheck.powercut.internal.host.DiskServerMain;
import io.flushcheck.powercut.internal.host.DriveClient;
import io.flushcheck.powercut.internal.host.DriveHost;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * A model's disk as this JVM's drive host serves it, what making either model's disk comes to: its claimed work
 * directory, the model, the client of its drive, and the steps that undo it, run last first when it closes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ServedDisk {

    /** The system property that sets the drives' server's maximum heap. */
    public static final String SERVER_HEAP_PROPERTY = "flushcheck.powercut.serverHeap";

    private final Path work;
    private final ModelDisk model;
    private final DriveClient drive;
    private final Deque<Runnable> undo = new ArrayDeque<>();

    private ServedDisk(Path work, ModelDisk model, DriveClient drive) {
        this.work = work;
        this.model = model;
        this.drive = drive;
    }

    /**
     * Has this JVM's drive host serve {@code model}'s drive under {@code work} and the model start its disk on it;
     * the server's failures reach the disk's users as {@code failures} makes them. First it removes what disks of
     * killed JVMs left beside {@code work}, when that is due ({@link Leftovers#sweepDue}).
     */
    public static ServedDisk make(Path work, ModelDisk model, Function<DriveHost.ServerFailure, ? extends IOException> failures)
            throws IOException {
        for (String cleaned : Leftovers.sweepDue(work.toAbsolutePath().getParent())) {
            System.err.println("flushcheck powercut: " + cleaned);
        }
        work = Leftovers.claim(work);
        // Served by this JVM's drive host, never by this JVM: a program here that maps a file of the mount
        // (SQLite maps its WAL index) faults with this process's memory map locked, and a server thread here
        // that then needed that lock would wait on the fault it must answer.
        DriveClient served;
        try {
            served = model.serve(DriveHost.shared(serverCommand(), failures), work);
        } catch (IOException | RuntimeException e) {
            Leftovers.undo(work);
            throw e;
        }
        ServedDisk disk = new ServedDisk(work, model, served);
        disk.undo.push(disk::stopServer);
        try {
            model.start(served, disk.undo);
            return disk;
        } catch (IOException | RuntimeException e) {
            disk.close();
            throw e;
        }
    }

    /**
     * The drives' server, a JVM of its own (one for all of this JVM's disks): C1 compiles its request loop
     * at once, and one GC thread leaves the cores to the workload. Out of memory it exits rather than
     * serve on with a thread gone, and its disks then say that it died.
     */
    private static List<String> serverCommand() {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"));
        String heap = System.getProperty(SERVER_HEAP_PROPERTY);
        if (heap != null && !heap.isBlank()) {
            command.add("-Xmx" + heap.trim());
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DiskServerMain.class.getName(), "--host"));
        return List.copyOf(command);
    }

    /** The disk's work directory. */
    public Path work() {
        return work;
    }

    /** What the disk's model decides. */
    public ModelDisk model() {
        return model;
    }

    /** The client of the disk's drive. */
    public DriveClient drive() {
        return drive;
    }

    /** Runs {@code step} when the disk closes, before everything made earlier is undone. */
    public void onClose(Runnable step) {
        undo.push(step);
    }

    private void stopServer() {
        boolean gone = false;
        try {
            drive.quit();
        } catch (DriveClient.Refused r) {
            System.err.println("flushcheck powercut: the simulated drive of " + work + " did not stop cleanly: " + r.reply());
        } catch (IOException e) {
            gone = true; // what it mounted itself may outlive it
        }
        model.serverStopped(gone);
    }

    /**
     * Unmounts, detaches and stops everything, last made first, and removes the work directory. What cannot be
     * removed (a mount the kernel keeps) is named on stderr, and the directory keeps the markers by which the next
     * disk made beside it removes it.
     */
    public void close() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
        String stayed = WorkDirectory.delete(work.toAbsolutePath(), Leftovers.MARKERS);
        if (stayed != null) {
            System.err.println("flushcheck powercut: the disk in " + work + " " + stayed
                    + "; the first disk made in " + work.getParent() + " by a later run tries again");
        }
    }
}
