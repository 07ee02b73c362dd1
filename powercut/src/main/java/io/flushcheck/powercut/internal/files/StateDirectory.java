package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.cleanup.WorkDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One directory that holds a tree's crash states in turn ({@link TreeStates#visit}), each written from the one
 * before by what differs: the names whose node, permission bits or content differ are removed and written again,
 * the rest left as they are. A state of a large tree that differs from the one before in a few files costs those
 * files, not the tree. What the directory was handed out with is known by each name's inode and change time, read
 * after writing it; should anything have changed it since (a check that wrote there, or moved a name), some name's
 * inode or change time differs (a directory's changes when a name in it is made, removed or renamed), and the next
 * state is written whole into an emptied directory. Before the directory is handed out, the clock the filesystem
 * takes change times from is let pass the last one written (it may tick once every few milliseconds), so that a
 * change made after shows as one; where it does not pass soon (a filesystem that keeps whole seconds), the next
 * state is written whole. A state of fewer than {@link #PATCHED_FROM} names is written whole each time: that costs
 * less than the wait.
 */
final class StateDirectory implements AutoCloseable {

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;
    /** How long the clock is waited for before the next state is written whole instead. */
    private static final long CLOCK_NANOS = 200_000_000L;
    /**
     * The fewest names a state has for the next to be written from it: a smaller one is written whole each time
     * (a few milliseconds), with no wait for the clock (which may take as long) and no change times read.
     */
    static final int PATCHED_FROM = 256;

    /** A name's inode and change time as written. */
    private record Stamp(Object inode, Object device, FileTime changed) {
    }

    private final Path dir;
    private final int patchedFrom;
    /** A file beside the directory, touched to read the filesystem's clock: its change time is the time then. */
    private final Path clock;
    /** What the directory holds, by path, in the order written; null when that is not known (nothing written yet). */
    private Map<String, TreeWriter.Written> held;
    /** Each name's stamp as written, the directory's own under "", and the latest change time among them. */
    private Map<String, Stamp> stamps;
    private FileTime last;
    private long written;
    private long rewritten;

    /** {@code dir}, which need not exist: the first state is written whole, into it made then. */
    StateDirectory(Path dir) {
        this(dir, PATCHED_FROM);
    }

    /** As {@link #StateDirectory(Path)}, a state of fewer than {@code patchedFrom} names written whole each time. */
    StateDirectory(Path dir, int patchedFrom) {
        this.dir = dir;
        this.patchedFrom = patchedFrom;
        this.clock = dir.resolveSibling(dir.getFileName() + ".clock");
    }

    /** Makes the directory hold crash state {@code pick} of {@code tree} as it is now, as {@link FileTree#save(StatePick, Path)} writes it. */
    void write(FileTree tree, StatePick pick) throws IOException {
        write(tree, tree.layout(pick));
    }

    /** As {@link #write(FileTree, StatePick)}, the state's {@link FileTree#layout} worked out already. */
    void write(FileTree tree, List<TreeWriter.Written> target) throws IOException {
        Map<String, TreeWriter.Written> byPath = new LinkedHashMap<>();
        for (TreeWriter.Written w : target) {
            byPath.put(w.path(), w);
        }
        // The names whose stamps are read again: those a patch changed; every one after a whole write.
        Set<String> again;
        if (held != null && patchable(byPath) && unchanged()) {
            again = patch(tree, byPath);
        } else {
            rewrite(tree, target);
            again = null;
        }
        if (target.size() < patchedFrom) {
            held = null;
            return;
        }
        held = byPath;
        if (again == null) {
            stamps = new HashMap<>();
            last = FileTime.fromMillis(Long.MIN_VALUE);
            again = new HashSet<>(byPath.keySet());
            again.add("");
        } else {
            stamps.keySet().removeIf(path -> !path.isEmpty() && !byPath.containsKey(path));
        }
        for (String path : again) {
            // A directory a name was removed from may be gone with it.
            if (path.isEmpty() || byPath.containsKey(path)) {
                FileTime t = stamp(path);
                last = t.compareTo(last) > 0 ? t : last;
            }
        }
        if (!clockPassed(last)) {
            held = null;
        }
    }

    /** States written, and of those, written whole. */
    long written() {
        return written;
    }

    long rewritten() {
        return rewritten;
    }

    /** Whether what it holds was written whole or from the state before: whether each name is as written. */
    private boolean unchanged() throws IOException {
        for (Map.Entry<String, Stamp> e : stamps.entrySet()) {
            Map<String, Object> now;
            try {
                now = Files.readAttributes(path(e.getKey()), "unix:ino,dev,ctime", NOFOLLOW);
            } catch (NoSuchFileException gone) {
                return false;
            }
            Stamp s = e.getValue();
            if (!s.inode().equals(now.get("ino")) || !s.device().equals(now.get("dev"))
                    || !s.changed().equals(now.get("ctime"))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every directory held and to be held may be written in as it is (its owner may list, enter and change
     * it): one that may not is emptied and written whole, as a check may have left it so.
     */
    private boolean patchable(Map<String, TreeWriter.Written> target) {
        for (Map<String, TreeWriter.Written> m : List.of(held, target)) {
            for (TreeWriter.Written w : m.values()) {
                if (w.dir() && (w.mode() & 0700) != 0700) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Removes the names held that the target does not keep as they are, in the order opposite to writing (a
     * directory's names before it), then writes the target's others in order, a file's names linked to where its
     * content is still held when it is, and sets their permission bits.
     *
     * @return the names whose change time this changed: those written, the directories a name was made or removed
     *     in, and every name of a file whose names were (its inode's count of links changed)
     */
    private Set<String> patch(FileTree tree, Map<String, TreeWriter.Written> target) throws IOException {
        Set<String> kept = new HashSet<>();
        // Where each node's content is once the names not kept are gone: a name kept, else the first written.
        Map<Long, String> inode = new HashMap<>();
        for (TreeWriter.Written w : target.values()) {
            TreeWriter.Written h = held.get(w.path());
            int slash = w.path().lastIndexOf('/');
            boolean parentKept = slash < 0 || kept.contains(w.path().substring(0, slash));
            if (parentKept && h != null && same(h, w)) {
                kept.add(w.path());
                if (!w.dir()) {
                    inode.putIfAbsent(w.node(), w.path());
                }
            }
        }
        Set<String> changed = new HashSet<>();
        Set<Long> relinked = new HashSet<>();
        List<TreeWriter.Written> before = List.copyOf(held.values());
        for (int i = before.size() - 1; i >= 0; i--) {
            TreeWriter.Written h = before.get(i);
            if (!kept.contains(h.path())) {
                Files.delete(path(h.path()));
                changed.add(parent(h.path()));
                if (!h.dir()) {
                    relinked.add(h.node());
                }
            }
        }
        List<TreeWriter.Written> made = new ArrayList<>();
        for (TreeWriter.Written w : target.values()) {
            if (kept.contains(w.path())) {
                continue;
            }
            // A node's content held under a kept name is the same (a name is kept with its content): a new name links
            // to it, as one written after the node's first does.
            String first = w.dir() ? null : inode.get(w.node());
            tree.writeName(w, path(w.path()), first == null ? null : path(first));
            if (!w.dir()) {
                inode.putIfAbsent(w.node(), w.path());
                relinked.add(w.node());
            }
            made.add(w);
            changed.add(w.path());
            changed.add(parent(w.path()));
        }
        for (int i = made.size() - 1; i >= 0; i--) {
            TreeWriter.setMode(made.get(i), path(made.get(i).path()));
        }
        for (TreeWriter.Written w : target.values()) {
            if (!w.dir() && relinked.contains(w.node())) {
                changed.add(w.path());
            }
        }
        written++;
        return changed;
    }

    /** The directory {@code path} is in: "" for the state's own. */
    private static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    /** Whether {@code h}, held, is {@code w}: the same kind of node, the same node, bits and content. */
    private static boolean same(TreeWriter.Written h, TreeWriter.Written w) {
        return h.dir() == w.dir() && h.node() == w.node() && h.mode() == w.mode()
                && Arrays.equals(h.content(), w.content());
    }

    /** Empties the directory (what a check left in it included) and writes {@code target} whole. */
    private void rewrite(FileTree tree, List<TreeWriter.Written> target) throws IOException {
        remove();
        Files.createDirectory(dir);
        for (TreeWriter.Written w : target) {
            tree.writeName(w, path(w.path()), w.linkOf() == null ? null : path(w.linkOf()));
        }
        for (int i = target.size() - 1; i >= 0; i--) {
            TreeWriter.setMode(target.get(i), path(target.get(i).path()));
        }
        written++;
        rewritten++;
    }

    private FileTime stamp(String path) throws IOException {
        Map<String, Object> a = Files.readAttributes(path(path), "unix:ino,dev,ctime", NOFOLLOW);
        FileTime changed = (FileTime) a.get("ctime");
        stamps.put(path, new Stamp(a.get("ino"), a.get("dev"), changed));
        return changed;
    }

    /** Whether the filesystem's clock passed {@code last} soon: a change made from now on has a later change time. */
    private boolean clockPassed(FileTime last) throws IOException {
        long until = System.nanoTime() + CLOCK_NANOS;
        if (!Files.exists(clock, NOFOLLOW)) {
            Files.createFile(clock);
        }
        while (true) {
            Files.setLastModifiedTime(clock, FileTime.fromMillis(0));
            FileTime now = (FileTime) Files.getAttribute(clock, "unix:ctime", NOFOLLOW);
            if (now.compareTo(last) > 0) {
                return true;
            }
            if (System.nanoTime() > until) {
                return false;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the filesystem's clock", e);
            }
        }
    }

    private Path path(String path) {
        return path.isEmpty() ? dir : dir.resolve(path);
    }

    private void remove() throws IOException {
        String stayed = WorkDirectory.delete(dir, List.of());
        if (stayed != null) {
            throw new IOException("a crash state's survivor " + dir + " " + stayed);
        }
    }

    /** Removes the directory, whatever it holds, and the file its clock is read from. */
    @Override
    public void close() throws IOException {
        held = null;
        try {
            remove();
        } finally {
            Files.deleteIfExists(clock);
        }
    }
}
