package io.flushcheck.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Simulated disks' work directories ({@code flushcheck-powercut-*}, named at random) a JVM left in a directory:
 * those whose {@code owner.pid} marker names it. A disk deletes its markers last, so a directory it could not
 * remove whole still names its JVM.
 */
public final class DiskLeftovers {

    private DiskLeftovers() {
    }

    /** The work directories in {@code dir} whose marker names {@code pid}. */
    public static List<Path> of(long pid, Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("flushcheck-powercut-"))
                    .filter(p -> names(p.resolve("owner.pid"), pid)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** This JVM's, in the temporary directory. */
    public static List<Path> ofThisJvm() {
        return of(ProcessHandle.current().pid(), Path.of(System.getProperty("java.io.tmpdir")));
    }

    private static boolean names(Path marker, long pid) {
        try {
            return Files.readString(marker).lines().anyMatch(l -> l.equals("pid " + pid));
        } catch (IOException e) {
            return false;
        }
    }
}
