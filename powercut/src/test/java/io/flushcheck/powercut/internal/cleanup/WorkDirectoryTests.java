package io.flushcheck.powercut.internal.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import io.flushcheck.testing.Unprivileged;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A work directory is deleted through descriptors: what it links to outside stays, a directory of another user's
 * is left alone, and a tree a workload made read-only goes all the same.
 */
class WorkDirectoryTests {

    @TempDir
    Path tmp;

    @Test
    void aLinkInTheDirectoryGoesAndWhatItNamesStays() throws IOException {
        Path victims = Files.createDirectories(tmp.resolve("victims"));
        Path victim = Files.writeString(victims.resolve("precious"), "keep");
        Path work = Files.createDirectories(tmp.resolve("work/a/b"));
        Files.createSymbolicLink(work.resolve("to-file"), victim);
        Files.createSymbolicLink(work.resolve("to-dir"), victims);
        Files.createSymbolicLink(tmp.resolve("work/a/dir-swapped"), victims);

        assertThat(WorkDirectory.delete(tmp.resolve("work"), List.of())).isNull();

        assertThat(tmp.resolve("work")).doesNotExist();
        assertThat(victim).hasContent("keep");
        assertThat(victims).isDirectory();
    }

    @Test
    void aWorkDirectoryThatIsALinkIsLeftAndWhatItNamesStays() throws IOException {
        Path victims = Files.createDirectories(tmp.resolve("victims"));
        Path victim = Files.writeString(victims.resolve("precious"), "keep");
        Path work = Files.createSymbolicLink(tmp.resolve("work"), victims);

        assertThat(WorkDirectory.delete(work, List.of())).contains("a link");

        assertThat(victim).hasContent("keep");
    }

    /** As root: a directory of another user's at the work directory's path is not this process's to delete. */
    @Test
    void aDirectoryOfAnotherUsersIsLeftWhole() throws IOException {
        Requirements.requireRoot();
        Path work = Files.createDirectories(tmp.resolve("planted/inside"));
        Files.writeString(work.resolve("theirs"), "keep");
        Shell.run("chown", "-R", Unprivileged.UID + ":" + Unprivileged.UID, tmp.resolve("planted").toString());

        assertThat(WorkDirectory.delete(tmp.resolve("planted"), List.of())).contains("not this user's");

        assertThat(work.resolve("theirs")).hasContent("keep");
    }

    /** A tree the workload made read-only (chmod 555), deleted by the user that made it, not root. */
    @Test
    void aReadOnlyTreeIsDeleted() throws Exception {
        Process p = new ProcessBuilder(Unprivileged.command(tmp, ReadOnlyTree.class.getName(), List.of()))
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(said).isEqualTo("deleted\n");
        assertThat(p.exitValue()).isZero();
    }

    /** Makes a work directory with a read-only tree in it, deletes it, and says whether it went. */
    public static final class ReadOnlyTree {
        public static void main(String[] args) throws IOException {
            Path work = Files.createTempDirectory("flushcheck-readonly-");
            Path ro = Files.createDirectories(work.resolve("d/ro/deeper"));
            Files.writeString(ro.resolve("f"), "x");
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
            Files.setPosixFilePermissions(ro.getParent(), PosixFilePermissions.fromString("r-xr-xr-x"));
            String stayed = WorkDirectory.delete(work, List.of());
            System.out.println(stayed == null && !Files.exists(work) ? "deleted" : "left: " + stayed);
        }
    }
}
