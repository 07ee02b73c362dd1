package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.Libc;
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
 * file under several names one node. A symbolic link, a FIFO or a device in it is refused, as the file model serves
 * none. The directory is the disk's own, but a program (maybe of another user) may have changed it since the cut, and
 * the server may be root: so nothing is followed, and every directory and file is opened once, without following a
 * link, and then read by its descriptor, a directory's entries named through it ({@code /proc/self/fd/N/NAME}), so that
 * no name swapped meanwhile can lead the reading elsewhere.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TreeImport {

    private static final int CHUNK = 1 << 20;
    private static final String ATTRIBUTES = "unix:mode,uid,gid,dev,ino,lastModifiedTime";

    private final FileTree tree;
    /** The node each file already read has in the tree, by its device and inode: a second name of it is a link. */
    private final Map<String, Long> nodes = new HashMap<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(CHUNK);

    private TreeImport(FileTree tree) {
        this.tree = tree;
    }

    /** Reads {@code dir} into {@code tree}, empty and powered, under its root; makes all of it durable. */
    public static void into(FileTree tree, Path dir) throws IOException {
        try {
            new TreeImport(tree).directory(FileTree.ROOT, dir);
        } catch (FileTree.Errno e) {
            throw new IOException("cannot serve " + dir + " as the file model's tree: errno " + e.errno()
                    + (e.errno() == FileTree.Errno.ENOSPC ? " (ENOSPC: more than the disk's size)" : ""), e);
        }
        tree.commitAll();
    }

    /** Reads directory {@code dir} (not a link) into node {@code id}. */
    private void directory(long id, Path dir) throws IOException, FileTree.Errno {
        int fd = Libc.C.open(dir.toString(), Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("cannot open the directory " + dir + " of the survivor (not a link): "
                    + Libc.C.strerror(Libc.errno()));
        }
        try {
            Path held = Path.of("/proc/self/fd/" + fd); // the directory opened, whatever its name names by now
            List<String> names = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(held)) {
                entries.forEach(e -> names.add(e.getFileName().toString()));
            }
            names.sort(null);
            for (String name : names) {
                entry(id, held.resolve(name), dir.resolve(name), name);
            }
            Map<String, Object> a = Files.readAttributes(held, ATTRIBUTES);
            tree.setAttributes(id, (int) a.get("mode") & 07777, (int) a.get("uid"), (int) a.get("gid"), seconds(a));
        } finally {
            Libc.C.close(fd);
        }
    }

    /** Reads the entry {@code name} of directory {@code parent}, at {@code at} through its descriptor, named {@code shown}. */
    private void entry(long parent, Path at, Path shown, String name) throws IOException, FileTree.Errno {
        int mode = (int) Files.getAttribute(at, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if ((mode & 0170000) == 0040000) {
            Map<String, Object> a = Files.readAttributes(at, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
            directory(tree.create(parent, name, true, mode & 07777, (int) a.get("uid"), (int) a.get("gid")).id(), at);
            return;
        }
        if ((mode & 0170000) != 0100000) {
            throw new IOException(shown + " is neither a regular file nor a directory (mode " + Integer.toOctalString(mode)
                    + "): the file model serves no other kind");
        }
        try (RegularFile in = RegularFile.open(at)) {
            Map<String, Object> a = Files.readAttributes(in.held(), ATTRIBUTES); // the file opened, not the name
            String inode = a.get("dev") + ":" + a.get("ino");
            Long node = nodes.get(inode);
            if (node != null) {
                tree.link(node, parent, name);
                return;
            }
            long file = tree.create(parent, name, false, (int) a.get("mode") & 07777, (int) a.get("uid"),
                    (int) a.get("gid")).id();
            nodes.put(inode, file);
            for (long from = 0; ; ) {
                buffer.clear();
                int n = in.channel().read(buffer, from);
                if (n <= 0) {
                    break;
                }
                tree.write(file, from, buffer.flip());
                from += n;
            }
            tree.setAttributes(file, null, null, null, seconds(a));
        } catch (RegularFile.NotRegularException e) {
            throw new IOException(shown + " is no regular file of its own any more (" + e.getMessage()
                    + "): the file model serves no other kind", e);
        }
    }

    private static long seconds(Map<String, Object> a) {
        return ((FileTime) a.get("lastModifiedTime")).toMillis() / 1000;
    }
}
