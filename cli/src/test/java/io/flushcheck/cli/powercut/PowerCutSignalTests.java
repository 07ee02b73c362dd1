package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.Main;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code flushcheck powercut} stopped by SIGTERM or SIGINT while its command runs leaves no log of the command's
 * output in the temporary directory, and nothing mounted there once its drives' server has seen it go.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutSignalTests {

    @TempDir
    Path tmp;

    private List<String> logs() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("flushcheck-world-")).toList();
        }
    }

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalWhileTheCommandRunsLeavesNoLogAndNoMount(String signal) throws Exception {
        Requirements.requireFileModel();
        List<String> cmd = ChildJvm.withDefaultSignals(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=" + tmp),
                Main.class.getName(), List.of("powercut", "--model", "file", "--cuts", "1", "--after-flushes", "1000",
                        "--verify", "true {dir}", "--", "sh", "-c", "sleep 60; : \"$1\"", "sh", "{dir}")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (logs().isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(logs()).as("the command's log while it runs").hasSize(1);
            assertThat(new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start().waitFor()).isZero();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly().waitFor();
        }
        assertThat(logs()).as("logs left after SIG%s", signal).isEmpty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (mounted() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(mounted()).as("a mount under %s", tmp).isFalse();
    }

    /**
     * Stopped while a crash state is checked, by {@code --explore} or by {@code --replay} of the recording it kept,
     * on either model: nothing is left in the temporary directory, nothing mounted there.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"file explore TERM", "file replay INT", "block explore INT", "block replay TERM"})
    void aSignalWhileAStateIsCheckedLeavesNothing(String how) throws Exception {
        String[] w = how.split(" ");
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        if (w[0].equals("block")) {
            Requirements.requireRoot();
        } else {
            Requirements.requireFileModel();
        }
        Path checking = tmp.resolve("checking");
        Path saved = tmp.resolve("recording");
        String command = "echo a > \"$1/a\" && sync && echo b > \"$1/b\" && sync";
        String waits = "touch " + checking + "; sleep 60; : {dir}";
        List<String> explore = List.of("powercut", "--explore", "--model", w[0], "--max-states", "3");
        Process p;
        if (w[1].equals("explore")) {
            p = start(concat(explore, List.of("--verify", waits, "--", "sh", "-c", command, "sh", "{dir}")));
        } else {
            Process recording = start(concat(explore, List.of("--record", saved.toString(), "--verify", "true {dir}",
                    "--", "sh", "-c", command, "sh", "{dir}")));
            assertThat(recording.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(recording.exitValue()).as("the recording's run").isZero();
            assertThat(workDirectories()).as("left by the recording's run").isEmpty();
            p = start(List.of("powercut", "--replay", saved.toString(), "--verify", waits));
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.exists(checking) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(checking).as("a state being checked").exists();
            assertThat(workDirectories()).as("the work directory while a state is checked").isNotEmpty();
            assertThat(new ProcessBuilder("kill", "-" + w[2], String.valueOf(p.pid())).start().waitFor()).isZero();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly().waitFor();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (mounted() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(mounted()).as("a mount under %s", tmp).isFalse();
        assertThat(workDirectories()).as("left after SIG%s", w[2]).isEmpty();
    }

    private Process start(List<String> args) throws IOException {
        List<String> cmd = ChildJvm.withDefaultSignals(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=" + tmp),
                Main.class.getName(), args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    private List<String> workDirectories() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("flushcheck-powercut-")).toList();
        }
    }

    private boolean mounted() throws IOException {
        return Files.readString(Path.of("/proc/self/mountinfo")).contains(" " + tmp + "/");
    }
}
