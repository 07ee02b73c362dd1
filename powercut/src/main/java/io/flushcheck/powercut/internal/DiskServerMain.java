package io.flushcheck.powercut.internal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The simulated drive's server, in a process of its own: a server thread blocked on /dev/fuse inside a
 * dying JVM can hang every mount above it, while a separate process that dies is seen by the kernel,
 * which ends the connection. Usage: {@code DiskServerMain MOUNTPOINT SIZE_BYTES [ATOMIC_BYTES]} for the
 * block model (a drive's sectors); it prints
 * {@code ready} once mounted, then answers one command a line on stdin:
 * {@code stats} ({@code flushes N unflushed BYTES}), {@code cut FLUSHED|SUBSET SEED}
 * ({@code cut kept K discarded D}, in atomic units), {@code arm K [PGID]} (cut when the K-th flush completes, and then
 * SIGKILL process group PGID before the flush is answered; {@code armed}),
 * {@code save FILE} ({@code saved}) and {@code quit}. End of input
 * (its parent gone) unmounts and exits, like {@code quit}.
 * Also {@code arm-during K SEED}: cut as the K-th flush arrives, keeping a seeded subset of the cache,
 * and fail that flush ({@code armed}). The reply to {@code cut} ends {@code at FLUSHES armed} when an
 * armed cut had already happened, {@code at FLUSHES now} otherwise.
 * And {@code world PID}: the process world whose first process is PID dies at the cut, however the power
 * goes ({@code world}; {@code world killed} when the power is gone already and it was killed at once).
 *
 * <p>{@code DiskServerMain --files-host} serves the file model (a tree of files, the mount itself; {@code save
 * DIR} writes the survivor's tree into DIR) for many disks, one JVM's, in one process: it prints
 * {@code ready}, then takes {@code new ID MOUNTPOINT} ({@code ready}: a fresh tree mounted there) and
 * {@code ID COMMAND} (the command above, for disk ID; after {@code ID quit} the id is gone). End of input
 * unmounts every disk.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DiskServerMain {

    private DiskServerMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (args[0].equals("--files-host")) {
            host(out);
            return;
        }
        Path mountPoint = Path.of(args[0]);
        DriveControl control;
        try {
            control = DriveControl.drive(mountPoint, Long.parseLong(args[1]),
                    args.length > 2 ? Integer.parseInt(args[2]) : SectorStore.SECTOR);
        } catch (Exception e) {
            out.println("error " + e.getMessage());
            System.exit(1);
            return;
        }
        out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String reply = control.answer(line);
            out.println(reply);
            if (reply.equals("bye")) {
                return;
            }
        }
        // The parent is gone without a quit (killed): undo what it made on this drive while the drive
        // still answers, or its filesystem and loop devices would outlive both of us.
        System.err.println("flushcheck disk server: its JVM is gone; cleaning up: "
                + Leftovers.undo(mountPoint.getParent()));
        control.unmount();
    }

    private static void host(PrintStream out) throws Exception {
        Map<String, DriveControl> disks = new HashMap<>();
        out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] w = line.trim().split(" ", 3);
            if (w[0].equals("new") && w.length == 3) {
                try {
                    disks.put(w[1], DriveControl.files(Path.of(w[2])));
                    out.println("ready");
                } catch (Exception e) {
                    out.println("error " + e.getMessage());
                }
                continue;
            }
            DriveControl disk = disks.get(w[0]);
            if (disk == null || w.length < 2) {
                out.println("error no disk " + w[0]);
                continue;
            }
            String reply = disk.answer(line.trim().substring(w[0].length() + 1));
            if (reply.equals("bye")) {
                disks.remove(w[0]);
            }
            out.println(reply);
        }
        // The JVM is gone: nothing of its disks may stay mounted.
        for (DriveControl disk : disks.values()) {
            disk.unmount();
        }
    }
}
