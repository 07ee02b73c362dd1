package io.flushcheck.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The mounts a process sees, and which one holds a path. Read from the kernel's text, a table parses a
 * line fully only when it is asked for: finding the mount of a path needs each line's mount point alone,
 * and in a cold JVM parsing every line would cost a tmpfs verdict milliseconds.
 */
public final class MountTable {

    private final String[] lines;
    private volatile List<MountInfo> mounts;

    public MountTable(List<MountInfo> mounts) {
        this.mounts = List.copyOf(mounts);
        this.lines = null;
    }

    private MountTable(String mountinfo) {
        this.lines = mountinfo.split("\n");
    }

    /** A table over mountinfo text, parsed lazily. */
    static MountTable of(String mountinfo) {
        return new MountTable(mountinfo);
    }

    /** Reads {@code /proc/self/mountinfo}. */
    public static MountTable live() {
        try {
            return of(SysFiles.read(Path.of("/proc/self/mountinfo")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/mountinfo", e);
        }
    }

    /** Every mount, parsed (and validated) on first use. */
    public synchronized List<MountInfo> mounts() {
        if (mounts == null) {
            mounts = MountInfo.parseAll(String.join("\n", lines));
        }
        return mounts;
    }

    /**
     * The mount holding an absolute, already resolved path: the longest mount point that is a
     * prefix of it, and among equal ones the last (a later mount on the same point hides earlier).
     */
    public MountInfo mountOf(String resolvedPath) {
        if (lines != null && mounts == null) {
            return mountOfLines(resolvedPath);
        }
        MountInfo best = null;
        for (MountInfo m : mounts()) {
            if (isUnder(resolvedPath, m.mountPoint())
                    && (best == null || m.mountPoint().length() >= best.mountPoint().length())) {
                best = m;
            }
        }
        if (best == null) {
            throw new IllegalStateException("no mount holds " + resolvedPath);
        }
        return best;
    }

    private MountInfo mountOfLines(String resolvedPath) {
        String bestLine = null;
        int bestLength = -1;
        for (String line : lines) {
            String mountPoint = mountPointField(line);
            if (mountPoint != null && isUnder(resolvedPath, mountPoint) && mountPoint.length() >= bestLength) {
                bestLine = line;
                bestLength = mountPoint.length();
            }
        }
        if (bestLine == null) {
            throw new IllegalStateException("no mount holds " + resolvedPath);
        }
        return MountInfo.parse(bestLine);
    }

    /** The fifth field of a mountinfo line, unescaped, or null for a line too short to have one. */
    static String mountPointField(String line) {
        int start = 0;
        for (int field = 0; field < 4; field++) {
            start = line.indexOf(' ', start) + 1;
            if (start == 0) {
                return null;
            }
        }
        int end = line.indexOf(' ', start);
        return end < 0 ? null : MountInfo.unescape(line.substring(start, end));
    }

    static boolean isUnder(String path, String mountPoint) {
        if (mountPoint.equals("/")) {
            return path.startsWith("/");
        }
        return path.equals(mountPoint) || path.startsWith(mountPoint + "/");
    }
}
