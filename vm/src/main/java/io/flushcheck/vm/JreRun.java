package io.flushcheck.vm;

import io.flushcheck.guest.Classpath;
import io.flushcheck.guest.GuestMain;
import io.flushcheck.guest.GuestRequest;
import io.flushcheck.guest.RunOutput;
import io.flushcheck.storage.HostEdge;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@link GuestMain} in a QEMU guest: the host's own JVM and class path, seen through the host's root shared read
 * only over 9p, with {@code java.io.tmpdir} on the guest's data disk, which lies on a loop device made for the
 * run. The host writes the guest's {@code run.sh} into a run directory shared writable over 9p; the result file
 * and the JVM's output come back there. The data disk, the run directory and QEMU are gone when it returns.
 */
final class JreRun {

    /** Where the guest's JVM finds its data disk, its run directory and JNA's scratch space. */
    static final String DATA_DIR = "/run/flushcheck/data";
    static final String RUN_DIR = "/run/flushcheck/io";
    private static final String JNA_DIR = "/run/flushcheck/jna";
    /** Guest RAM: a JVM with a test class's heap, the kernel and the page cache of the shared files. */
    static final int MEMORY_MIB = 1536;
    private static final long DISK_BYTES = 512L << 20;
    private static final int CONSOLE_LINES = 40;
    private static final String RUN_DIR_PREFIX = "flushcheck-vm-run-";

    private JreRun() {
    }

    /**
     * Runs the request in a guest of {@code image} whose disk has the cache mode, with the host's statement about
     * that disk (null: none) in the JVM's {@link HostEdge#PROPERTY}.
     */
    static RunOutput run(BootImage image, Accelerator accel, CacheMode cache, GuestRequest request, HostEdge edge,
                         long timeoutMillis, Consumer<String> progress) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Path> classpath = Classpath.current();
        requireVisible(java, classpath);
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        sweepRunDirs(tmp);
        Path runDir = Files.createTempDirectory(tmp, RUN_DIR_PREFIX + ProcessHandle.current().pid() + "-");
        try (DataDisk disk = DataDisk.create(request.hostDir(), DISK_BYTES)) {
            Files.writeString(runDir.resolve("run.sh"), script(java, classpath, cache.environment(), request, edge));
            Files.setPosixFilePermissions(runDir.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
            progress.accept(cache.environment() + ": booting a guest with this JVM (" + accel.name() + ", disk "
                    + disk.file().getFileName() + " on /dev/" + disk.loop().name() + ")");
            List<String> cmd = QemuGuest.jreCommand(image, accel, cache, disk.loop(), runDir, MEMORY_MIB);
            Deque<String> console = new ArrayDeque<>();
            int exit = -1;
            String problem = null;
            try (QemuProcess qemu = QemuProcess.start(cmd, timeoutMillis)) {
                String line;
                while ((line = qemu.readLine()) != null) {
                    line = line.replace("\r", "");
                    console.addLast(line);
                    if (console.size() > CONSOLE_LINES) {
                        console.removeFirst();
                    }
                    if (line.startsWith("flushcheck-guest: exit ")) {
                        exit = Integer.parseInt(line.substring("flushcheck-guest: exit ".length()).trim());
                    } else if (line.startsWith("flushcheck-guest: error: ") && problem == null) {
                        problem = line.substring("flushcheck-guest: ".length());
                    } else if (line.startsWith("flushcheck-guest: ready ")) {
                        progress.accept(cache.environment() + ": the guest's JVM starts (" + Math.round(qemu.nanos() / 1e9)
                                + " s after QEMU)");
                    }
                }
                int qemuExit = qemu.awaitExit();
                if (exit < 0) {
                    problem = qemu.whyEnded(problem, qemuExit, "the guest's JVM ended");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the guest ran", e);
            } catch (NumberFormatException e) {
                problem = "the guest's init printed an exit code the host cannot read";
            }
            Path result = runDir.resolve("result.json");
            String json = Files.isRegularFile(result) && Files.size(result) > 0 ? Files.readString(result) : null;
            Path log = runDir.resolve("log.txt");
            StringBuilder out = new StringBuilder();
            if (Files.isRegularFile(log)) {
                out.append(Files.readString(log, StandardCharsets.UTF_8));
            }
            if (problem != null) {
                out.append("\nflushcheck: ").append(problem).append("; the guest's console:\n").append(String.join("\n", console));
            }
            return new RunOutput(json, problem != null ? -1 : exit, out.toString());
        } finally {
            BootImage.deleteTree(runDir);
        }
    }

    /**
     * Removes the run directories of JVMs that no longer run: a JVM killed while its guest ran had no chance to
     * (its QEMU, loop device and disk file go by themselves).
     */
    static void sweepRunDirs(Path tmp) {
        try (var dirs = Files.newDirectoryStream(tmp, RUN_DIR_PREFIX + "*")) {
            for (Path d : dirs) {
                String rest = d.getFileName().toString().substring(RUN_DIR_PREFIX.length());
                int dash = rest.indexOf('-');
                long pid;
                try {
                    pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (ProcessHandle.of(pid).isEmpty() && Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    BootImage.deleteTree(d);
                }
            }
        } catch (IOException e) {
            // another day: the directory cannot be listed now
        }
    }

    /** The guest mounts its own /run, /proc, /sys and /dev over the host's: what lies there cannot be seen. */
    static void requireVisible(String java, List<Path> classpath) {
        List<String> hidden = new ArrayList<>();
        for (String p : withClasspath(java, classpath)) {
            for (String covered : List.of("/run/", "/proc/", "/sys/", "/dev/")) {
                if (p.startsWith(covered)) {
                    hidden.add(p);
                }
            }
        }
        if (!hidden.isEmpty()) {
            throw new IllegalStateException("a VM guest sees the host's files through its root, but not under /run, /proc, "
                    + "/sys or /dev, where it mounts its own: " + String.join(", ", hidden));
        }
    }

    private static List<String> withClasspath(String java, List<Path> classpath) {
        List<String> all = new ArrayList<>(List.of(java));
        classpath.forEach(p -> all.add(p.toString()));
        return all;
    }

    /** The guest's run.sh: the environment of a guest run, then GuestMain with its output into the run directory. */
    static String script(String java, List<Path> classpath, String environment, GuestRequest request, HostEdge edge) {
        List<String> cp = new ArrayList<>();
        classpath.forEach(p -> cp.add(p.toString()));
        List<String> cmd = new ArrayList<>(List.of(java,
                // The guest has one emulated CPU: C1 and the serial collector start fastest there.
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                "-Djava.io.tmpdir=" + DATA_DIR, "-Djna.tmpdir=" + JNA_DIR));
        if (edge != null) {
            cmd.add("-D" + HostEdge.PROPERTY + "=" + edge.propertyValue());
        }
        cmd.addAll(List.of("-cp", String.join(":", cp), GuestMain.class.getName()));
        cmd.addAll(request.guestArgs(environment, DATA_DIR, RUN_DIR + "/result.json"));
        StringBuilder sh = new StringBuilder("#!/bin/sh\n");
        sh.append("mkdir -p ").append(JNA_DIR).append('\n');
        sh.append("cd ").append(DATA_DIR).append(" || exit 125\n");
        sh.append("export FLUSHCHECK_GUEST_ENVIRONMENT=").append(quote(environment)).append('\n');
        sh.append("export FLUSHCHECK_GUEST_DATA_DIR=").append(DATA_DIR).append('\n');
        sh.append("exec");
        for (String a : cmd) {
            sh.append(' ').append(quote(a));
        }
        sh.append(" >").append(RUN_DIR).append("/log.txt 2>&1\n");
        return sh.toString();
    }

    /** One shell word, whatever it holds. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
