package io.flushcheck.powercut.internal.explain;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
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
        boolean complete = walk(root, "", entries);
        return new TreeView(root, entries, complete);
    }

    /** A view read back from where it was kept ({@code CrashStates.save}): the names with what identified each. */
    public static TreeView of(Path root, Map<String, Entry> entries, boolean complete) {
        return new TreeView(root, new TreeMap<>(entries), complete);
    }

    /** Adds the names under {@code dir} (named {@code prefix}) and below; false when {@link #MOST} stopped it. */
    private static boolean walk(Path dir, String prefix, Map<String, Entry> entries) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> names = Files.newDirectoryStream(dir)) {
            names.forEach(children::add);
        } catch (IOException | DirectoryIteratorException unreadable) {
            if (prefix.isEmpty()) {
                throw unreadable instanceof IOException e ? e : new IOException(unreadable);
            }
            return true; // a directory that cannot be listed keeps its own entry, without names below it
        }
        for (Path child : children) {
            String name = prefix + child.getFileName();
            if (prefix.isEmpty() && name.equals("lost+found")) {
                continue;
            }
            if (entries.size() == MOST) {
                return false;
            }
            Map<String, Object> a;
            try {
                // One stat a name: the unix view has the inode, which the basic one hides in an opaque key.
                a = Files.readAttributes(child, "unix:ino,size,lastModifiedTime,isDirectory", LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | RuntimeException gone) {
                continue;
            }
            boolean directory = (Boolean) a.get("isDirectory");
            entries.put(name, new Entry(directory, ((Number) a.get("ino")).longValue(), (Long) a.get("size"),
                    (FileTime) a.get("lastModifiedTime")));
            if (directory && !walk(child, name + "/", entries)) {
                return false;
            }
        }
        return true;
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
