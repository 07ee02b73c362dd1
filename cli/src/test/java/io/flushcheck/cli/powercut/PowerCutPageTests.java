package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code flushcheck powercut --explore} on a program that writes a header and then a heartbeat into the first page
 * of a lock file it never syncs, then syncs another file and the directory: every crash state passes on both
 * models, the lock empty or starting with its header. A page-cache filesystem writes a page back as it was at one
 * moment: no state keeps the heartbeat without the header written before it.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutPageTests {

    @TempDir
    Path tmp;

    @Test
    void theHeaderWrittenBeforeTheHeartbeatIsInEveryStateOfTheFileModel() throws IOException {
        PythonStore.forFileModel(tmp);
        assertEveryStatePasses(List.of("--model", "file"), "the file model");
    }

    @Test
    void theHeaderWrittenBeforeTheHeartbeatIsInEveryStateOfExt4() throws IOException {
        PythonStore.in(tmp);
        assertEveryStatePasses(List.of(), "ext4");
    }

    private void assertEveryStatePasses(List<String> model, String on) throws IOException {
        Path program = copy("header.py");
        Path check = copy("header_check.py");
        List<String> args = new java.util.ArrayList<>(List.of("powercut", "--explore"));
        args.addAll(model);
        args.addAll(List.of("--verify", PythonStore.PYTHON + " " + check + " {dir} {acks}", "--", "sh", "-c",
                "exec " + PythonStore.PYTHON + " " + program + " \"$1\" \"$FLUSHCHECK_ACKS\"", "header", "{dir}"));
        Run r = run(args.toArray(new String[0]));
        System.out.println(r.out());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(0);
        assertThat(r.out()).startsWith("crash states of one run on " + on)
                .contains(" 1 acknowledgements\n")
                .containsPattern("[1-9]\\d* states checked in [\\d.]+ s, 0 failing, ")
                .doesNotContain("failed:");
        PowerCutCommandTests.assertNothingLeft();
    }

    private Path copy(String name) throws IOException {
        try (InputStream in = PowerCutPageTests.class.getResourceAsStream(name)) {
            Path p = tmp.resolve(name);
            Files.write(p, in.readAllBytes());
            return p;
        }
    }
}
