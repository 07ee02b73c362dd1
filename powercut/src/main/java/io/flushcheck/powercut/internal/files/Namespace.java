package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The namespace of a {@link FileTree}: its nodes by number, the names each directory gives them, the operations on
 * names (create, link, remove, rename), each a {@link NameChange} of its directory that the tree's {@link SyncRules}
 * make durable, and the attributes that {@code chmod}, {@code chown} and {@code utimes} set; and where a node is, said
 * as a path.
 */
final class Namespace {

    private final FileTree tree;
    private final FileStore store;
    private final FileTree.Versions versions;
    private final Map<Long, TreeNode> nodes = new HashMap<>();
    private long nextId = FileTree.ROOT;
    /** Name changes made so far, numbered in the order made: the one log under the journaled rules. */
    private long nameSeq;
    /** Renames and links made so far: a path cached before one may be stale. */
    private long renames;

    Namespace(FileTree tree, FileStore store, FileTree.Versions versions) {
        this.tree = tree;
        this.store = store;
        this.versions = versions;
    }

    TreeNode newNode(boolean dir, int mode, int uid, int gid) {
        TreeNode n = new TreeNode(nextId++, dir, mode & 07777, uid, gid, System.currentTimeMillis() / 1000, store,
                versions);
        nodes.put(n.id, n);
        return n;
    }

    /** Every node, in no order. */
    Collection<TreeNode> all() {
        return nodes.values();
    }

    /** The number the next node made gets: every node's is below it. */
    long nextId() {
        return nextId;
    }

    /** Name changes made so far. */
    long nameSeq() {
        return nameSeq;
    }

    /** The node {@code id}, or null. */
    TreeNode nodeAt(long id) {
        return nodes.get(id);
    }

    /** The file (no directory) whose node id is {@code unit}, as a fault names it; refused otherwise. */
    TreeNode faultedFile(long unit) {
        TreeNode n = nodes.get(unit);
        if (n == null || n.dir) {
            throw new IllegalArgumentException("no file has node " + unit);
        }
        return n;
    }

    /** The node {@code id}; ENOENT when there is none. */
    TreeNode node(long id) throws FileTree.Errno {
        TreeNode n = nodes.get(id);
        if (n == null) {
            throw new FileTree.Errno(FileTree.Errno.ENOENT);
        }
        return n;
    }

    private TreeNode dir(long id) throws FileTree.Errno {
        TreeNode d = node(id);
        if (!d.dir) {
            throw new FileTree.Errno(FileTree.Errno.ENOTDIR);
        }
        return d;
    }

    /** The file {@code id}; EISDIR for a directory. */
    TreeNode file(long id) throws FileTree.Errno {
        TreeNode n = node(id);
        if (n.dir) {
            throw new FileTree.Errno(FileTree.Errno.EISDIR);
        }
        return n;
    }

    /** The regular file named {@code path} from the root ('/' between names, no "." or ".."), or null. */
    TreeNode fileAt(String path) {
        TreeNode at = nodes.get(FileTree.ROOT);
        for (String name : path.split("/")) {
            Long id = at == null || !at.dir || name.equals(".") || name.equals("..") ? null : at.entries.get(name);
            at = id == null ? null : nodes.get(id);
        }
        return at == null || at.dir ? null : at;
    }

    /** The node {@code name} names in directory {@code parent}. */
    TreeNode lookup(long parent, String name) throws FileTree.Errno {
        TreeNode d = dir(parent);
        if (name.equals(".")) {
            return d;
        }
        if (name.equals("..")) {
            return node(d.id == FileTree.ROOT ? FileTree.ROOT : d.parent);
        }
        Long id = d.entries.get(name);
        if (id == null) {
            throw new FileTree.Errno(FileTree.Errno.ENOENT);
        }
        return node(id);
    }

    /** The names in directory {@code id}, sorted, with their nodes. */
    List<Map.Entry<String, TreeNode>> list(long id) throws FileTree.Errno {
        TreeNode d = dir(id);
        List<Map.Entry<String, TreeNode>> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : d.entries.entrySet()) {
            out.add(Map.entry(e.getKey(), nodes.get(e.getValue())));
        }
        return out;
    }

    /** Creates a file or directory {@code name} in {@code parent}: EEXIST when the name is taken. */
    TreeNode create(long parent, String name, boolean dir, int mode, int uid, int gid) throws FileTree.Errno {
        TreeNode d = namingDir(parent);
        checkName(name);
        if (d.entries.containsKey(name)) {
            throw new FileTree.Errno(FileTree.Errno.EEXIST);
        }
        TreeNode n = newNode(dir, mode, uid, gid);
        n.parent = d.id;
        n.lastName = name;
        n.lastDir = d.id;
        n.links = dir ? 2 : 1;
        if (dir) {
            d.links++;
        }
        setName(d, name, n.id, (dir ? "mkdir " : "create ") + relPath(d, name));
        TreeLog recording = tree.recorder().log();
        if (recording != null) {
            recording.create(d.id, name, dir, n.mode, n.id);
        }
        return n;
    }

    /** A new name {@code name} in {@code parent} for the file {@code id}. */
    TreeNode link(long id, long parent, String name) throws FileTree.Errno {
        TreeNode n = node(id);
        if (n.dir) {
            throw new FileTree.Errno(1); // EPERM: no hard links to directories
        }
        TreeNode d = namingDir(parent);
        checkName(name);
        if (d.entries.containsKey(name)) {
            throw new FileTree.Errno(FileTree.Errno.EEXIST);
        }
        n.links++;
        tree.data().relinked(n, n.links - 1);
        n.ctime = FileTree.now();
        String op = "link " + filePath(n) + " -> " + relPath(d, name);
        renames++;
        n.lastName = name;
        n.lastDir = d.id;
        setName(d, name, n.id, op);
        TreeLog recording = tree.recorder().log();
        if (recording != null) {
            recording.link(n.id, d.id, name);
        }
        return n;
    }

    /** Removes the name {@code name} from {@code parent}: a file's ({@code dir} false) or an empty directory's. */
    void remove(long parent, String name, boolean dir) throws FileTree.Errno {
        TreeNode d = writableDir(parent);
        Long id = d.entries.get(name);
        if (id == null) {
            throw new FileTree.Errno(FileTree.Errno.ENOENT);
        }
        TreeNode n = nodes.get(id);
        if (dir && !n.dir) {
            throw new FileTree.Errno(FileTree.Errno.ENOTDIR);
        }
        if (!dir && n.dir) {
            throw new FileTree.Errno(FileTree.Errno.EISDIR);
        }
        if (dir && !n.entries.isEmpty()) {
            throw new FileTree.Errno(FileTree.Errno.ENOTEMPTY);
        }
        n.links -= dir ? 2 : 1;
        tree.data().relinked(n, n.links + 1);
        if (dir) {
            d.links--;
        }
        n.ctime = FileTree.now();
        setName(d, name, 0, (dir ? "rmdir " : "unlink ") + relPath(d, name));
        TreeLog recording = tree.recorder().log();
        if (recording != null) {
            recording.remove(d.id, name, dir);
        }
    }

    /**
     * Renames {@code name} in {@code parent} to {@code newName} in {@code newParent}, replacing a file there,
     * or an empty directory; with {@code noReplace}, EEXIST when the new name is taken.
     */
    void rename(long parent, String name, long newParent, String newName, boolean noReplace) throws FileTree.Errno {
        TreeNode from = writableDir(parent);
        TreeNode to = namingDir(newParent);
        checkName(newName);
        Long id = from.entries.get(name);
        if (id == null) {
            throw new FileTree.Errno(FileTree.Errno.ENOENT);
        }
        TreeNode n = nodes.get(id);
        Long old = to.entries.get(newName);
        if (old != null && old.equals(id)) {
            return;
        }
        if (old != null && !n.dir && !nodes.get(old).dir) {
            // ext4 starts writing a file renamed over another at the rename (auto_da_alloc): its next commit keeps it.
            tree.rules().startedEarly(n, "at its rename over " + newName);
        }
        if (old != null) {
            if (noReplace) {
                throw new FileTree.Errno(FileTree.Errno.EEXIST);
            }
            replace(nodes.get(old), n, to);
        }
        if (n.dir) {
            move(n, from, to);
        }
        String op = from == to
                ? "rename " + name + " -> " + newName + (from.id == FileTree.ROOT ? "" : " in " + relPath(from, null))
                : "rename " + relPath(from, name) + " -> " + relPath(to, newName);
        setName(from, name, 0, op);
        setName(to, newName, n.id, op);
        renames++;
        n.lastName = newName;
        n.lastDir = to.id;
        n.ctime = FileTree.now();
        TreeLog recording = tree.recorder().log();
        if (recording != null) {
            recording.rename(from.id, name, to.id, newName);
        }
    }

    /**
     * Node {@code replaced} of directory {@code to} loses its name there to a rename of {@code n}: a file to a file, or
     * an empty directory to a directory.
     */
    private void replace(TreeNode replaced, TreeNode n, TreeNode to) throws FileTree.Errno {
        if (replaced.dir != n.dir) {
            throw new FileTree.Errno(replaced.dir ? FileTree.Errno.EISDIR : FileTree.Errno.ENOTDIR);
        }
        if (replaced.dir && !replaced.entries.isEmpty()) {
            throw new FileTree.Errno(FileTree.Errno.ENOTEMPTY);
        }
        replaced.links -= replaced.dir ? 2 : 1;
        tree.data().relinked(replaced, replaced.links + 1);
        if (replaced.dir) {
            to.links--;
        }
    }

    /** Directory {@code n} moves from directory {@code from} into {@code to}: EINVAL into itself. */
    private void move(TreeNode n, TreeNode from, TreeNode to) throws FileTree.Errno {
        for (long up = to.id; up != FileTree.ROOT; up = nodes.get(up).parent) {
            if (up == n.id) {
                throw new FileTree.Errno(FileTree.Errno.EINVAL); // into itself
            }
        }
        from.links--;
        to.links++;
        n.parent = to.id;
    }

    private void setName(TreeNode d, String name, long id, String op) {
        NameChange c = new NameChange(name, id, nameSeq++, op, tree.nextOrder());
        tree.digests().nameSet(d, name, id);
        c.applyTo(d.entries);
        d.nameChanges.add(c);
        tree.rules().namesChanged(d);
        d.mtime = FileTree.now();
        d.ctime = d.mtime;
    }

    private TreeNode writableDir(long id) throws FileTree.Errno {
        TreeNode d = dir(id);
        if (tree.power().frozen()) {
            throw new FileTree.Errno(FileTree.Errno.EIO);
        }
        return d;
    }

    /**
     * A directory a new name goes in: ENOENT for one removed, as the kernel refuses a name in a directory removed
     * while a program held it, so that a tree (and a recording played again) never holds names no path reaches.
     */
    private TreeNode namingDir(long id) throws FileTree.Errno {
        TreeNode d = writableDir(id);
        if (d.id != FileTree.ROOT && d.links == 0) {
            throw new FileTree.Errno(FileTree.Errno.ENOENT);
        }
        return d;
    }

    private static void checkName(String name) throws FileTree.Errno {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            throw new FileTree.Errno(FileTree.Errno.EINVAL);
        }
    }

    /** Sets the permission bits, owner or times that {@code chmod}, {@code chown} and {@code utimes} change. */
    void setAttributes(long id, Integer mode, Integer uid, Integer gid, Long mtime) throws FileTree.Errno {
        TreeNode n = node(id);
        if (mode != null) {
            n.mode = mode & 07777;
            tree.rules().modeChanged(n);
            TreeLog recording = tree.recorder().log();
            if (recording != null) {
                recording.mode(id, n.mode);
            }
        }
        if (uid != null) {
            n.uid = uid;
        }
        if (gid != null) {
            n.gid = gid;
        }
        if (mtime != null) {
            n.mtime = mtime;
        }
        n.ctime = FileTree.now();
    }

    /** Where name {@code name} of directory {@code d} is, from the root, without a leading '/'; {@code d}'s own path for a null name. */
    String relPath(TreeNode d, String name) {
        StringBuilder out = new StringBuilder(name == null ? "" : name);
        for (TreeNode at = d; at.id != FileTree.ROOT; at = nodes.get(at.lastDir)) {
            if (out.length() > 0) {
                out.insert(0, '/');
            }
            out.insert(0, at.lastName);
        }
        return out.length() == 0 ? "." : out.toString();
    }

    /** Where file {@code n} is now, by the name last given to it, cached until a rename or a link. */
    String filePath(TreeNode n) {
        if (n.pathAt != renames || n.pathCache == null) {
            n.pathCache = relPath(nodes.get(n.lastDir), n.lastName);
            n.pathAt = renames;
        }
        return n.pathCache;
    }

    /** Where directory {@code d} is now, from the root, ending in '/'; "?/" for a directory no longer named. */
    String path(TreeNode d) {
        StringBuilder out = new StringBuilder();
        for (TreeNode at = d; at.id != FileTree.ROOT; at = nodes.get(at.parent)) {
            TreeNode parent = nodes.get(at.parent);
            String name = null;
            for (Map.Entry<String, Long> e : parent.entries.entrySet()) {
                if (e.getValue() == at.id) {
                    name = e.getKey();
                }
            }
            out.insert(0, (name == null ? "?" : name) + "/");
            if (name == null) {
                break;
            }
        }
        return "/" + out;
    }
}
