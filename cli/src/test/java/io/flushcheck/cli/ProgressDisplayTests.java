package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Checks;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Progress on a real terminal and in a pipe. The terminal is a pseudo-terminal of util-linux's
 * {@code script}, 100 columns wide, with only the command's stderr on it (stdout goes to a file): one line
 * per path, rewritten in place and ended by its verdict. In a pipe: one line per mode, nothing rewritten.
 */
class ProgressDisplayTests {

    private static final List<String> MODES = List.of("append-fdatasync", "overwrite-fdatasync", "dsync");

    private static List<String> probeArgs(Path a, Path b) {
        return List.of("--json", "--rounds", "1500", "--modes", String.join(",", MODES), a.toString(), b.toString());
    }

    @Test
    void onATerminalEachPathIsOneLineRewrittenInPlaceThenItsVerdict() throws Exception {
        Requirements.requireCommand("script", "bsdutils");
        Path base = Path.of("target", "progress").toAbsolutePath();
        Path a = Checks.freshDir(base, "a");
        Path b = Checks.freshDir(base, "b");
        Path json = base.resolve("out.json");
        StringBuilder shell = new StringBuilder("stty cols 100 rows 40; exec");
        for (String arg : ChildJvm.command(List.of(), Main.class.getName(), probeArgs(a, b))) {
            shell.append(" '").append(arg.replace("'", "'\\''")).append('\'');
        }
        shell.append(" >'").append(json).append('\'');
        ChildJvm.Result r = ChildJvm.run(List.of("script", "-qefc", shell.toString(), "/dev/null"), 300);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(Files.readString(json)).as("stdout went to the file").contains("\"results\"", "REAL_FLUSH");

        // What the terminal was sent: each line ends in CR LF there; a repaint starts with CR and erase-line.
        List<String> lines = new ArrayList<>(List.of(r.stdout().replace("\r\n", "\n").split("\n")));
        // b is on a's mount, so a's probe judges it (one probe per mount): it has no live line of its own.
        assertThat(lines).as("one line per path, and the note on b: %s", r.stdout()).hasSize(3);
        String path = a.toString();
        String[] paints = lines.get(0).split("\r\u001b\\[K", -1);
        assertThat(paints.length).as("repaints of %s", path).isGreaterThan(4);
        for (int k = 1; k < paints.length - 1; k++) {
            // The path gives way, from its start, to the figures after it.
            assertThat(paints[k]).as("a live line fits in 100 columns").hasSizeLessThan(100).startsWith("flushcheck: ")
                    .contains(path.substring(path.length() - 8) + ": ");
        }
        String live = String.join("\n", List.of(paints).subList(1, paints.length - 1));
        // The time so far and the estimate of the whole: milliseconds or seconds, as long as the probe takes here.
        assertThat(live).contains("[#", "/1500 rounds").containsPattern(" [\\d.]+ m?s/~[\\d.]+ m?s");
        for (String mode : MODES) {
            assertThat(live).contains(": " + mode + " " + (MODES.indexOf(mode) + 1) + "/3 [");
        }
        assertThat(paints[paints.length - 1]).as("the finished line is the verdict")
                .startsWith("flushcheck: " + path + ": REAL_FLUSH in ").hasSizeLessThan(100);
        assertThat(lines.get(1)).isEqualTo("flushcheck: " + b + " is on the mount of " + a + ": judged with its probe");
        assertThat(lines.get(2).replace("\r\u001b[K", "")).as("b's finished line").startsWith("flushcheck: " + b + ": REAL_FLUSH in ").hasSizeLessThan(100);
    }

    @Test
    void inAPipeThereIsOneLineAModeAndNothingRewritten() throws Exception {
        Path base = Path.of("target", "progress").toAbsolutePath();
        Path a = Checks.freshDir(base, "pipe-a");
        Path b = Checks.freshDir(base, "pipe-b");
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(), probeArgs(a, b)), 300);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.stderr()).doesNotContain("\r", "\u001b");
        List<String> expected = new ArrayList<>();
        for (String mode : MODES) {
            expected.add("flushcheck: " + a + ": " + mode + ", 1500 rounds");
        }
        // b is on a's mount: judged with a's probe, and said so.
        expected.add("flushcheck: " + b + " is on the mount of " + a + ": judged with its probe");
        // A mode measured again because the device was too busy to tell adds its own line, with more rounds.
        assertThat(r.stderr().lines().filter(l -> !l.endsWith(", 6000 rounds") && !l.endsWith(", 24000 rounds")).toList())
                .isEqualTo(expected);

        // The SQLite matrix in a pipe: one line per cell, as it ends.
        Path cells = Checks.freshDir(base, "pipe-sqlite");
        InProcess.Run sqlite = InProcess.run("sqlite", "--journal-modes", "WAL", "--synchronous", "OFF,FULL", "--fullfsync", "0",
                "--batches", "1", "--rows", "50", cells.toString());
        assertThat(sqlite.exit()).as(sqlite.err()).isZero();
        assertThat(sqlite.err().lines().toList()).hasSize(2).satisfiesExactly(
                l -> assertThat(l).matches("flushcheck sqlite: \\[1/2\\] WAL/OFF/fullfsync=0/batch=1: [0-9,]+ rows/s, .*"),
                l -> assertThat(l).matches("flushcheck sqlite: \\[2/2\\] WAL/FULL/fullfsync=0/batch=1: [0-9,]+ rows/s, .*"));

        ChildJvm.Result quiet = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--quiet", "--rounds", "50", a.toString())), 120);
        assertThat(quiet.stderr()).isEmpty();
    }
}
