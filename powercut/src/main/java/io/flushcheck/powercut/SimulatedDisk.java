package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.Commands;
import io.flushcheck.powercut.internal.DiskServerMain;
import io.flushcheck.powercut.internal.FuseDiskServer;
import io.flushcheck.powercut.internal.Leftovers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * A real filesystem on a simulated drive whose power a test can cut. The drive is one file served by a
 * FUSE server of flushcheck's own (in a child process), with a volatile write cache: a flush makes what
 * was written before it durable, and a power cut keeps only that ({@link #cutPower()}), or that and a
 * seeded random subset of the sectors written since ({@link #cutPower(long)}). A loop device on the file
 * carries the filesystem (ext4 by default), so the kernel's filesystem code runs unchanged and its
 * flushes and FUA writes reach the drive as they would reach a disk. After a cut, the surviving image is
 * mounted at a new path (ext4 replays its journal there) for the test to inspect.
 *
 * <p>Needs root, {@code /dev/fuse}, a free loop device, and the filesystem's mkfs. What it models is a
 * drive's volatile cache under a real kernel filesystem: not firmware bugs, and no torn writes within a
 * 4 KiB sector.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SimulatedDisk implements AutoCloseable {

    private static final long SERVER_TIMEOUT_SECONDS = 30;

    private final Path work;
    private final String fsType;
    private final Process server;
    private final BufferedReader replies;
    private final PrintStream commands;
    private final Deque<Runnable> undo = new ArrayDeque<>();
    private final List<Path> survivors = new ArrayList<>();
    private final List<PowerCut> cuts = new ArrayList<>();
    private Path path;
    private String loop;
    private boolean cut;
    private long armedAt = -1;

    private SimulatedDisk(Path work, String fsType, Process server) {
        this.work = work;
        this.fsType = fsType;
        this.server = server;
        this.replies = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintStream(server.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * Makes a drive of {@code sizeBytes} (a multiple of 4 KiB) under {@code work} (created; removed on
     * close), puts a fresh {@code fsType} filesystem on it (mkfs options {@code mkfsOptions}) and mounts it.
     * First it removes what disks of killed JVMs left beside {@code work} (mounts, loop devices,
     * directories), and says so on stderr.
     */
    public static SimulatedDisk create(Path work, long sizeBytes, String fsType, List<String> mkfsOptions) throws IOException {
        for (String cleaned : Leftovers.sweep(work.toAbsolutePath().getParent())) {
            System.err.println("flushcheck powercut: " + cleaned);
        }
        Files.createDirectories(work);
        Leftovers.claim(work);
        Path fuse = Files.createDirectories(work.resolve("drive"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                DiskServerMain.class.getName(), fuse.toString(), String.valueOf(sizeBytes))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        SimulatedDisk disk = new SimulatedDisk(work, fsType, server);
        try {
            disk.start(fuse, mkfsOptions);
            return disk;
        } catch (IOException | RuntimeException e) {
            disk.close();
            throw e;
        }
    }

    private void start(Path fuse, List<String> mkfsOptions) throws IOException {
        undo.push(this::stopServer);
        String ready = reply();
        if (!"ready".equals(ready)) {
            throw new IOException("the simulated drive's server did not start: " + ready);
        }
        Path image = fuse.resolve(FuseDiskServer.FILE);
        selfTest(image);
        loop = Commands.run("losetup", "--find", "--show", image.toString());
        Leftovers.record(work, "loop", loop);
        String attached = loop;
        undo.push(() -> Commands.attempt(List.of("losetup", "--detach", attached)));
        List<String> mkfs = new ArrayList<>(List.of("mkfs." + fsType));
        mkfs.addAll(mkfsOptions);
        if (fsType.startsWith("ext")) {
            mkfs.add("-q");
            mkfs.add("-F");
        }
        mkfs.add(loop);
        Commands.run(mkfs.toArray(new String[0]));
        path = Files.createDirectories(work.resolve("fs"));
        Leftovers.record(work, "mount", path.toString());
        Commands.run("mount", "-t", fsType, loop, path.toString());
        Path mounted = path;
        undo.push(() -> Commands.attempt(List.of("umount", "--lazy", mounted.toString())));
        Path lostFound = path.resolve("lost+found");
        if (Files.isDirectory(lostFound)) {
            Files.delete(lostFound);
        }
        Commands.run("sync", "-f", path.toString());
    }

    /**
     * A drive whose fsync the kernel has switched off reports every fsync as done: write, fsync, and see
     * the server count the flush before trusting it.
     */
    private void selfTest(Path image) throws IOException {
        long before = flushes();
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(4096), 0);
            ch.force(true);
        }
        if (flushes() <= before) {
            throw new IOException("the simulated drive saw no flush for an fsync of " + image + ": fsync does not reach it");
        }
    }

    /** The PID of the drive's server process. */
    long serverPid() {
        return server.pid();
    }

    /** The mounted filesystem. After a cut it is gone (the directory too), and writing there fails. */
    public Path path() {
        return path;
    }

    /** Flushes the drive has completed so far. */
    public long flushes() {
        return Long.parseLong(stats()[1]);
    }

    /** Bytes written since the last flush: what a cut now would discard. */
    public long unflushedBytes() {
        return Long.parseLong(stats()[3]);
    }

    /** Cuts the power, keeping what the last flush made durable; returns where the survivor is mounted. */
    public Path cutPower() {
        return cut("cut FLUSHED 0", null);
    }

    /** The flush at which an armed cut happens ({@link #cutAfterFlushes}), or -1 when none is armed. */
    public long armedAt() {
        return armedAt;
    }

    /** Cuts the power, keeping also a random subset of the unflushed sectors, drawn from {@code seed}. */
    public Path cutPower(long seed) {
        return cut("cut SUBSET " + seed, seed);
    }

    /**
     * Arms a cut at the {@code k}-th flush the drive completes, counted from its creation ({@link #flushes()}
     * tells how many have happened): the power goes the moment that flush completes, and the workload runs
     * on against a drive that discards everything. {@link #cutPower()} then mounts what survived. Sweeping
     * {@code k} over a workload's flushes tests every crash point of it.
     */
    public void cutAfterFlushes(long k) {
        arm("arm " + k, k);
    }

    /**
     * As {@link #cutAfterFlushes(long)}, and the program whose process group is {@code processGroup} dies
     * with the power: the drive sends the group SIGKILL at the cut, before it reports the k-th flush done.
     * A program on the disk thus never sees that flush complete, and acknowledges nothing after the cut.
     */
    public void cutAfterFlushes(long k, long processGroup) {
        if (processGroup <= 1) {
            throw new IllegalArgumentException("a process group is a PID above 1, not " + processGroup);
        }
        arm("arm " + k + " " + processGroup, k);
    }

    private void arm(String command, long k) {
        try {
            String r = ask(command);
            if (!r.equals("armed")) {
                throw new IllegalArgumentException(r.startsWith("error ") ? r.substring(6) : r);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        armedAt = k;
    }

    /** The cuts made so far, first first. */
    public List<PowerCut> cuts() {
        return List.copyOf(cuts);
    }

    private Path cut(String command, Long seed) {
        if (cut) {
            throw new IllegalStateException("the power is already cut");
        }
        try {
            String[] before = stats();
            String r = ask(command);
            if (!r.startsWith("cut ")) {
                throw new IOException("the simulated drive did not cut: " + r);
            }
            cut = true;
            cuts.add(new PowerCut(seed, Long.parseLong(before[1]), Long.parseLong(before[3]),
                    Long.parseLong(r.split(" ")[2]) * 4096));
            // The drive is frozen: unmounting may still write, and the drive discards it.
            Commands.run("umount", "--lazy", path.toString());
            Commands.run("losetup", "--detach", loop);
            // Without its mount the path would be a directory of the build: writes there must fail, not land.
            Files.deleteIfExists(path);
            Path image = work.resolve("survivor-" + survivors.size() + ".img");
            String saved = ask("save " + image);
            if (!saved.equals("saved")) {
                throw new IOException("cannot save the surviving image: " + saved);
            }
            undo.push(() -> deleteQuietly(image));
            String survivorLoop = Commands.run("losetup", "--find", "--show", image.toString());
            Leftovers.record(work, "loop", survivorLoop);
            undo.push(() -> Commands.attempt(List.of("losetup", "--detach", survivorLoop)));
            Path survivor = Files.createDirectories(work.resolve("survivor-" + survivors.size()));
            Leftovers.record(work, "mount", survivor.toString());
            Commands.run("mount", "-t", fsType, survivorLoop, survivor.toString());
            undo.push(() -> Commands.attempt(List.of("umount", "--lazy", survivor.toString())));
            survivors.add(survivor);
            return survivor;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String[] stats() {
        try {
            return ask("stats").split(" ");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private synchronized String ask(String command) throws IOException {
        commands.println(command);
        return reply();
    }

    private String reply() throws IOException {
        String line = replies.readLine();
        if (line == null) {
            throw new IOException("the simulated drive's server exited");
        }
        return line;
    }

    private void stopServer() {
        if (server.isAlive()) {
            commands.println("quit");
            commands.close();
            try {
                if (!server.waitFor(SERVER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(SERVER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Commands.attempt(List.of("umount", "--lazy", work.resolve("drive").toString()));
    }

    /** Unmounts, detaches and stops everything, last made first, and removes the work directory. */
    @Override
    public void close() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
        if (!Files.exists(work)) {
            return;
        }
        try (var s = Files.walk(work)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + work, e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // removed with the work directory, or reported there
        }
    }
}
