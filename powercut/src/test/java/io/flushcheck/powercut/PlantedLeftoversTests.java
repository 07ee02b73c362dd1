package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The sweep of what killed runs left acts on nothing it did not make: a directory another user planted in
 * the temporary directory, with a marker naming a dead PID and a mount to undo, is left as it is, and so
 * is the mount it names; a marker of this user's copied into another directory, or naming a mount outside
 * its own directory, does not make the sweep act there either. What a killed run of this user's left is
 * still removed.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class PlantedLeftoversTests {

    private static final int NOBODY = 65534;

    private Path scratch;
    private Path victim;

    @BeforeEach
    void setUp() throws IOException {
        Requirements.requireRoot();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        scratch = Files.createTempDirectory("flushcheck-planted-");
        victim = Files.createDirectories(scratch.resolve("victim"));
        Shell.run("mount", "-t", "tmpfs", "-o", "size=1m", "planted-victim", victim.toString());
        Files.writeString(victim.resolve("precious"), "kept");
    }

    @AfterEach
    void tearDown() throws IOException {
        if (victim != null && Files.readString(Path.of("/proc/self/mountinfo")).contains(" " + victim + " ")) {
            Shell.run("umount", "--lazy", victim.toString());
        }
        if (scratch != null) {
            Shell.run("rm", "-rf", "--one-file-system", scratch.toString());
        }
    }

    /** A PID no process has: one that ran and was reaped. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    private Path planted(String name, long pid, String token, Path markerPath, int uid, String mode) throws IOException {
        Path dir = Files.createDirectories(scratch.resolve(name));
        Files.writeString(dir.resolve("owner.pid"), "flushcheck work directory\npid " + pid + "\ntoken " + token
                + "\npath " + markerPath + "\n");
        Files.writeString(dir.resolve("token"), token + "\n");
        Files.writeString(dir.resolve("attached"), "mount " + victim + "\nmount " + dir.resolve("fs") + "\n");
        Files.createDirectories(dir.resolve("fs"));
        Files.writeString(dir.resolve("fs").resolve("file"), "someone's");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));
        Shell.run("chown", "-R", uid + ":" + uid, dir.toString());
        return dir;
    }

    @Test
    void whatAnotherUserPlantedIsLeftAsItIs() throws Exception {
        long dead = deadPid();
        Path others = planted("others", dead, "abc", scratch.resolve("others"), NOBODY, "rwx--x--x");
        Path oldFormat = Files.createDirectories(scratch.resolve("old-format"));
        Files.writeString(oldFormat.resolve("owner.pid"), String.valueOf(dead));
        Files.writeString(oldFormat.resolve("attached"), "mount " + victim + "\n");
        Shell.run("chown", "-R", NOBODY + ":" + NOBODY, oldFormat.toString());
        Path othersLog = scratch.resolve("flushcheck-world-" + dead + "-1.log");
        Files.writeString(othersLog, "someone's output");
        Shell.run("chown", NOBODY + ":" + NOBODY, othersLog.toString());

        try (SimulatedDisk next = SimulatedDisk.builder().model(DiskModel.FILE).create(scratch.resolve("next"))) {
            assertThat(next.path()).isDirectory();
        }

        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).as("the mount a planted marker named")
                .contains(" " + victim + " ");
        assertThat(victim.resolve("precious")).hasContent("kept");
        assertThat(others.resolve("fs").resolve("file")).hasContent("someone's");
        assertThat(others.resolve("owner.pid")).exists();
        assertThat(oldFormat.resolve("attached")).exists();
        assertThat(othersLog).exists();
    }

    /**
     * A disk whose directory cannot all go (someone mounted a filesystem in it) closes without an exception
     * that would hide what the test showed, deletes nothing of that filesystem, names it, and keeps its
     * markers, so that the next disk beside it finds it.
     */
    @Test
    void whatCannotBeRemovedIsNamedAndKeepsItsMarkers() throws Exception {
        Path work = scratch.resolve("disk");
        Path foreign;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        java.io.PrintStream err = System.err;
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(work)) {
            Path survivor = disk.cutPower();
            foreign = survivor.resolve("mnt");
            Files.createDirectories(foreign);
            Shell.run("mount", "-t", "tmpfs", "-o", "size=1m", "planted-inside", foreign.toString());
            Files.writeString(foreign.resolve("precious"), "kept");
            System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
        try {
            assertThat(foreign.resolve("precious")).hasContent("kept");
            assertThat(work.resolve("owner.pid")).exists();
            assertThat(said.toString(java.nio.charset.StandardCharsets.UTF_8))
                    .contains("the disk in " + work + " left " + foreign + " (still mounted)");
        } finally {
            Shell.run("umount", "--lazy", foreign.toString());
        }
    }

    @Test
    void aMarkerOfThisUsersActsOnlyInsideItsOwnDirectory() throws Exception {
        long dead = deadPid();
        // a marker copied from elsewhere: the path it names is not the directory it is in
        Path copied = planted("copied", dead, "abc", scratch.resolve("elsewhere"), 0, "rwx--x--x");
        // a directory others may change: not one flushcheck made
        Path open = planted("open", dead, "abc", scratch.resolve("open"), 0, "rwxrwxrwx");
        // a marker whose token file says another token
        Path forged = planted("forged", dead, "abc", scratch.resolve("forged"), 0, "rwx--x--x");
        Files.writeString(forged.resolve("token"), "def\n");
        // a true leftover of a killed run of this user's, whose attached file also names a mount outside it
        Path killed = planted("killed", dead, "abc", scratch.resolve("killed"), 0, "rwx--x--x");
        Path ownLog = scratch.resolve("flushcheck-world-" + dead + "-2.log");
        Files.writeString(ownLog, "a killed run's output");

        try (SimulatedDisk next = SimulatedDisk.builder().model(DiskModel.FILE).create(scratch.resolve("next"))) {
            assertThat(next.path()).isDirectory();
        }

        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).contains(" " + victim + " ");
        assertThat(victim.resolve("precious")).hasContent("kept");
        assertThat(copied.resolve("fs").resolve("file")).exists();
        assertThat(open.resolve("fs").resolve("file")).exists();
        assertThat(forged.resolve("fs").resolve("file")).exists();
        assertThat(killed).as("what a killed run of this user's left").doesNotExist();
        assertThat(ownLog).as("a killed run's program log").doesNotExist();
    }
}
