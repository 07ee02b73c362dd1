package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A directory of plain files, as a cut of the file model writes its survivor, read into an empty {@link FileTree}, all
 * of it durable: its directories and regular files with their permission bits, owners, modification times and bytes, a
 * file under several names one node. Nothing is followed: a symbolic link, a FIFO or a device in it is refused, as the
 * file model serves none. The directory is the disk's own, but a program may have changed it since the cut.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TreeImport {

    private static final int CHUNK = 1 << 20;

    private final FileTree tree;
    /** The node each file already read has in the tree, by its inode: a second name of it is a link. */
    private final Map<Object, Long> nodes = new HashMap<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(CHUNK);

    private TreeImport(FileTree tree) {
        this.tree = tree;
    }

    /** Reads {@code dir} into {@code tree}, empty and powered, under its root; makes all of it durable. */
    public static void into(FileTree tree, Path dir) throws IOException {
        TreeImport in = new TreeImport(tree);
        try {
            in.directory(FileTree.ROOT, dir, attributes(dir));
        } catch (FileTree.Errno e) {
            throw new IOException("cannot serve " + dir + " as the file model's tree: errno " + e.errno()
                    + (e.errno() == FileTree.Errno.ENOSPC ? " (ENOSPC: more than the disk's size)" : ""), e);
        }
        tree.commitAll();
    }

    private void directory(long id, Path dir, Map<String, Object> attributes) throws IOException, FileTree.Errno {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> names = Files.newDirectoryStream(dir)) {
            names.forEach(entries::add);
        }
        entries.sort(null);
        for (Path entry : entries) {
            Map<String, Object> a = attributes(entry);
            String name = entry.getFileName().toString();
            int mode = (int) a.get("mode");
            int uid = (int) a.get("uid");
            int gid = (int) a.get("gid");
            if ((mode & 0170000) == 0040000) {
                directory(tree.create(id, name, true, mode & 07777, uid, gid).id(), entry, a);
            } else if ((mode & 0170000) == 0100000) {
                Object inode = a.get("dev") + ":" + a.get("ino");
                Long node = nodes.get(inode);
                if (node != null) {
                    tree.link(node, id, name);
                } else {
                    long file = tree.create(id, name, false, mode & 07777, uid, gid).id();
                    nodes.put(inode, file);
                    bytes(file, entry);
                    tree.setAttributes(file, null, null, null, seconds(a));
                }
            } else {
                throw new IOException(entry + " is neither a regular file nor a directory (mode "
                        + Integer.toOctalString(mode) + "): the file model serves no other kind");
            }
        }
        tree.setAttributes(id, (int) attributes.get("mode") & 07777, (int) attributes.get("uid"),
                (int) attributes.get("gid"), seconds(attributes));
    }

    private void bytes(long id, Path file) throws IOException, FileTree.Errno {
        try (RegularFile in = RegularFile.open(file)) {
            for (long at = 0; ; ) {
                buffer.clear();
                int n = in.channel().read(buffer, at);
                if (n <= 0) {
                    return;
                }
                tree.write(id, at, buffer.flip());
                at += n;
            }
        }
    }

    private static Map<String, Object> attributes(Path p) throws IOException {
        return Files.readAttributes(p, "unix:mode,uid,gid,dev,ino,lastModifiedTime", LinkOption.NOFOLLOW_LINKS);
    }

    private static long seconds(Map<String, Object> a) {
        return ((FileTime) a.get("lastModifiedTime")).toMillis() / 1000;
    }
}
