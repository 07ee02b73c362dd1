package io.flushcheck.powercut.internal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What a simulated disk leaves when the JVM that made it is killed: its filesystem and survivors still
 * mounted, their loop devices attached, its work directory. Each work directory carries an
 * {@value #OWNER} file naming its JVM's PID and an {@code attached} file naming every loop device and
 * mount made for it. The drive's server, in its own process, undoes them when its parent's end of the
 * pipe closes; where both died, the next disk made beside it removes whatever belongs to a PID that no
 * longer runs, in the order a clean teardown would (unmount, detach, delete), and says so.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Leftovers {

    public static final String OWNER = "owner.pid";

    private Leftovers() {
    }

    /** Marks {@code work} as this JVM's. */
    public static void claim(Path work) throws IOException {
        Files.writeString(work.resolve(OWNER), String.valueOf(ProcessHandle.current().pid()));
    }

    /**
     * Cleans up the work directories under {@code parent} whose owner no longer runs.
     *
     * @return one sentence per directory cleaned, empty when there was none
     */
    public static List<String> sweep(Path parent) {
        List<String> done = new ArrayList<>();
        if (!Files.isDirectory(parent)) {
            return done;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent)) {
            for (Path dir : dirs) {
                Long owner = owner(dir);
                if (owner != null && owner != ProcessHandle.current().pid() && ProcessHandle.of(owner).isEmpty()) {
                    done.add(clean(dir, owner));
                }
            }
        } catch (IOException e) {
            return done;
        }
        return done;
    }

    private static Long owner(Path dir) {
        try {
            return Long.parseLong(Files.readString(dir.resolve(OWNER)).trim());
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /** Notes in {@code work} a loop device or mount made for it, so that a cleanup can undo it by name. */
    public static void record(Path work, String kind, String what) throws IOException {
        Files.writeString(work.resolve(ATTACHED), kind + " " + what + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    private static final String ATTACHED = "attached";

    private static String clean(Path dir, long owner) throws IOException {
        return "removed what a killed run (PID " + owner + ") left in " + dir + ": " + undo(dir);
    }

    /**
     * Undoes what {@code work} records, last first: unmounts its filesystems (lazily: a killed test may
     * still hold files open), detaches its loop devices, unmounts the drive, and deletes the directory.
     *
     * @return what was undone, as a phrase
     */
    public static String undo(Path work) throws IOException {
        List<String> lines = Files.exists(work.resolve(ATTACHED)) ? Files.readAllLines(work.resolve(ATTACHED)) : List.of();
        String mounted = Files.readString(Path.of("/proc/self/mountinfo"));
        int mounts = 0;
        List<String> loops = new ArrayList<>();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String[] f = lines.get(i).split(" ", 2);
            if (f.length < 2) {
                continue;
            }
            if (f[0].equals("mount") && mounted.contains(" " + f[1] + " ")) {
                Commands.attempt(List.of("umount", "--lazy", f[1]));
                mounts++;
            } else if (f[0].equals("loop") && attachedHere(f[1], work)) {
                Commands.attempt(List.of("losetup", "--detach", f[1]));
                loops.add(f[1]);
            }
        }
        Path drive = work.resolve("drive");
        if (mounted.contains(" " + drive + " ")) {
            Commands.attempt(List.of("umount", "--lazy", drive.toString()));
            mounts++;
        }
        if (Files.exists(work)) {
            try (var walk = Files.walk(work)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        return mounts + " mounts, " + (loops.isEmpty() ? "no loop device" : "loop devices " + String.join(", ", loops));
    }

    /**
     * True when {@code loop} still maps a file of {@code work}: under it, or the drive's file once its FUSE
     * mount has gone, which the kernel then names without its directory. A device number reused since by
     * someone else's file is left alone.
     */
    private static boolean attachedHere(String loop, Path work) {
        try {
            String back = Commands.run("losetup", "--list", "--noheadings", "--output", "BACK-FILE", loop).trim();
            return back.startsWith(work + "/") || back.equals("/" + FuseDiskServer.FILE);
        } catch (IOException e) {
            return false; // not attached any more
        }
    }
}
