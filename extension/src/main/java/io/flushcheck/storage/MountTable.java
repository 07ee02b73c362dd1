package io.flushcheck.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The mounts a process sees, and which one holds a path. */
public final class MountTable {

    private final List<MountInfo> mounts;

    public MountTable(List<MountInfo> mounts) {
        this.mounts = List.copyOf(mounts);
    }

    /** Reads {@code /proc/self/mountinfo}. */
    public static MountTable live() {
        try {
            return new MountTable(MountInfo.parseAll(SysFiles.read(Path.of("/proc/self/mountinfo"))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/mountinfo", e);
        }
    }

    public List<MountInfo> mounts() {
        return mounts;
    }

    /**
     * The mount holding an absolute, already resolved path: the longest mount point that is a
     * prefix of it, and among equal ones the last (a later mount on the same point hides earlier).
     */
    public MountInfo mountOf(String resolvedPath) {
        MountInfo best = null;
        for (MountInfo m : mounts) {
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

    static boolean isUnder(String path, String mountPoint) {
        if (mountPoint.equals("/")) {
            return path.startsWith("/");
        }
        return path.equals(mountPoint) || path.startsWith(mountPoint + "/");
    }
}
