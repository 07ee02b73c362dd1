package io.flushcheck.powercut.internal.filemodel;

import io.flushcheck.powercut.internal.cleanup.WorkDirectory;
import io.flushcheck.powercut.internal.disk.BytesAtRest;
import io.flushcheck.powercut.internal.disk.ModelStates;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A file model's crash state, copied beside the directory that holds it and damaged there: the state's directory,
 * which the next state is written from by what differs, never holds a damage. The copy keeps the names, bytes,
 * symbolic links, hard links (a file under two names is one file in the copy too, so that damage through one name
 * shows under the other) and permission bits; it is removed by {@link #close}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
final class DamagedCopy implements AutoCloseable {

    private final Path copy;

    private DamagedCopy(Path copy) {
        this.copy = copy;
    }

    /** A copy of the state in {@code state} at {@code copy}, which must not exist, with {@code damage} placed. */
    static DamagedCopy of(Path state, Path copy, ModelStates.Damage damage) throws IOException {
        DamagedCopy made = new DamagedCopy(copy);
        try {
            copyTree(state, copy);
            made.place(damage);
        } catch (IOException | RuntimeException e) {
            try {
                made.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return made;
    }

    /** Where the damaged state is. */
    Path path() {
        return copy;
    }

    /** The damage, in the copy's file: a regular file under the copy, reached through no symbolic link. */
    private void place(ModelStates.Damage damage) throws IOException {
        Path file = copy.resolve(damage.file()).normalize();
        if (!file.startsWith(copy) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || !file.toRealPath().equals(copy.toRealPath().resolve(copy.relativize(file)))) {
            throw new IllegalArgumentException(damage.file() + " is no regular file of the state");
        }
        if (damage.bit() >= 0) {
            BytesAtRest.flip(file, damage.offset(), damage.bit());
        } else {
            BytesAtRest.zero(file, damage.offset(), damage.length());
        }
    }

    /**
     * Copies the tree at {@code from} to {@code to}, a file once however many names it has (the others linked to the
     * copy); directories' permission bits set once their entries are in.
     */
    private static void copyTree(Path from, Path to) throws IOException {
        Deque<Path[]> modes = new ArrayDeque<>();
        Map<Object, Path> copied = new HashMap<>(); // a file with several names: its identity, where it was copied
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path target = to.resolve(from.relativize(dir).toString());
                Files.createDirectory(target);
                modes.push(new Path[] {dir, target});
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path target = to.resolve(from.relativize(file).toString());
                if (attrs.isRegularFile() && attrs.fileKey() != null
                        && ((Number) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue() > 1) {
                    Path first = copied.putIfAbsent(attrs.fileKey(), target);
                    if (first != null) {
                        Files.createLink(target, first);
                        return FileVisitResult.CONTINUE;
                    }
                }
                Files.copy(file, target, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
        while (!modes.isEmpty()) {
            Path[] d = modes.pop();
            PosixFileAttributes a = Files.readAttributes(d[0], PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Files.getFileAttributeView(d[1], PosixFileAttributeView.class).setPermissions(a.permissions());
        }
    }

    /** Removes the copy, whatever its checks left there. */
    @Override
    public void close() throws IOException {
        String stayed = WorkDirectory.delete(copy, List.of());
        if (stayed != null) {
            throw new IOException("a damaged crash state " + copy + " " + stayed);
        }
    }
}
