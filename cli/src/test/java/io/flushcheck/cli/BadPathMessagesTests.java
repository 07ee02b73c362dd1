package io.flushcheck.cli;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each reason a path cannot be used gets its own one-line error, the same for the probe, {@code sqlite}
 * and {@code sqlite --audit}: real symbolic link loops, over-long paths, names that are not UTF-8 and
 * empty arguments, exit 2.
 */
class BadPathMessagesTests {

    private static final String HINT = " (see flushcheck --help)\n";
    private static Path base;

    @BeforeAll
    static void dirs() throws IOException {
        base = Files.createDirectories(Path.of("target", "cli-bad-paths").toAbsolutePath());
    }

    /** The probe, the matrix and the audit each refuse the path with {@code message}, exit 2, nothing on stdout. */
    private static void assertEveryCommandSays(String path, String message) {
        for (List<String> cmd : List.<List<String>>of(List.of(), List.of("sqlite", "--quiet"), List.of("sqlite", "--audit"))) {
            List<String> args = new ArrayList<>(cmd);
            args.add(path);
            Run r = run(args.toArray(new String[0]));
            String prefix = cmd.isEmpty() ? "flushcheck: " : "flushcheck: sqlite: ";
            assertThat(r.exit()).as("%s: %s", args, r).isEqualTo(ExitCodes.USAGE);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).as("%s", args).isEqualTo(prefix + message + HINT);
        }
    }

    @Test
    void aSymbolicLinkLoop() throws IOException {
        Path a = base.resolve("loop-a");
        Path b = base.resolve("loop-b");
        Files.deleteIfExists(a);
        Files.deleteIfExists(b);
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        assertEveryCommandSays(a.toString(), "cannot reach " + a + ": too many levels of symbolic links (a symbolic link loop"
                + " in it or a parent directory)");
        assertEveryCommandSays(a + "/below", "cannot reach " + a + "/below: too many levels of symbolic links (a symbolic"
                + " link loop in it or a parent directory)");
    }

    @Test
    void anEmptyArgument() {
        assertEveryCommandSays("", "empty path: name a directory ('.' for the working directory)");
    }

    @Test
    void aPathOf5000Characters() {
        String name = "x".repeat(5000);
        Path p = base.resolve(name);
        String shown = p.toString().substring(0, 100) + "..." + "x".repeat(40) + " (" + p.toString().length() + " characters)";
        assertEveryCommandSays(p.toString(), "cannot reach " + shown + ": file name too long (" + p.toString().length()
                + " bytes; the system takes names of up to 255 bytes and paths of up to 4095)");
    }

    @Test
    void aParentThatIsAFileAndADanglingLink() throws IOException {
        Path file = Files.writeString(base.resolve("a-file"), "x");
        assertEveryCommandSays(file + "/below", "cannot reach " + file + "/below: a parent of it is not a directory");
        Path dangling = base.resolve("dangling");
        Files.deleteIfExists(dangling);
        Files.createSymbolicLink(dangling, base.resolve("nowhere"));
        assertEveryCommandSays(dangling.toString(), dangling + " is a symbolic link to " + base.resolve("nowhere")
                + ", which does not exist");
        assertEveryCommandSays(base.resolve("nowhere").toString(), base.resolve("nowhere") + " does not exist");
    }

    /**
     * A real directory named by the byte 0xff, made by a shell, and named to a real JVM by the shell too
     * (Java cannot pass that byte itself): it exists, and the message says why Java cannot name it.
     */
    @Test
    void aNameThatIsNotUtf8() {
        Shell.run("bash", "-c", "mkdir -p \"$1\"/$'\\xff'", "_", base.toString());
        assertThat(Shell.run("bash", "-c", "test -d \"$1\"/$'\\xff' && echo there", "_", base.toString())).isEqualTo("there\n");
        String expected = "cannot represent path '" + base + "/\uFFFD' in this locale's encoding (UTF-8): its name holds"
                + " bytes that are not valid UTF-8 (shown as \uFFFD), which Java cannot pass on; give it a UTF-8 name, or"
                + " probe a bind mount of it at a UTF-8 path";
        String java = String.join(" ", ChildJvm.command(List.of(), List.of("-Dflushcheck.warmup=false"), Main.class.getName(),
                List.of()).stream().map(BadPathMessagesTests::quote).toList());
        for (String cmd : List.of("", "sqlite --quiet", "sqlite --audit")) {
            ChildJvm.Result r = ChildJvm.run(List.of("env", "LC_ALL=C.UTF-8", "bash", "-c",
                    java + " " + cmd + " \"$1\"/$'\\xff'", "_", base.toString()), 60);
            assertThat(r.exit()).as("%s: %s", cmd, r).isEqualTo(ExitCodes.USAGE);
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).as(cmd).isEqualTo("flushcheck: " + (cmd.isEmpty() ? "" : "sqlite: ") + expected + HINT);
        }
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
