package io.flushcheck.powercut.internal.cleanup;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Deletes a disk's work directory: without following links, without descending into a filesystem still
 * mounted below it (whose files are not the directory's to delete), and with the markers that let a later
 * run find it deleted last, so that whatever cannot go now can still be found and removed then.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WorkDirectory {

    private WorkDirectory() {
    }

    /**
     * Deletes {@code dir}, the files named {@code markersLast} (directly in it) after everything else.
     *
     * @return null when all of it is gone; otherwise what stayed and why, as a phrase
     */
    public static String delete(Path dir, List<String> markersLast) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        List<String> stayed = new ArrayList<>();
        try {
            Object device = Files.getAttribute(dir, "unix:dev", LinkOption.NOFOLLOW_LINKS);
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                    if (!d.equals(dir) && !device.equals(Files.getAttribute(d, "unix:dev", LinkOption.NOFOLLOW_LINKS))) {
                        stayed.add(d + " (still mounted)");
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                    if (!(f.getParent().equals(dir) && markersLast.contains(f.getFileName().toString()))) {
                        remove(f, stayed);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    stayed.add(f + " (" + reason(e) + ")");
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) {
                    if (!d.equals(dir)) {
                        remove(d, stayed);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            stayed.add(dir + " (" + reason(e) + ")");
        }
        if (stayed.isEmpty()) {
            for (String marker : markersLast) {
                remove(dir.resolve(marker), stayed);
            }
            remove(dir, stayed);
        }
        return stayed.isEmpty() ? null : "left " + String.join(", ", stayed);
    }

    private static void remove(Path p, List<String> stayed) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            stayed.add(p + " (" + reason(e) + ")");
        }
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName()
                : e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
    }
}
