package io.flushcheck.powercut.internal.cleanup;

import io.flushcheck.powercut.internal.drive.FuseDiskServer;
import io.flushcheck.powercut.internal.kernel.Mounts;
import io.flushcheck.powercut.internal.sys.Commands;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * What a simulated disk leaves when the JVM that made it is killed: its filesystem and survivors still
 * mounted, their loop devices attached, its work directory, the logs of the programs it ran. Each work
 * directory carries an {@value #OWNER} file naming its JVM's PID and an {@code attached} file naming every
 * loop device and mount made for it. The drive's server, in its own process, undoes them when its
 * parent's end of the pipe closes; where both died, the next disk made beside it removes whatever belongs
 * to a PID that no longer runs, in the order a clean teardown would (unmount, detach, delete), and says so
 * (in a JVM that has not looked there in the last minute: {@link #sweepDue}).
 *
 * <p>A temporary directory is shared with every user of the machine, so the sweep trusts nothing it did
 * not make: it acts only on a directory that is not a link, is owned by this process's user with mode
 * 0711 or 0700 (as claimed: others may at most pass through to a disk, never list or change it), and holds a
 * marker of that user's whose text names the directory itself and the random token the
 * directory's {@value #TOKEN} file repeats (so a copy or a move of a marker is not trusted either); of
 * what its {@code attached} file names, only mounts and loop devices inside the directory, a mount only
 * when it is one of flushcheck's own filesystems; and it deletes nothing below a mount that is still there.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Leftovers {

    public static final String OWNER = "owner.pid";
    static final String TOKEN = "token";
    private static final String ATTACHED = "attached";
    /** The files by which the sweep knows a work directory: deleted last. */
    public static final List<String> MARKERS = List.of(ATTACHED, OWNER, TOKEN);
    private static final String MAGIC = "flushcheck work directory";
    /** {@code flushcheck-world-PID-...log}: a program's output, in the temporary directory, while its JVM runs. */
    private static final Pattern WORLD_LOG = Pattern.compile("flushcheck-world-(\\d+)-[^/]*\\.log");

    private Leftovers() {
    }

    /**
     * Makes {@code work} this JVM's: creates it, with mode 0711, and marks it. Refuses a path that exists
     * already as a link or as a directory of another user's; a directory of this user's that a run left is
     * taken over. The directory is made by one {@code mkdir}, which never follows a link, and changed only
     * once it is seen to be the one made.
     *
     * @return the directory's real path, by which everything made in it is recorded and found again
     */
    public static Path claim(Path work) throws IOException {
        return claim(work, true);
    }

    /**
     * As {@link #claim(Path)}, mode 0711 where {@code othersPass} (a disk: a server run as a user of its own, as
     * PostgreSQL's, must reach it), else 0700 (crash states checked by this user alone).
     */
    public static Path claim(Path work, boolean othersPass) throws IOException {
        Set<PosixFilePermission> mode = PosixFilePermissions.fromString(othersPass ? "rwx--x--x" : "rwx------");
        Path parent = work.toAbsolutePath().getParent();
        Path dir = Files.createDirectories(parent).toRealPath().resolve(work.getFileName());
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            if (!ours(dir)) {
                throw new IOException("cannot make a simulated disk in " + dir + ": it is "
                        + (Files.isSymbolicLink(dir) ? "a symbolic link" : "not a directory of this user's"));
            }
        } else {
            // Owner only from its mkdir on: the mode below is set once the directory is seen to be this one.
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                    || (int) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS) != Libc.C.geteuid()) {
                throw new IOException("cannot make a simulated disk in " + dir + ": it is not this user's after mkdir");
            }
        }
        // Others may at most pass through to the disk (a server run as its own user must), never list or change it.
        Files.setPosixFilePermissions(dir, mode);
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        Files.writeString(dir.resolve(TOKEN), token + "\n");
        Files.writeString(dir.resolve(OWNER), marker(ProcessHandle.current().pid(), dir, token));
        undoneAtExit(dir);
        return dir;
    }

    /** The work directories this JVM claimed and has not deleted yet. */
    private static final Set<Path> CLAIMED = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();

    /**
     * Has {@code dir} undone when the JVM ends with it still there: stopped by SIGINT or SIGTERM, it runs its
     * shutdown hooks, and the run's work directory goes then, not at the next run's sweep.
     */
    private static void undoneAtExit(Path dir) {
        CLAIMED.add(dir);
        if (HOOKED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(Leftovers::undoClaimed, "flushcheck-work-directories"));
        }
    }

    /** {@code dir}, claimed, is deleted: nothing to undo at the JVM's end. */
    static void forget(Path dir) {
        CLAIMED.remove(dir);
    }

    private static void undoClaimed() {
        for (Path dir : CLAIMED) {
            Long owner = owner(dir); // still ours, its markers still naming this JVM
            if (owner != null && owner == ProcessHandle.current().pid()) {
                try {
                    undo(dir);
                } catch (IOException | RuntimeException e) {
                    // What stays is the next run's sweep's: its owner no longer runs then.
                }
            }
        }
    }

    private static String marker(long pid, Path dir, String token) {
        return MAGIC + "\npid " + pid + "\ntoken " + token + "\npath " + dir + "\n";
    }

    /** How long after sweeping a directory this JVM leaves it unswept when it makes another disk there. */
    static final long RESWEEP_NANOS = 60_000_000_000L;
    private static final Map<Path, Long> SWEPT = new ConcurrentHashMap<>();

    /**
     * As {@link #sweep}, unless this JVM swept {@code parent} less than a minute ago: a parent such as the
     * temporary directory holds many names, every one of which a sweep reads, and disks are made there once per
     * test invocation. What a run killed meanwhile left goes at this JVM's first disk there a minute later, or at
     * the next JVM's first.
     */
    public static List<String> sweepDue(Path parent) {
        Path key = parent.toAbsolutePath().normalize();
        long now = System.nanoTime();
        boolean[] due = {false};
        SWEPT.compute(key, (k, last) -> {
            due[0] = last == null || now - last >= RESWEEP_NANOS;
            return due[0] ? Long.valueOf(now) : last;
        });
        return due[0] ? sweep(parent) : List.of();
    }

    /**
     * Cleans up the work directories under {@code parent} whose owner no longer runs, and the program logs
     * of JVMs that no longer run.
     *
     * @return one sentence per directory cleaned, empty when there was none
     */
    public static List<String> sweep(Path parent) {
        List<String> done = new ArrayList<>();
        if (!Files.isDirectory(parent)) {
            return done;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent.toAbsolutePath())) {
            for (Path entry : entries) {
                Matcher log = WORLD_LOG.matcher(entry.getFileName().toString());
                if (log.matches()) {
                    if (dead(Long.parseLong(log.group(1))) && ownedRegularFile(entry)) {
                        Files.deleteIfExists(entry);
                    }
                    continue;
                }
                Long owner = owner(entry);
                if (owner != null && dead(owner)) {
                    done.add("removed what a killed run (PID " + owner + ") left in " + entry + ": " + undo(entry));
                }
            }
        } catch (IOException e) {
            return done;
        }
        return done;
    }

    private static boolean dead(long pid) {
        return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty();
    }

    /** The PID a work directory's marker names, or null when {@code dir} is not a work directory of this user's. */
    static Long owner(Path dir) {
        if (!ours(dir)) {
            return null;
        }
        Path marker = dir.resolve(OWNER);
        Path token = dir.resolve(TOKEN);
        try {
            if (!ownedRegularFile(marker) || !ownedRegularFile(token)) {
                return null;
            }
            String[] lines = Files.readString(marker).split("\n");
            String expected = Files.readString(token).trim();
            if (lines.length != 4 || !lines[0].equals(MAGIC) || !lines[1].startsWith("pid ")
                    || !lines[2].equals("token " + expected) || !lines[3].equals("path " + dir.toAbsolutePath())) {
                return null;
            }
            return Long.parseLong(lines[1].substring(4));
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /** A directory (not a link to one) owned by this process's user that only it may list or change (0711, 0700). */
    private static boolean ours(Path dir) {
        try {
            int mode = (int) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0777;
            return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                    && (int) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS) == Libc.C.geteuid()
                    && (mode == 0711 || mode == 0700);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static boolean ownedRegularFile(Path file) {
        try {
            return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                    && (int) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS) == Libc.C.geteuid();
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Notes in {@code work} a loop device or mount made for it, so that a cleanup can undo it by name. */
    public static void record(Path work, String kind, String what) throws IOException {
        Files.writeString(work.resolve(ATTACHED), kind + " " + what + "\n", StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /**
     * Undoes what {@code work} records, last first: unmounts its filesystems (lazily: a killed test may
     * still hold files open), detaches its loop devices, unmounts the drive, and deletes the directory, its
     * markers last, and nothing below a mount that stayed. Only what lies inside {@code work} is touched.
     *
     * @return what was undone, as a phrase, and what stayed
     */
    public static String undo(Path work) throws IOException {
        Path dir = work.toAbsolutePath().normalize();
        List<String> lines = Files.isRegularFile(dir.resolve(ATTACHED), LinkOption.NOFOLLOW_LINKS)
                ? Files.readAllLines(dir.resolve(ATTACHED)) : List.of();
        int mounts = 0;
        List<String> loops = new ArrayList<>();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String[] f = lines.get(i).split(" ", 2);
            if (f.length < 2) {
                continue;
            }
            if (f[0].equals("mount") && inside(f[1], dir) && ownMount(Path.of(f[1]), dir)) {
                Commands.attempt(List.of("umount", "--lazy", f[1]));
                mounts++;
            } else if (f[0].equals("loop") && f[1].matches("/dev/loop\\d+") && attachedHere(f[1], dir)) {
                Commands.attempt(List.of("losetup", "--detach", f[1]));
                loops.add(f[1]);
            }
        }
        for (String served : List.of("drive", "fs")) { // the drive's FUSE mount; the file model's
            Path point = dir.resolve(served);
            if (ownMount(point, dir)) {
                Commands.attempt(List.of("umount", "--lazy", point.toString()));
                mounts++;
            }
        }
        String stayed = WorkDirectory.delete(dir, MARKERS);
        return mounts + " mounts, " + (loops.isEmpty() ? "no loop device" : "loop devices " + String.join(", ", loops))
                + (stayed == null ? "" : "; " + stayed);
    }

    private static boolean inside(String path, Path dir) {
        Path p = Path.of(path).normalize();
        return p.isAbsolute() && p.startsWith(dir) && !p.equals(dir);
    }

    /**
     * True when a filesystem of flushcheck's is mounted at {@code point}: one of its FUSE servers, or a
     * filesystem on a loop device that maps a file inside {@code dir}.
     */
    private static boolean ownMount(Path point, Path dir) throws IOException {
        for (String type : List.of("fuse.flushcheck-disk", "fuse.flushcheck-files")) {
            if (Mounts.mountedAt(point, type)) {
                return true;
            }
        }
        String device = Mounts.deviceAt(point);
        return device != null && device.matches("/dev/loop\\d+") && attachedHere(device, dir);
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
