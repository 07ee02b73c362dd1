package io.flushcheck.powercut.internal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * The simulated drive's server, in a process of its own: a server thread blocked on /dev/fuse inside a
 * dying JVM can hang every mount above it, while a separate process that dies is seen by the kernel,
 * which ends the connection. Usage: {@code DiskServerMain MOUNTPOINT SIZE_BYTES [ATOMIC_BYTES]} for the
 * block model (a drive's sectors), {@code DiskServerMain --files MOUNTPOINT} for the file model (a tree of
 * files, the mount itself; {@code save DIR} writes the survivor's tree into DIR); it prints
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
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DiskServerMain {

    private DiskServerMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        boolean files = args[0].equals("--files");
        Path mountPoint = Path.of(args[files ? 1 : 0]);
        Worlds worlds = new Worlds();
        PowerLossModel model;
        FuseServer server;
        try {
            if (files) {
                FileTree tree = new FileTree(Libc.C.geteuid(), Libc.C.getegid());
                model = tree;
                model.whenFrozen(worlds::powerGone);
                server = FuseTreeServer.mount(tree, mountPoint);
            } else {
                SectorStore store = new SectorStore(Long.parseLong(args[1]),
                        args.length > 2 ? Integer.parseInt(args[2]) : SectorStore.SECTOR);
                model = store;
                model.whenFrozen(worlds::powerGone);
                server = FuseDiskServer.mount(store, mountPoint);
            }
        } catch (Exception e) {
            out.println("error " + e.getMessage());
            System.exit(1);
            return;
        }
        Thread serving = new Thread(() -> {
            try {
                server.serve();
            } catch (Exception e) {
                System.err.println("flushcheck disk server: " + e.getMessage());
            }
        }, "fuse-disk");
        serving.setDaemon(true);
        serving.start();
        out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] w = line.trim().split(" ");
            try {
                switch (w[0]) {
                    case "stats" -> out.println("flushes " + model.flushes() + " unflushed " + model.unflushedBytes());
                    case "cut" -> {
                        long[] r = model.cut(PowerLossModel.CutMode.valueOf(w[1]), w.length > 2 ? Long.parseLong(w[2]) : 0);
                        out.println("cut kept " + r[0] + " discarded " + r[1] + " at " + model.flushes()
                                + (model.armedCutHappened() ? " armed" : " now"));
                    }
                    case "arm" -> {
                        if (w.length > 2) {
                            int group = Integer.parseInt(w[2]);
                            model.cutAtFlush(Long.parseLong(w[1]), () -> Libc.C.kill(-group, Libc.SIGKILL));
                        } else {
                            model.cutAtFlush(Long.parseLong(w[1]), null);
                        }
                        out.println("armed");
                    }
                    case "save" -> {
                        model.save(Path.of(line.trim().substring("save ".length())));
                        out.println("saved");
                    }
                    case "world" -> out.println(worlds.add(Integer.parseInt(w[1])) ? "world" : "world killed");
                    case "powered" -> out.println("powered " + !model.frozen());
                    case "arm-during" -> {
                        model.cutDuringFlush(Long.parseLong(w[1]), Long.parseLong(w[2]));
                        out.println("armed");
                    }
                    case "unmount" -> {
                        server.unmount();
                        out.println("unmounted");
                    }
                    case "quit" -> {
                        server.unmount();
                        out.println("bye");
                        return;
                    }
                    default -> out.println("error unknown command " + w[0]);
                }
            } catch (Exception e) {
                out.println("error " + e);
            }
        }
        // The parent is gone without a quit (killed): undo what it made on this drive while the drive
        // still answers, or its filesystem and loop devices would outlive both of us.
        if (!files) {
            System.err.println("flushcheck disk server: its JVM is gone; cleaning up: "
                    + Leftovers.undo(mountPoint.getParent()));
        }
        server.unmount();
    }
}
