package io.flushcheck.powercut.internal;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * The names under a mounted filesystem with what identifies each (inode, type, size, modification time), as
 * the kernel holds them: the filesystem a power cut interrupted, looked at before it is unmounted, and the
 * survivor mounted from what the drive kept. Both come from one image, so an inode number names the same
 * file in each. Nothing is read but the directories: looking changes no file's data.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TreeView {

    /** One name: {@code directory} or not, its inode, its size and modification time. */
    public record Entry(boolean directory, long inode, long size, FileTime modified) {
    }

    /** Names past this many are not looked at: the view says so ({@link #complete()}). */
    static final int MOST = 100_000;

    private final Path root;
    private final Map<String, Entry> entries;
    private final boolean complete;

    private TreeView(Path root, Map<String, Entry> entries, boolean complete) {
        this.root = root;
        this.entries = entries;
        this.complete = complete;
    }

    /**
     * The names under {@code root}, relative to it, {@code /}-separated; the filesystem's own {@code lost+found}
     * left out. A name that cannot be looked at (gone meanwhile, unreadable) is left out too.
     */
    public static TreeView of(Path root) throws IOException {
        Map<String, Entry> entries = new TreeMap<>();
        boolean[] complete = {true};
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (dir.equals(root)) {
                    return FileVisitResult.CONTINUE;
                }
                if (dir.getParent().equals(root) && dir.getFileName().toString().equals("lost+found")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return add(dir, attrs) ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                return add(file, attrs) ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }

            private boolean add(Path p, BasicFileAttributes attrs) {
                if (entries.size() == MOST) {
                    complete[0] = false;
                    return false;
                }
                long inode;
                try {
                    inode = ((Number) Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
                } catch (IOException | RuntimeException e) {
                    return true;
                }
                entries.put(name(p), new Entry(attrs.isDirectory(), inode, attrs.size(), attrs.lastModifiedTime()));
                return true;
            }

            private String name(Path p) {
                return root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
            }
        });
        return new TreeView(root, entries, complete[0]);
    }

    public Path root() {
        return root;
    }

    /** Name to entry, in name order. */
    public Map<String, Entry> entries() {
        return entries;
    }

    /** False when the tree had more than {@value #MOST} names and the rest were not looked at. */
    public boolean complete() {
        return complete;
    }
}
