package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.testing.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Results that cannot be written (a full device, a closed stdout, a broken pipe) are exit 4 with one
 * line on stderr saying why, for every command: never exit 0 having written nothing.
 */
class OutputErrorTests {

    private static Path disk;

    @BeforeAll
    static void dirs() throws IOException {
        disk = Files.createDirectories(Path.of("target", "cli-output").toAbsolutePath());
    }

    private static String java() {
        StringBuilder sb = new StringBuilder();
        for (String s : ChildJvm.command(List.of(), List.of("-Dflushcheck.warmup=false"), Main.class.getName(), List.of())) {
            sb.append('\'').append(s.replace("'", "'\\''")).append("' ");
        }
        return sb.toString();
    }

    /** {@code bash -c "<java> ARGS <redirect>"}: the redirection is the shell's, as a user's would be. */
    private static ChildJvm.Result shell(String script) {
        return ChildJvm.run(List.of("bash", "-c", script), 120);
    }

    private static void assertOutputError(ChildJvm.Result r, String why) {
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.OUTPUT);
        assertThat(r.stderr()).as("%s", r).endsWith("flushcheck: could not write the output: " + why + "; the results are lost\n");
    }

    @Test
    void aFullDeviceForTextJsonTheGateHelpAndSqlite() {
        String full = " >/dev/full";
        assertOutputError(shell(java() + "--quiet /dev/shm" + full), "No space left on device");
        assertOutputError(shell(java() + "--quiet --json /dev/shm" + full), "No space left on device");
        // The gate's own failure (exit 1) is lost too: the results it rests on were not written.
        ChildJvm.Result gate = shell(java() + "--quiet --require-real-flush /dev/shm" + full);
        assertOutputError(gate, "No space left on device");
        assertThat(gate.stderr()).startsWith("flushcheck: /dev/shm is NO_REAL_FLUSH: ");
        assertOutputError(shell(java() + "--help" + full), "No space left on device");
        assertOutputError(shell(java() + "sqlite --quiet --journal-modes WAL --synchronous FULL --fullfsync 0 --batches 1"
                + " --rows 10 /dev/shm" + full), "No space left on device");
        assertOutputError(shell(java() + "sqlite --help" + full), "No space left on device");
        assertOutputError(shell(java() + "guests --help" + full), "No space left on device");
    }

    @Test
    void aClosedStdout() {
        assertOutputError(shell(java() + "--quiet /dev/shm >&-"), "Bad file descriptor");
        assertOutputError(shell(java() + "--quiet --json /dev/shm >&-"), "Bad file descriptor");
    }

    @Test
    void aBrokenPipe() {
        // The reader is gone before the command starts: its first write meets EPIPE.
        ChildJvm.Result r = shell("(sleep 1; exec " + java() + "--quiet --json /dev/shm) | true; echo \"exit ${PIPESTATUS[0]}\" >&2");
        assertThat(r.stderr()).as("%s", r).endsWith("flushcheck: could not write the output: Broken pipe; the results are lost\n"
                + "exit 4\n");
    }

    @Test
    void theProbeStopsAtTheFirstReportItCannotWrite() {
        ChildJvm.Result r = shell(java() + "--always-probe --modes no-sync --rounds 1 /dev/shm " + disk + " >/dev/full");
        assertOutputError(r, "No space left on device");
        assertThat(r.stderr()).contains("flushcheck: /dev/shm: no-sync, 1 rounds").doesNotContain(disk.toString());
    }

    @Test
    void inProcessAStreamThatFailsIsExitFourWithoutAReason() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OutputStream failing = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("refused");
            }
        };
        int exit = Main.run(List.of("--quiet", "/dev/shm"), new PrintStream(failing, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(ExitCodes.OUTPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("flushcheck: could not write the output; the results are lost\n");
    }

    @Test
    void everyCommandsHelpNamesExitFour() {
        for (List<String> args : List.<List<String>>of(List.of("--help"), List.of("sqlite", "--help"), List.of("guests", "--help"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThat(Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ")).as("%s", args)
                    .containsPattern("4 the (results|output) could not be written");
        }
    }

    @Test
    void usageErrorsKeepTheirCode() {
        ChildJvm.Result r = shell(java() + "--no-such-option >/dev/full");
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.USAGE);
        assertThat(r.stderr()).doesNotContain("could not write");
    }
}
