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

    /** A line for each process with a file open under {@code dir} or its working directory there: {@code PID PATH}. */
    public static List<String> under(Path dir) {
        String root = dir.toAbsolutePath().normalize().toString();
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
                        if (target.equals(root) || target.startsWith(root + "/")) {
                            found.add(process.getFileName() + " " + target);
                        }
                    } catch (IOException | SecurityException e) {
                        // closed meanwhile, or not this user's to read
                    }
                }
            }
        } catch (IOException e) {
            return found;
        }
        return found;
    }
}
