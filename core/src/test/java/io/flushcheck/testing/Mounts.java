package io.flushcheck.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Real mounts for tests (root only): tmpfs and ext4 loop images. Every mount and loop device made
 * through one instance is undone by {@link #close()}, last first, even when a test failed halfway.
 */
public final class Mounts implements AutoCloseable {

    private final Deque<Runnable> undo = new ArrayDeque<>();
    private final Map<String, Path> loops = new LinkedHashMap<>();

    /** Skips (or fails in CI) unless root, mount, losetup and mkfs.ext4 are available. */
    public static void requireMountTools() {
        Requirements.requireRoot();
        Requirements.requireCommand("mount", "mount");
        Requirements.requireCommand("losetup", "mount");
        Requirements.requireCommand("mkfs.ext4", "e2fsprogs");
    }

    /** Mounts a fresh tmpfs on {@code dir} (created if needed). */
    public Path tmpfs(Path dir, String options) throws IOException {
        Files.createDirectories(dir);
        Shell.run("mount", "-t", "tmpfs", "-o", options, "flushcheck-test", dir.toString());
        undo.push(() -> Shell.exec(List.of("umount", "-l", dir.toString())));
        return dir;
    }

    /**
     * Creates an ext4 image of {@code sizeMiB} at {@code image}, attaches it to a free loop device
     * and mounts it on {@code dir} with {@code options} ("defaults", "nobarrier", "ro", ...).
     *
     * @return the loop device, e.g. {@code /dev/loop3}
     */
    public String loopExt4(Path image, int sizeMiB, Path dir, String options) throws IOException {
        String loop = loopFile(image, sizeMiB);
        Shell.run("mkfs.ext4", "-q", "-F", loop);
        Files.createDirectories(dir);
        Shell.run("mount", "-t", "ext4", "-o", options, loop, dir.toString());
        undo.push(() -> unmount(dir));
        return loop;
    }

    /**
     * Attaches a fresh sparse file of {@code sizeMiB} at {@code image} to a free loop device; on close the
     * device is detached and the file removed.
     *
     * @return the loop device, e.g. {@code /dev/loop3}
     */
    public String loopFile(Path image, int sizeMiB) throws IOException {
        Files.createDirectories(image.getParent());
        Files.deleteIfExists(image);
        Shell.run("truncate", "-s", sizeMiB + "M", image.toString());
        undo.push(() -> {
            try {
                Files.deleteIfExists(image);
            } catch (IOException e) {
                // best effort
            }
        });
        String loop = Shell.run("losetup", "-f", "--show", image.toString()).trim();
        undo.push(() -> Shell.exec(List.of("losetup", "-d", loop)));
        loops.put(loop, image.toAbsolutePath());
        return loop;
    }

    /** Runs {@code mkfs} (the whole command) and mounts {@code device} on {@code dir} as {@code type} with {@code options}. */
    public Path mkfsAndMount(List<String> mkfs, String type, String device, Path dir, String options) throws IOException {
        Shell.run(mkfs.toArray(new String[0]));
        Files.createDirectories(dir);
        Shell.run("mount", "-t", type, "-o", options, device, dir.toString());
        undo.push(() -> unmount(dir));
        return dir;
    }

    /** Mounts an overlay of {@code lower} and {@code upper} (with {@code work} beside it) on {@code dir}. */
    public Path overlay(Path lower, Path upper, Path work, Path dir) throws IOException {
        for (Path p : List.of(lower, upper, work, dir)) {
            Files.createDirectories(p);
        }
        Shell.run("mount", "-t", "overlay", "-o", "lowerdir=" + lower + ",upperdir=" + upper + ",workdir=" + work,
                "flushcheck-test", dir.toString());
        undo.push(() -> Shell.exec(List.of("umount", "-l", dir.toString())));
        return dir;
    }

    /**
     * A process in a mount namespace of its own (util-linux's {@code unshare -m}, private propagation) in which a
     * tmpfs is mounted on {@code dir}, which stays as it is in this namespace; it sleeps until close kills it.
     *
     * @return its PID: {@code /proc/PID/root} + {@code dir} is the tmpfs
     */
    public long namespaceWithTmpfs(Path dir) throws IOException {
        Files.createDirectories(dir);
        return namespace("mount -t tmpfs flushcheck-ns \"$0\"", dir);
    }

    /**
     * A process in a mount namespace of its own that runs {@code script} (sh, with {@code $0} = {@code dir}), which
     * mounts at least a tmpfs named {@code flushcheck-ns} on {@code dir}, then sleeps until close kills it.
     *
     * @return its PID
     */
    public long namespace(String script, Path dir) throws IOException {
        Process p = new ProcessBuilder("unshare", "-m", "--propagation", "private", "sh", "-c",
                script + " && exec sleep 3600", dir.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        undo.push(() -> {
            p.destroyForcibly();
            try {
                p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Path mountinfo = Path.of("/proc", String.valueOf(p.pid()), "mountinfo");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try {
                if (Files.readString(mountinfo).contains(" " + dir + " ") && Files.readString(mountinfo).contains("flushcheck-ns")) {
                    return p.pid();
                }
            } catch (IOException e) {
                // not there yet, or gone: the checks below say which
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("unshare -m did not mount a tmpfs on " + dir
                        + (p.isAlive() ? " within 10 s" : ": it exited with " + p.exitValue()));
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    /** Bind-mounts {@code source} on {@code dir} (both created if needed). */
    public Path bind(Path source, Path dir) throws IOException {
        Files.createDirectories(source);
        Files.createDirectories(dir);
        Shell.run("mount", "--bind", source.toString(), dir.toString());
        undo.push(() -> Shell.exec(List.of("umount", "-l", dir.toString())));
        return dir;
    }

    /**
     * Mounts a FUSE filesystem on {@code dir} by running {@code command} (a daemon that stays in the
     * foreground, mounting {@code dir}), waits for the mount to appear, and on close unmounts it and
     * stops the daemon.
     */
    public Path fuse(List<String> command, Path dir) throws IOException {
        Files.createDirectories(dir);
        Process daemon = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        undo.push(() -> {
            daemon.destroy();
            try {
                if (!daemon.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                    daemon.destroyForcibly().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        undo.push(() -> Shell.exec(List.of("umount", "-l", dir.toString())));
        String point = " " + dir.toRealPath() + " ";
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!Files.readString(Path.of("/proc/self/mountinfo")).contains(point)) {
            if (!daemon.isAlive() || System.nanoTime() > deadline) {
                throw new IOException("FUSE daemon " + command + " did not mount " + dir
                        + (daemon.isAlive() ? " within 10 s" : ": it exited with " + daemon.exitValue()));
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        return dir;
    }

    /** Remounts an existing mount with new options ("remount,ro"). */
    public void remount(Path dir, String options) {
        Shell.run("mount", "-o", "remount," + options, dir.toString());
    }

    /**
     * Unmounts {@code dir}. A file system that holds the backing file of a loop device detached a moment ago
     * stays busy until the kernel has released that device, which it does after {@code losetup -d} returns:
     * the unmount is tried again for a while, then made lazy, so that the file system (and the loop device
     * under it, detached on its last close) goes when its last user does instead of staying mounted.
     */
    private static void unmount(Path dir) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (Shell.exec(List.of("umount", dir.toString())).exit() != 0 && mounted(dir)) {
            if (System.nanoTime() > deadline) {
                Shell.exec(List.of("umount", "-l", dir.toString()));
                return;
            }
            pause();
        }
    }

    private static boolean mounted(Path dir) {
        try {
            return Files.readString(Path.of("/proc/self/mountinfo")).contains(" " + dir + " ");
        } catch (IOException e) {
            return true;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Undoes every mount and loop device, last first, and fails if a loop device this instance attached is still
     * attached 10 seconds later: a test that leaves one behind takes it from every later test on the machine.
     */
    @Override
    public void close() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<String> attached = stillAttached();
        while (!attached.isEmpty() && System.nanoTime() < deadline) {
            pause();
            attached = stillAttached();
        }
        if (!attached.isEmpty()) {
            throw new IllegalStateException("loop devices still attached after the mounts on them were undone: "
                    + attached);
        }
    }

    private List<String> stillAttached() {
        List<String> attached = new ArrayList<>();
        loops.forEach((loop, image) -> {
            Path backing = Path.of("/sys/block", Path.of(loop).getFileName().toString(), "loop", "backing_file");
            try {
                // another test may have taken the same device since: only this instance's image counts
                if (Files.readString(backing).strip().startsWith(image.toString())) {
                    attached.add(loop + " (" + image + ")");
                }
            } catch (IOException e) {
                // detached: the file is gone with the device's backing
            }
        });
        return attached;
    }
}
