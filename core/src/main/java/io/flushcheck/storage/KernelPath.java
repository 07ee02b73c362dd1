package io.flushcheck.storage;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The directory the kernel reaches by a path, where that is not what {@code realpath} says. A path through
 * {@code /proc/PID/root} or {@code /proc/PID/cwd} enters PID's mount namespace and root: the kernel walks on
 * there, but {@code realpath} (and so {@link File#getCanonicalPath()}) reads those links as text ({@code /}) and
 * names a directory of this process's namespace instead. Such a path is kept as {@code /proc/PID/root/INNER},
 * which the kernel resolves there again for every file the probe makes, and whose mount is looked up in
 * {@code /proc/PID/mountinfo} ({@link #mountTable}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class KernelPath {

    /** As the kernel: at most 40 symbolic links in one walk. */
    private static final int MAX_LINKS = 40;

    private KernelPath() {
    }

    /**
     * The path of an existing file as the kernel resolves it: where the walk ends in another process's root or
     * working directory, {@code /proc/PID/root/INNER}, else the path it ends at in this root. Only a path that
     * {@code realpath} changes is walked again here: one without symbolic links costs nothing more.
     */
    public static String resolve(File file) throws IOException {
        String canonical = file.getCanonicalPath();
        String absolute = file.getAbsolutePath();
        if (canonical.equals(absolute)) {
            return canonical;
        }
        // The walk, wherever it ends: where it left another namespace through an absolute symbolic link, it is in
        // this root again, while realpath, which read /proc/PID/root as "/", names a directory of ours by PID's path.
        return walk(absolute);
    }

    /** PID where {@code path} is {@code /proc/PID/root} or below it, else -1. */
    public static long namespacePid(String path) {
        if (!path.startsWith("/proc/")) {
            return -1;
        }
        int end = path.indexOf('/', 6);
        if (end < 0 || !(path.startsWith("/root", end) && (path.length() == end + 5 || path.charAt(end + 5) == '/'))) {
            return -1;
        }
        long pid = 0;
        for (int i = 6; i < end; i++) {
            char c = path.charAt(i);
            if (c < '0' || c > '9' || pid > Integer.MAX_VALUE) {
                return -1;
            }
            pid = pid * 10 + (c - '0');
        }
        return end > 6 ? pid : -1;
    }

    /** The path inside PID's root: {@code /x} for {@code /proc/PID/root/x}, {@code /} for {@code /proc/PID/root}. */
    public static String inner(String path) {
        int end = path.indexOf('/', 6) + 5;
        return end >= path.length() ? "/" : path.substring(end);
    }

    /** The mounts the kernel uses to serve {@code path}: PID's for a path in PID's root, else this process's. */
    public static MountTable mountTable(String path) throws IOException {
        long pid = namespacePid(path);
        return pid > 0 ? MountTable.of(SysFiles.read(Path.of("/proc", String.valueOf(pid), "mountinfo")))
                : MountTable.live();
    }

    /**
     * Walks an absolute path component by component as the kernel does: a symbolic link's target replaces it
     * (an absolute one from this process's root, wherever the walk was), {@code ..} goes up from the directory
     * reached, and {@code /proc/PID/root} and {@code /proc/PID/cwd} of another process in another mount namespace
     * or root lead into it.
     */
    static String walk(String absolute) throws IOException {
        Deque<String> todo = new ArrayDeque<>(components(absolute));
        List<String> at = new ArrayList<>();
        long pid = -1;
        int links = 0;
        while (!todo.isEmpty()) {
            String c = todo.pollFirst();
            if (c.isEmpty() || c.equals(".")) {
                continue;
            }
            if (c.equals("..")) {
                if (!at.isEmpty()) {
                    at.remove(at.size() - 1);
                }
                continue;
            }
            at.add(c);
            if (pid < 0 && at.size() == 3 && at.get(0).equals("proc") && (at.get(2).equals("root") || at.get(2).equals("cwd"))) {
                long p = numeric(at.get(1));
                if (p > 0 && elsewhere(p)) {
                    pid = p;
                    List<String> inside = at.get(2).equals("root") ? List.of()
                            : components(Files.readSymbolicLink(Path.of("/proc", at.get(1), "cwd")).toString());
                    at.clear();
                    at.addAll(inside);
                    continue;
                }
            }
            Path here;
            try {
                here = Path.of(prefix(pid) + "/" + String.join("/", at));
            } catch (java.nio.file.InvalidPathException e) {
                // A name this JVM's charset cannot hold (LC_ALL=C): the walk cannot go on, so the path is not resolved.
                throw new IOException(absolute + ": a name that cannot be walked here: " + e.getMessage(), e);
            }
            if (Files.isSymbolicLink(here)) {
                if (++links > MAX_LINKS) {
                    throw new IOException(absolute + ": too many levels of symbolic links");
                }
                String target = Files.readSymbolicLink(here).toString();
                at.remove(at.size() - 1);
                if (target.startsWith("/")) {
                    // The kernel resolves an absolute link from the walking process's root, not PID's.
                    at.clear();
                    pid = -1;
                }
                List<String> t = components(target);
                for (int i = t.size() - 1; i >= 0; i--) {
                    todo.addFirst(t.get(i));
                }
            }
        }
        return pid < 0 ? "/" + String.join("/", at) : prefix(pid) + (at.isEmpty() ? "" : "/" + String.join("/", at));
    }

    private static String prefix(long pid) {
        return pid < 0 ? "" : "/proc/" + pid + "/root";
    }

    /** True when PID is another process whose mount namespace or root differs from this process's. */
    private static boolean elsewhere(long pid) {
        if (pid == ProcessHandle.current().pid()) {
            return false;
        }
        try {
            Path proc = Path.of("/proc", String.valueOf(pid));
            return !Files.readSymbolicLink(proc.resolve("ns/mnt")).equals(Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")))
                    || !Files.readSymbolicLink(proc.resolve("root")).toString().equals("/");
        } catch (IOException | UnsupportedOperationException e) {
            return true; // unreadable: keep the kernel's own walk through it
        }
    }

    private static long numeric(String s) {
        if (s.isEmpty() || s.length() > 10) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static List<String> components(String path) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= path.length(); i++) {
            if (i == path.length() || path.charAt(i) == '/') {
                if (i > start) {
                    out.add(path.substring(start, i));
                }
                start = i + 1;
            }
        }
        return out;
    }
}
