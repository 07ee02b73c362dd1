package io.flushcheck.powercut.internal.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disks made one after another in one directory sweep it for what killed runs left once a minute, not at each
 * disk: the first sweep of a directory removes a killed run's work directory, one planted right after stays
 * until the next sweep that is due (or a sweep asked for at once).
 */
class LeftoversSweepDueTests {

    @Test
    void aDirectorySweptAMomentAgoIsNotSweptAgainUntilItIsDue(@TempDir Path parent) throws Exception {
        long dead = deadPid();
        Path first = killedRun(parent.resolve("first"), dead);
        assertThat(Leftovers.sweepDue(parent)).as("the first sweep of the directory in this JVM").hasSize(1);
        assertThat(first).doesNotExist();

        Path second = killedRun(parent.resolve("second"), dead);
        assertThat(Leftovers.sweepDue(parent)).as("a sweep less than a minute after the last").isEmpty();
        assertThat(Leftovers.sweepDue(parent.resolve("..").resolve(parent.getFileName())))
                .as("the same directory named another way").isEmpty();
        assertThat(second).exists();

        assertThat(Leftovers.sweep(parent)).as("a sweep asked for at once").hasSize(1);
        assertThat(second).doesNotExist();
    }

    /** A work directory as a run of this user's that was killed leaves it: its markers name a PID that has ended. */
    private static Path killedRun(Path dir, long pid) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(Leftovers.OWNER), "flushcheck work directory\npid " + pid + "\ntoken abc\npath "
                + dir.toAbsolutePath() + "\n");
        Files.writeString(dir.resolve(Leftovers.TOKEN), "abc\n");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        return dir;
    }

    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }
}
