package io.flushcheck.powercut.internal.sys;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The processes that hold a file open under a directory, or work in it, as {@code /proc} tells of those this user may
 * look at: what keeps a plain directory from being moved away unnoticed, as a mount in use cannot be.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OpenFiles {

    private OpenFiles() {
    }

    /**
     * A line for each process with a file open or mapped under {@code dir}, or its working directory there:
     * {@code PID PATH}. The kernel names those files by their real paths, so {@code dir} is compared by its own.
     *
     * @throws IOException when {@code dir} or {@code /proc} cannot be read: nothing is known to be closed then
     */
    public static List<String> under(Path dir) throws IOException {
        String root = dir.toRealPath().toString();
        List<String> found = new ArrayList<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path process : processes) {
                List<Path> links = new ArrayList<>(List.of(process.resolve("cwd")));
                try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
                    fds.forEach(links::add);
                } catch (IOException | SecurityException e) {
                    continue; // another user's, or gone: not this user's to hold the directory
                }
                for (Path link : links) {
                    try {
                        String target = Files.readSymbolicLink(link).toString();
                        if (isUnder(target, root)) {
                            found.add(process.getFileName() + " " + target);
                        }
                    } catch (IOException | SecurityException e) {
                        // closed meanwhile, or not this user's to read
                    }
                }
                for (String mapped : mapped(process)) {
                    if (isUnder(mapped, root)) {
                        found.add(process.getFileName() + " " + mapped + " (mapped)");
                    }
                }
            }
        } catch (IOException | java.io.UncheckedIOException | SecurityException e) {
            throw new IOException("cannot tell which processes hold files under " + dir + " open: /proc cannot be"
                    + " read (" + e + ")", e);
        }
        return found;
    }

    private static boolean isUnder(String target, String root) {
        return target.equals(root) || target.startsWith(root.endsWith("/") ? root : root + "/");
    }

    /** The files {@code process} maps, as {@code /proc/PID/maps} names them; none when it is gone or not ours. */
    private static List<String> mapped(Path process) {
        List<String> files = new ArrayList<>();
        try {
            String maps = new String(Files.readAllBytes(process.resolve("maps")),
                    java.nio.charset.StandardCharsets.UTF_8);
            for (String line : maps.split("\n")) {
                // address perms offset dev inode pathname: the name is the rest, spaces and all
                String[] fields = line.trim().split("\\s+", 6);
                if (fields.length == 6 && fields[5].startsWith("/")) {
                    String name = fields[5];
                    if (name.endsWith(" (deleted)")) {
                        name = name.substring(0, name.length() - " (deleted)".length());
                    }
                    files.add(name);
                }
            }
        } catch (IOException | java.io.UncheckedIOException | SecurityException e) {
            // gone meanwhile, or another user's
        }
        return files;
    }
}
