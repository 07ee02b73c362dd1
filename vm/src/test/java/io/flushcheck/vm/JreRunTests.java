package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.guest.GuestRequest;
import io.flushcheck.storage.HostEdge;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's half of a JVM run in a guest: the script it writes, what the guest cannot see, what it sweeps. */
class JreRunTests {

    @Test
    void theScriptHandsEveryWordToTheJvmAsWritten(@TempDir Path dir) throws Exception {
        // /bin/echo stands in for java: what the shell passes on is what a JVM would get as its arguments.
        HostEdge edge = new HostEdge("vda", false, "cache=unsafe: 0 of 64 flushes reached loop0's 'disk' $HOME");
        GuestRequest r = GuestRequest.tests().withHostDir(dir);
        String sh = JreRun.script("/bin/echo", List.of(Path.of("/opt/it's here/a.jar"), Path.of("/b c.jar")),
                "qemu/cache=unsafe", r, edge).replace("/run/flushcheck/", dir + "/").replace("cd " + dir + "/data", "cd " + dir);
        Files.createDirectories(dir.resolve("io"));
        Files.writeString(dir.resolve("run.sh"), sh);
        Process p = new ProcessBuilder("/bin/sh", dir.resolve("run.sh").toString()).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        String args = Files.readString(dir.resolve("io/log.txt"), StandardCharsets.UTF_8);
        assertThat(args).contains("-Dflushcheck.hostEdge=vda:missing:cache=unsafe: 0 of 64 flushes reached loop0's 'disk' $HOME ")
                .contains("-cp /opt/it's here/a.jar:/b c.jar io.flushcheck.guest.GuestMain --environment qemu/cache=unsafe")
                .contains("--data " + dir + "/data --out " + dir + "/io/result.json");
    }

    @Test
    void whatTheGuestMountsOverIsNamed() {
        assertThatThrownBy(() -> JreRun.requireVisible("/usr/bin/java", List.of(Path.of("/work/a.jar"),
                Path.of("/run/user/0/b.jar")))).hasMessageContaining("not under /run, /proc, /sys or /dev")
                .hasMessageEndingWith(": /run/user/0/b.jar");
        JreRun.requireVisible("/usr/lib/jvm/java/bin/java", List.of(Path.of("/work/a.jar"), Path.of("/runs/b.jar")));
    }

    @Test
    void theRunDirectoriesOfJvmsThatNoLongerRunAreSwept(@TempDir Path tmp) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path dead = Files.createDirectories(tmp.resolve("flushcheck-vm-run-" + gone.pid() + "-1"));
        Files.writeString(dead.resolve("log.txt"), "x");
        Path alive = Files.createDirectories(tmp.resolve("flushcheck-vm-run-" + ProcessHandle.current().pid() + "-2"));
        Path other = Files.createDirectories(tmp.resolve("flushcheck-vm-run-notapid"));
        JreRun.sweepRunDirs(tmp);
        assertThat(dead).doesNotExist();
        assertThat(alive).isDirectory();
        assertThat(other).isDirectory();
    }
}
