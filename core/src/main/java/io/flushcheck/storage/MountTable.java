package io.flushcheck.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The mounts a process sees, and which one holds a path. Read from the kernel's text, a table parses a
 * line fully only when it is asked for: finding the mount of a path needs each line's mount point alone
 * (the cold path, docs/architecture.md).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
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
     * The mount that serves an absolute, already resolved path: the one a path walk from the root
     * reaches, as the kernel's does. A mount point that is a prefix of the path is not enough: a mount
     * on {@code /a} hides one made earlier on {@code /a/b}, which stays in the table with {@code /a/b}
     * as its mount point. So the walk follows mountinfo's parent links: from the root mount, at each
     * mount point along the path, into the child mounted there (and into any mounted on top of it).
     */
    public MountInfo mountOf(String resolvedPath) {
        if (lines != null && mounts == null) {
            Walk walk = new Walk(lines.length);
            for (String line : lines) {
                walk.addLine(line, resolvedPath);
            }
            return MountInfo.parse(lines[walk.visible(resolvedPath)]);
        }
        List<MountInfo> all = mounts();
        Walk walk = new Walk(all.size());
        for (MountInfo m : all) {
            walk.add(m.mountId(), m.parentId(), m.mountPoint(), resolvedPath);
        }
        return all.get(walk.visible(resolvedPath));
    }

    /** The class a lookup loads besides this one, for a warm-up that loads them ahead. */
    public static Class<?> walkClass() {
        return Walk.class;
    }

    /**
     * The walk over the mounts whose mount point is on the path (a prefix of it): their ids, parent
     * ids and mount points, and their index in the table. On the cold path (docs/architecture.md): plain
     * arrays and loops, no helper records (each a class to load).
     */
    private static final class Walk {
        private final int[] index;
        private final int[] id;
        private final int[] parent;
        private final String[] point;
        private int n;
        private int seen;

        Walk(int capacity) {
            index = new int[capacity];
            id = new int[capacity];
            parent = new int[capacity];
            point = new String[capacity];
        }

        void addLine(String line, String path) {
            String mountPoint = mountPointField(line);
            int first = line.indexOf(' ');
            int second = first < 0 ? -1 : line.indexOf(' ', first + 1);
            if (mountPoint == null || second < 0) {
                seen++;
                return;
            }
            try {
                add(Integer.parseInt(line, 0, first, 10), Integer.parseInt(line, first + 1, second, 10), mountPoint, path);
            } catch (NumberFormatException e) {
                seen++;
            }
        }

        void add(int mountId, int parentId, String mountPoint, String path) {
            if (isUnder(path, mountPoint)) {
                index[n] = seen;
                id[n] = mountId;
                parent[n] = parentId;
                point[n++] = mountPoint;
            }
            seen++;
        }

        /** The table index of the mount a walk of {@code path} from the root ends on. */
        int visible(String path) {
            int current = root();
            if (current < 0) {
                throw new IllegalStateException("no mount holds " + path);
            }
            // Each mount point on the way, shortest first: all are prefixes of the path, so this is the
            // order in which a walk of its components meets them.
            boolean[] done = new boolean[n];
            while (true) {
                int shortest = -1;
                for (int i = 0; i < n; i++) {
                    if (!done[i] && (shortest < 0 || point[i].length() < point[shortest].length())) {
                        shortest = i;
                    }
                }
                if (shortest < 0) {
                    return index[current];
                }
                String at = point[shortest];
                for (int i = 0; i < n; i++) {
                    if (point[i].equals(at)) {
                        done[i] = true;
                    }
                }
                // Into the mount on this point, then into each stacked on top of it (bounded: a table
                // has no cycles, but a malformed one must not hang).
                for (int depth = 0, child = childAt(id[current], at); child >= 0 && depth < n;
                        depth++, child = childAt(id[current], at)) {
                    current = child;
                }
            }
        }

        /**
         * The root mount: on "/", with no parent on "/" in the table (its parent is outside this
         * process's root, or, in a container, not shown at all). Mounts stacked on "/" are its children.
         */
        private int root() {
            int root = -1;
            for (int i = 0; i < n; i++) {
                if (point[i].equals("/") && !hasParentOnRoot(i)) {
                    root = i;
                }
            }
            return root;
        }

        private boolean hasParentOnRoot(int i) {
            for (int j = 0; j < n; j++) {
                if (j != i && id[j] == parent[i] && point[j].equals("/")) {
                    return true;
                }
            }
            return false;
        }

        /** The last mount on {@code at} whose parent is {@code parentId}, or -1. */
        private int childAt(int parentId, String at) {
            int found = -1;
            for (int i = 0; i < n; i++) {
                if (parent[i] == parentId && id[i] != parentId && point[i].equals(at)) {
                    found = i;
                }
            }
            return found;
        }
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
