package io.flushcheck.powercut.internal.host;

import io.flushcheck.powercut.internal.drive.FuseDiskServer;
import io.flushcheck.powercut.internal.drive.SectorStore;
import io.flushcheck.powercut.internal.files.FileTree;
import io.flushcheck.powercut.internal.files.FuseTreeServer;
import io.flushcheck.powercut.internal.files.TreeImport;
import io.flushcheck.powercut.internal.fuse.FuseServer;
import io.flushcheck.powercut.internal.model.PowerLossModel;
import io.flushcheck.powercut.internal.sys.Libc;
import io.flushcheck.powercut.internal.world.Worlds;
import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A mounted model and the commands that drive it, one line each, answered with one line (the protocol
 * {@link DiskServerMain} speaks on its pipes for each disk it serves):
 * {@code stats}, {@code cut MODE SEED} (answered with what the cut kept and discarded, what only the model's rules
 * lost and what it discarded, entry by entry), {@code arm K [PGID]}, {@code arm-during K SEED},
 * {@code fail-flush K once|persistent [ERRNO]},
 * {@code fail-writes UNIT FROM LENGTH once|persistent ERRNO},
 * {@code fail-reads UNIT FROM LENGTH once|persistent ERRNO}, {@code failed-reads},
 * {@code lose-writes UNIT FROM LENGTH once|persistent},
 * {@code misdirect-writes UNIT FROM LENGTH once|persistent TARGET-UNIT TARGET-FROM}, {@code lied-writes},
 * {@code flip-bit UNIT OFFSET BIT} and {@code zero UNIT FROM LENGTH} (data at rest that changes, durable and now),
 * {@code save PATH} (a {@link PathWord}), {@code world PID},
 * {@code watch-size PATH} (the size of a file, read as each flush completes, {@link SizeWatch}) and
 * {@code watched-sizes} (what was read, a flush and a size each; the watch ends),
 * {@code record LOG [BASE]} (a recording of a workload, {@link PowerLossModel#record}) and {@code record-stop},
 * {@code powered}, {@code unmount}, {@code quit}. {@link DriveClient} is the one client that speaks them, and reads
 * the replies. Once its FUSE server has failed (its model's store could not be read
 * or written, a request threw), every command but {@code quit} is answered {@code failed REASON}: what the model holds
 * can no longer be trusted, and a cut of it must not pass.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DriveControl {

    private final PowerLossModel model;
    private final FuseServer server;
    private final Worlds worlds;
    private final Thread serving;
    /** Why the server failed (its FUSE server stopped other than by an unmount, its store failed), or null. */
    private volatile Throwable failure;
    private volatile boolean quitting;
    /** The file whose size each flush reads ({@code watch-size}), or null. */
    private SizeWatch watch;

    private DriveControl(PowerLossModel model, FuseServer server, Worlds worlds) {
        this.model = model;
        this.server = server;
        this.worlds = worlds;
        this.serving = new Thread(() -> {
            try {
                server.serve();
            } catch (Throwable e) {
                // Not a reply of the drive: the server failed, and every later command says so.
                if (!quitting) {
                    failure = e;
                    System.err.println("flushcheck disk server: its FUSE server failed: " + e);
                }
            } finally {
                server.close();
            }
        }, "flushcheck-fuse");
        serving.setDaemon(true);
    }

    /**
     * The file model of {@code size} bytes on {@code mountPoint}, served by a thread of this process (a server
     * of its own: never the workload's), its bytes kept beside the mount point, in the disk's work directory,
     * under the journaled rules or ({@code journaled} false) the POSIX floor.
     */
    static DriveControl files(Path mountPoint, long size, boolean journaled) throws IOException {
        return files(mountPoint, size, journaled, null);
    }

    /** As {@link #files(Path, long, boolean)}, the tree holding what directory {@code from} holds, durable, when not null. */
    static DriveControl files(Path mountPoint, long size, boolean journaled, Path from) throws IOException {
        Worlds worlds = new Worlds();
        FileTree tree = new FileTree(Libc.C.geteuid(), Libc.C.getegid(), mountPoint.toAbsolutePath().getParent(), size,
                journaled);
        try {
            if (from != null) {
                TreeImport.into(tree, from);
            }
        } catch (IOException | RuntimeException e) {
            tree.close();
            throw e;
        }
        tree.whenFrozen(worlds::powerGone);
        return start(tree, FuseTreeServer.mount(tree, mountPoint), worlds);
    }

    /** The block model's drive {@code store}, its file served on {@code mountPoint}. */
    static DriveControl drive(Path mountPoint, SectorStore store) throws IOException {
        Worlds worlds = new Worlds();
        store.whenFrozen(worlds::powerGone);
        return start(store, FuseDiskServer.mount(store, mountPoint), worlds);
    }

    private static DriveControl start(PowerLossModel model, FuseServer server, Worlds worlds) {
        DriveControl c = new DriveControl(model, server, worlds);
        c.serving.start();
        return c;
    }

    /** The answer to one command line; {@code bye} after {@code quit}. */
    public synchronized String answer(String line) {
        String[] w = line.trim().split(" ");
        Throwable failed = failure;
        if (failed != null && !w[0].equals("quit")) {
            return "failed the drive's server failed: " + failed;
        }
        try {
            switch (w[0]) {
                case "stats" -> {
                    return "flushes " + model.flushes() + " unflushed " + model.unflushedBytes() + " failed "
                            + model.failedFlushes() + " failed-writes " + model.failedWrites();
                }
                case "fail-flush" -> {
                    model.failFlushesAfter(Long.parseLong(w[1]), w.length > 2 && w[2].equals("persistent"),
                            w.length > 3 ? Integer.parseInt(w[3]) : FileTree.Errno.EIO);
                    return "failing";
                }
                case "fail-writes" -> { // UNIT FROM LENGTH once|persistent ERRNO
                    model.failWrites(Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]),
                            w[4].equals("persistent"), Integer.parseInt(w[5]));
                    return "failing";
                }
                case "fail-reads" -> { // UNIT FROM LENGTH once|persistent ERRNO
                    model.failReads(Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]),
                            w[4].equals("persistent"), Integer.parseInt(w[5]));
                    return "failing";
                }
                case "lose-writes" -> { // UNIT FROM LENGTH once|persistent
                    model.loseWrites(Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]),
                            w[4].equals("persistent"));
                    return "losing";
                }
                case "misdirect-writes" -> { // UNIT FROM LENGTH once|persistent TARGET-UNIT TARGET-FROM
                    model.misdirectWrites(Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]),
                            w[4].equals("persistent"), Long.parseLong(w[5]), Long.parseLong(w[6]));
                    return "misdirecting";
                }
                case "lose-writes-to" -> { // PATH-WORD FROM LENGTH once|persistent
                    model.loseWritesTo(PathWord.text(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]),
                            w[4].equals("persistent"));
                    return "losing";
                }
                case "misdirect-writes-to" -> { // PATH-WORD FROM LENGTH once|persistent TARGET-PATH-WORD TARGET-FROM
                    model.misdirectWritesTo(PathWord.text(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]),
                            w[4].equals("persistent"), PathWord.text(w[5]), Long.parseLong(w[6]));
                    return "misdirecting";
                }
                case "lied-writes" -> {
                    return DriveClient.liedWritesReply(model.lostWrites(), model.misdirectedWrites());
                }
                case "flip-bit" -> { // UNIT OFFSET BIT
                    model.flipBit(Long.parseLong(w[1]), Long.parseLong(w[2]), Integer.parseInt(w[3]));
                    return "flipped";
                }
                case "zero" -> { // UNIT FROM LENGTH
                    model.zero(Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]));
                    return "zeroed";
                }
                case "failed-reads" -> {
                    return "failed-reads " + model.failedReads();
                }
                case "cut" -> {
                    long[] r = model.cut(PowerLossModel.CutMode.valueOf(w[1]), w.length > 2 ? Long.parseLong(w[2]) : 0);
                    return DriveClient.cutReply(r[0], r[1], model.flushes(), model.armedCutHappened(), model.cutNote(),
                            model.discarded());
                }
                case "arm" -> {
                    if (w.length > 2) {
                        int group = Integer.parseInt(w[2]);
                        model.cutAtFlush(Long.parseLong(w[1]), () -> Libc.C.kill(-group, Libc.SIGKILL));
                    } else {
                        model.cutAtFlush(Long.parseLong(w[1]), null);
                    }
                    return "armed";
                }
                case "arm-during" -> {
                    model.cutDuringFlush(Long.parseLong(w[1]), Long.parseLong(w[2]));
                    return "armed";
                }
                case "save" -> {
                    model.save(PathWord.path(w[1]));
                    return "saved";
                }
                case "world" -> {
                    return worlds.add(Integer.parseInt(w[1])) ? "world" : "world killed";
                }
                case "record" -> { // LOG [BASE], PathWords (PowerLossModel#record)
                    model.record(PathWord.path(w[1]), w.length > 2 ? PathWord.path(w[2]) : null);
                    return "recording";
                }
                case "record-stop" -> {
                    return model.stopRecording() ? "recorded" : "error the drive is not recording";
                }
                case "watch-size" -> { // PATH-WORD: a regular file, not on this disk
                    if (watch != null) {
                        return "error a file is watched already";
                    }
                    watch = SizeWatch.start(model, PathWord.path(w[1]));
                    return "watching";
                }
                case "watched-sizes" -> { // the sizes read, and the watch ends
                    if (watch == null) {
                        return "error no file is watched";
                    }
                    try {
                        return watch.reply();
                    } finally {
                        endWatch();
                    }
                }
                case "powered" -> {
                    return "powered " + !model.frozen();
                }
                case "unmount" -> {
                    server.unmount();
                    return "unmounted";
                }
                case "quit" -> {
                    quitting = true;
                    endWatch();
                    server.unmount();
                    model.close();
                    return "bye";
                }
                default -> {
                    return "error unknown command " + w[0];
                }
            }
        } catch (java.io.UncheckedIOException e) {
            // The model's store failed (StoreFile): the server's failure, not the drive's answer.
            failure = e;
            return "failed the drive's server failed: " + e;
        } catch (Exception e) {
            return "error " + e;
        }
    }

    private void endWatch() {
        SizeWatch w = watch;
        watch = null;
        if (w != null) {
            try {
                w.close();
            } catch (IOException e) {
                // a file opened for reading only: closing it loses nothing
            }
        }
    }

    /** Unmounts, as {@code quit} does, for a parent that is gone without one. */
    void unmount() throws IOException {
        server.unmount();
    }
}
