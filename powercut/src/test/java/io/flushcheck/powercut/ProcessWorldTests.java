package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.MarkedProgram;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program's world ends whole: what it detached (setsid, a double fork) dies with it and is reaped by the
 * time the world is seen to end, and inside, ps shows the world alone. The marked programs are copies of
 * /bin/sh, so each of their processes, zombies included, can be found by name in /proc.
 */
class ProcessWorldTests {

    @TempDir
    Path tmp;

    private MarkedProgram daemon;

    @BeforeEach
    void needs() throws IOException {
        Requirements.requireCommand("unshare", "util-linux");
        Requirements.requireCommand("setpriv", "util-linux");
        Requirements.requireRoot();
        daemon = MarkedProgram.copy(Path.of("/bin/sh"), tmp);
    }

    /** A shell that leaves two copies of the marked program running, one a session leader, one double-forked. */
    private String leaveDaemons(String then) {
        String d = daemon.path();
        return "setsid " + d + " -c 'sleep 300' & (" + d + " -c 'sleep 300' &) ; " + then;
    }

    @Test
    void whatTheProgramLeftRunningDiesWithItAndIsReapedWhenItExits() throws Exception {
        try (ProcessWorld world = ProcessWorld.start(new ProcessBuilder("sh", "-c", leaveDaemons("sleep 0.3; exit 7")))) {
            assertThat(world.waitFor(20, TimeUnit.SECONDS)).as("the world ended").isTrue();
            assertThat(world.process().exitValue()).as("the program's exit code").isEqualTo(7);
            assertThat(daemon.processes()).as("nothing of the world, not even a zombie").isEmpty();
        }
    }

    @Test
    void killEndsEveryProcessOfTheWorldAtOnceAndReapsThem() throws Exception {
        try (ProcessWorld world = ProcessWorld.start(new ProcessBuilder("sh", "-c", leaveDaemons("sleep 300")))) {
            daemon.awaitAlive(2, 10_000);
            world.kill();
            assertThat(world.isAlive()).isFalse();
            assertThat(world.process().exitValue()).as("128 + SIGKILL").isEqualTo(137);
            assertThat(daemon.processes()).as("nothing of the world, not even a zombie").isEmpty();
        }
    }

    @Test
    void psInTheWorldShowsTheWorldAlone() throws Exception {
        ProcessBuilder b = new ProcessBuilder("sh", "-c", leaveDaemons("sleep 0.3; ps -e -o pid=,comm=")).redirectErrorStream(true);
        try (ProcessWorld world = ProcessWorld.start(b)) {
            String out = new String(world.process().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(world.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(out).as("the program is PID 1 there").containsPattern("(?m)^\\s*1 sh$")
                    .contains(daemon.name()).contains("ps")
                    .doesNotContain("java");
            assertThat(out.lines().count()).as(out).isLessThanOrEqualTo(6);
        }
    }

    @Test
    void theProgramReadsItsStandardInputWithNothingOfTheGate() throws Exception {
        try (ProcessWorld world = ProcessWorld.start(new ProcessBuilder("cat"))) {
            try (OutputStream in = world.process().getOutputStream()) {
                in.write("hello\n".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(new String(world.process().getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("hello\n");
            assertThat(world.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(world.process().exitValue()).isZero();
        }
    }

    @Test
    void aWorldReadsItsInputFromAPipeOnly() {
        assertThatThrownBy(() -> ProcessWorld.start(new ProcessBuilder("true").redirectInput(ProcessBuilder.Redirect.INHERIT)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pipe");
    }
}
