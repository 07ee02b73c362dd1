package io.flushcheck.powercut.internal.host;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.drive.FuseDiskServer;
import io.flushcheck.powercut.internal.drive.SectorImage;
import io.flushcheck.powercut.internal.drive.SectorStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The process that serves the simulated drives of one JVM ({@link DriveHost}), both models, never that
 * JVM itself: a server thread blocked on /dev/fuse inside a dying JVM can hang every mount above it,
 * while a separate process that dies is seen by the kernel, which ends the connection. Usage:
 * {@code DiskServerMain --host}. It prints {@code ready}, then answers one command a line on stdin, a path
 * written as a {@link PathWord}:
 * <ul>
 *   <li>{@code new ID files MOUNTPOINT [SIZE [RULES [FROM]]]}: a fresh tree of the file model of SIZE bytes mounted
 *       there, under RULES, {@code journaled} (the default) or {@code posix}; holding what directory FROM holds, all of
 *       it durable, when given (a survivor's directory) ({@code ready});
 *   <li>{@code new ID drive MOUNTPOINT SIZE ATOMIC [TEMPLATE]}: a block model's drive of SIZE bytes
 *       writing ATOMIC bytes atomically, serving one file, {@link FuseDiskServer#FILE}, there; empty, or
 *       holding what TEMPLATE holds ({@code ready});
 *   <li>{@code new ID image MOUNTPOINT SIZE ATOMIC IMAGE}: as {@code drive}, holding what the image file IMAGE holds
 *       (a survivor's saved image), read where it lies and never written: the drive's writes are its own
 *       ({@code ready});
 *   <li>{@code template NAME ID}: what drive ID reads now becomes template NAME ({@code template});
 *   <li>{@code ID COMMAND}: one of {@link DriveControl}'s commands for disk ID; after {@code ID quit} the
 *       id is gone.
 * </ul>
 * End of input (its JVM gone) undoes what that JVM made on each drive while the drive still answers (its
 * filesystems and loop devices, which would outlive both otherwise), then unmounts every disk.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DiskServerMain {

    /**
     * A disk served here: its commands, its drive's store (null for the file model), its work directory, and the image
     * file it started from (closed with it), or null.
     */
    private record Served(DriveControl control, SectorStore store, Path work, SectorImage image) {
    }

    /** The file model's size when a client does not say (one from before sizes were passed). */
    private static final long DEFAULT_FILES_SIZE = 1L << 30;

    private final Map<String, Served> disks = new HashMap<>();
    private final Map<String, SectorImage> templates = new HashMap<>();

    private DiskServerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || !args[0].equals("--host")) {
            System.err.println("usage: DiskServerMain --host");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        new DiskServerMain().serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out);
    }

    private void serve(BufferedReader in, PrintStream out) throws Exception {
        out.println("ready");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            // One line a reply, whatever an error message quotes: a second line would answer the next command.
            out.println(answer(line.trim()).replace('\n', ' ').replace('\r', ' '));
        }
        for (Served disk : disks.values()) {
            if (disk.store() != null) {
                System.err.println("flushcheck disk server: its JVM is gone; cleaning up: " + Leftovers.undo(disk.work()));
            }
            try {
                disk.control().unmount();
            } catch (IOException e) {
                System.err.println("flushcheck disk server: " + e.getMessage());
            }
        }
    }

    private String answer(String line) {
        String[] w = line.split(" ");
        try {
            if (w[0].equals("new") && w.length >= 4) {
                return add(w);
            }
            if (w[0].equals("template") && w.length == 3) {
                Served disk = disks.get(w[2]);
                if (disk == null || disk.store() == null) {
                    return "error no drive " + w[2];
                }
                // Its file is made beside the drive's, on the disk, not in the heap (the drive's own work directory).
                templates.put(w[1], disk.store().image(disk.work()));
                return "template";
            }
        } catch (Exception e) {
            return "error " + e.getMessage();
        }
        Served disk = disks.get(w[0]);
        if (disk == null || w.length < 2) {
            return "error no disk " + w[0];
        }
        String reply = disk.control().answer(line.substring(w[0].length() + 1));
        if (reply.equals("bye")) {
            disks.remove(w[0]);
            if (disk.image() != null) {
                disk.image().close();
            }
        }
        return reply;
    }

    private String add(String[] w) throws Exception {
        Path mountPoint = PathWord.path(w[3]);
        if (w[2].equals("files") && w.length >= 4 && w.length <= 7) {
            long size = w.length >= 5 ? Long.parseLong(w[4]) : DEFAULT_FILES_SIZE;
            String rules = w.length >= 6 ? w[5] : "journaled";
            if (!rules.equals("journaled") && !rules.equals("posix")) {
                return "error no rules " + rules + ": journaled or posix";
            }
            Path from = w.length == 7 ? PathWord.path(w[6]) : null;
            disks.put(w[1], new Served(DriveControl.files(mountPoint, size, rules.equals("journaled"), from), null, null,
                    null));
            return "ready";
        }
        if (w[2].equals("drive") && (w.length == 6 || w.length == 7)) {
            SectorImage image = w.length == 7 ? templates.get(w[6]) : null;
            if (w.length == 7 && image == null) {
                return "error no template " + w[6];
            }
            SectorStore store = new SectorStore(Long.parseLong(w[4]), Integer.parseInt(w[5]), image, mountPoint.getParent());
            disks.put(w[1], new Served(DriveControl.drive(mountPoint, store), store, mountPoint.getParent(), null));
            return "ready";
        }
        if (w[2].equals("image") && w.length == 7) {
            long size = Long.parseLong(w[4]);
            SectorImage image = SectorImage.of(PathWord.path(w[6]), size);
            try {
                SectorStore store = new SectorStore(size, Integer.parseInt(w[5]), image, mountPoint.getParent());
                disks.put(w[1], new Served(DriveControl.drive(mountPoint, store), store, mountPoint.getParent(), image));
            } catch (IOException | RuntimeException e) {
                image.close();
                throw e;
            }
            return "ready";
        }
        return "error cannot read: new " + String.join(" ", w);
    }
}
