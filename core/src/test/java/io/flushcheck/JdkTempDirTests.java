package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the JDK creates temp files, as {@link Flushcheck#jdkTempDir()} says, against where a real
 * {@code Files.createTempDirectory} in the same JVM lands, for each way a launch can set the directory: none,
 * a property set after the start, the command line, an argument file, {@code JAVA_TOOL_OPTIONS},
 * {@code JDK_JAVA_OPTIONS}. Each in a JVM of its own, since the JDK fixes the directory at startup.
 */
class JdkTempDirTests {

    @TempDir
    Path dir;

    /** Run in the child: prints what flushcheck says, where the JDK really creates, and whether the launch told. */
    public static void main(String[] args) throws IOException {
        if (args.length > 0) {
            System.setProperty("java.io.tmpdir", args[0]); // as Surefire's systemPropertyVariables do, too late
        }
        Path said = Flushcheck.jdkTempDir();
        Path real = Files.createTempDirectory("jdk-temp-dir-tests-");
        Files.delete(real);
        System.out.println(said + "\n" + real.toAbsolutePath().getParent() + "\n" + (LaunchedTempDir.of() != null));
    }

    @Test
    void aPlainLaunchIsAnsweredFromTheLaunchAndAgreesWithTheJdk() throws Exception {
        assertThat(child(List.of(), Map.of(), List.of())).containsExactly("/tmp", "/tmp", "true");
    }

    @Test
    void aPropertySetAfterTheStartMovesNothingAndIsNotBelieved() throws Exception {
        assertThat(child(List.of(), Map.of(), List.of(dir.toString()))).containsExactly("/tmp", "/tmp", "true");
    }

    @Test
    void theCommandLinesPropertyIsLeftToTheJdk() throws Exception {
        assertThat(child(List.of("-Djava.io.tmpdir=" + dir), Map.of(), List.of()))
                .containsExactly(dir.toString(), dir.toString(), "false");
    }

    @Test
    void anArgumentFilesPropertyIsLeftToTheJdk() throws Exception {
        Path options = Files.writeString(dir.resolve("options"), "-Djava.io.tmpdir=" + dir + "\n");
        assertThat(child(List.of("@" + options), Map.of(), List.of()))
                .containsExactly(dir.toString(), dir.toString(), "false");
    }

    @Test
    void theEnvironmentsOptionsAreLeftToTheJdk() throws Exception {
        for (String variable : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")) {
            assertThat(child(List.of(), Map.of(variable, "-Djava.io.tmpdir=" + dir), List.of()))
                    .as(variable).containsExactly(dir.toString(), dir.toString(), "false");
        }
    }

    private static List<String> child(List<String> options, Map<String, String> environment, List<String> args)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(options);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JdkTempDirTests.class.getName());
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        for (String v : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")) {
            pb.environment().remove(v);
        }
        pb.environment().putAll(environment);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        List<String> lines = new ArrayList<>(out.lines().filter(l -> !l.startsWith("Picked up ")
                && !l.startsWith("NOTE: Picked up")).toList());
        return lines;
    }
}
