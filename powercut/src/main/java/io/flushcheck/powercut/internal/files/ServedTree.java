package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tree crash states are served from ({@link ServedState}) instead of written out: made in memory (its bytes in a
 * {@link FileStore} beside it) with the names, permission bits and bytes that {@link StateDirectory} would write, in
 * the same order, with the same hard links, owned by this process's user as files written here are. Each state is
 * made from the one before by what differs, as {@link StateDirectory} does a directory's: the names whose node,
 * permission bits or content differ are removed and made again, the rest left as they are; where a check changed the
 * tree (a request that may change it came while it was served), the next state is made whole in a new tree.
 */
final class ServedTree implements AutoCloseable {

    private final Path storeParent;
    private FileTree tree;
    /** What the tree holds, by path, in the order made; the id of each name's node in the tree. */
    private Map<String, TreeWriter.Written> held;
    private Map<String, Long> ids;
    private long made;
    private long madeWhole;

    /** Trees whose bytes are kept in a store made in {@code storeParent}. */
    ServedTree(Path storeParent) {
        this.storeParent = storeParent;
    }

    /**
     * The tree holding the state whose {@link FileTree#layout} is {@code layout} (of {@code from} as it is now): the
     * tree of the state before, changed, unless {@code changed} says a check changed that one.
     */
    FileTree make(FileTree from, List<TreeWriter.Written> layout, boolean changed) throws IOException {
        if (tree == null || changed) {
            drop();
            int uid = Libc.C.geteuid();
            tree = new FileTree(uid, Libc.C.getegid(), storeParent, Long.MAX_VALUE, true);
            held = new LinkedHashMap<>(layout.size() * 4 / 3 + 1);
            ids = new HashMap<>(layout.size() * 4 / 3 + 1);
            ids.put("", FileTree.ROOT);
            madeWhole++;
        }
        try {
            patch(from, layout);
        } catch (FileTree.Errno e) {
            drop();
            throw new IOException("cannot make a crash state's tree to serve: " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            drop();
            throw e;
        }
        made++;
        return tree;
    }

    /** States made, and of those, made whole. */
    long made() {
        return made;
    }

    long madeWhole() {
        return madeWhole;
    }

    /**
     * Removes the names held that {@code layout} does not keep as they are, the last made first (a directory's names
     * before it), then makes its others in order, a file's name linked to where its content is still held when it is.
     * What is held stays in the order made: the names kept where they were, the new ones after them.
     */
    private void patch(FileTree from, List<TreeWriter.Written> layout) throws IOException, FileTree.Errno {
        int uid = Libc.C.geteuid();
        int gid = Libc.C.getegid();
        Set<String> kept = new HashSet<>(Math.max(16, layout.size() * 4 / 3 + 1));
        Set<Long> toMake = new HashSet<>();
        for (TreeWriter.Written w : layout) {
            TreeWriter.Written h = held.get(w.path());
            String parent = parent(w.path());
            if ((parent.isEmpty() || kept.contains(parent)) && h != null && h.sameAs(w)) {
                kept.add(w.path());
            } else if (!w.dir()) {
                toMake.add(w.node());
            }
        }
        // Where the content of each file a name is made for is once the names not kept are gone: a name kept, else
        // the first made.
        Map<Long, String> content = new HashMap<>();
        for (int i = 0; !toMake.isEmpty() && i < layout.size(); i++) {
            TreeWriter.Written w = layout.get(i);
            if (!w.dir() && toMake.contains(w.node()) && kept.contains(w.path())) {
                content.putIfAbsent(w.node(), w.path());
            }
        }
        if (kept.size() < held.size()) {
            List<TreeWriter.Written> gone = new ArrayList<>();
            for (TreeWriter.Written h : held.values()) {
                if (!kept.contains(h.path())) {
                    gone.add(h);
                }
            }
            for (int i = gone.size() - 1; i >= 0; i--) {
                TreeWriter.Written h = gone.get(i);
                tree.remove(ids.get(parent(h.path())), name(h.path()), h.dir());
                ids.remove(h.path());
                held.remove(h.path());
            }
        }
        for (TreeWriter.Written w : layout) {
            if (kept.contains(w.path())) {
                continue;
            }
            held.put(w.path(), w);
            long parent = ids.get(parent(w.path()));
            String first = w.dir() ? null : content.get(w.node());
            if (first != null) {
                tree.link(ids.get(first), parent, name(w.path()));
                ids.put(w.path(), ids.get(first));
                continue;
            }
            // The bits written out are the nine permission bits (Files.setPosixFilePermissions).
            long id = tree.create(parent, name(w.path()), w.dir(), w.mode() & 0777, uid, gid).id();
            ids.put(w.path(), id);
            if (!w.dir()) {
                from.copyFile(w, tree, id);
                content.put(w.node(), w.path());
            }
        }
    }

    /** The directory {@code path} is in: "" for the state's own. */
    private static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private void drop() {
        if (tree != null) {
            tree.close();
            tree = null;
        }
        held = null;
        ids = null;
    }

    /** Drops the tree and its store. */
    @Override
    public void close() {
        drop();
    }
}
