package io.flushcheck.cli;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.jupiter.FlushcheckConfig;
import io.flushcheck.jupiter.RequiresRealFlush;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.ProbeLeftovers;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * A directory whose name holds a newline, an ESC and a tab: every human-readable output shows the name
 * escaped (one line, no terminal control), the JSON keeps it exact.
 */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class EscapedNamesTests {

    /** Real control characters in a real directory name. */
    static final String NAME = "fc-esc-a\nb\u001bc\td";
    static final String ESCAPED = "fc-esc-a\\nb\\x1bc\\td";

    private static Path onDisk;
    private static Path onShm;

    @BeforeAll
    static void dirs() throws IOException {
        onDisk = Files.createDirectories(Path.of("target", "cli-escape").toAbsolutePath().resolve(NAME));
        onShm = Files.createDirectories(Path.of("/dev/shm").resolve(NAME));
    }

    @AfterAll
    static void removeShm() throws IOException {
        Files.deleteIfExists(onShm);
    }

    private static void assertNoRawControls(String text) {
        assertThat(text).doesNotContain("\u001b", "\t", "a\nb");
    }

    @Test
    void escapeRules() {
        assertThat(Escape.of(NAME)).isEqualTo(ESCAPED);
        assertThat(Escape.of("plain /path with spaces, ü and a \\ backslash")).isEqualTo("plain /path with spaces, ü and a \\ backslash");
        assertThat(Escape.of("\r\u0000\u007f\u0085\u202e\u2028")).isEqualTo("\\r\\x00\\x7f\\x85\\u202e\\u2028");
        assertThat(Escape.of(Escape.of(NAME))).as("idempotent").isEqualTo(ESCAPED);
        String plain = "/dev/shm";
        assertThat(Escape.of(plain)).isSameAs(plain);
    }

    @Test
    void textReportAndProgressLinesShowTheNameEscaped() {
        Run r = run("--always-probe", "--modes", "no-sync", "--rounds", "1", onDisk.toString());
        assertThat(r.exit()).as("%s", r).isZero();
        assertNoRawControls(r.out());
        assertNoRawControls(r.err());
        assertThat(r.out()).startsWith("== " + Escape.of(onDisk.toString()) + "\n").contains(ESCAPED + " is on ");
        assertThat(r.err()).contains("flushcheck: " + Escape.of(onDisk.toString()) + ": no-sync, 1 rounds\n");
        assertThat(ProbeLeftovers.in(onDisk)).isEmpty();
    }

    @Test
    void findingsAndTheGateLineOnStderrShowTheNameEscaped() {
        Run r = run("--require-real-flush", "--quiet", onShm.toString());
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.NOT_REAL_FLUSH);
        assertNoRawControls(r.out());
        assertThat(r.out()).contains("RAM_FILESYSTEM: /dev/shm/" + ESCAPED + " is on tmpfs");
        assertThat(r.err()).startsWith("flushcheck: /dev/shm/" + ESCAPED + " is NO_REAL_FLUSH: /dev/shm/" + ESCAPED)
                .hasLineCount(1);
    }

    @Test
    void jsonKeepsTheNameExact() {
        Run r = run("--json", "--quiet", onShm.toString());
        assertThat(r.exit()).as("%s", r).isZero();
        assertNoRawControls(r.out());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> results = (List<Map<String, Object>>) ((Map<String, Object>) MiniJson.parse(r.out())).get("results");
        assertThat(results.get(0).get("path")).isEqualTo(onShm.toString());
    }

    @Test
    void aOneLineErrorIsOneLine() {
        Run r = run(onShm.resolve("missing").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("flushcheck: /dev/shm/" + ESCAPED + "/missing does not exist (see flushcheck --help)\n");
        Run s = run("sqlite", "--audit", onShm.resolve("missing.db").toString());
        assertThat(s.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(s.err()).hasLineCount(1).contains("/dev/shm/" + ESCAPED + "/missing.db");
    }

    @Test
    void jUnitFailureMessagesShowTheNameEscaped() {
        List<String> messages = new ArrayList<>();
        for (String target : List.of(onShm.toString(), onShm.resolve("missing").toString())) {
            for (Event e : EngineTestKit.engine("junit-jupiter").selectors(selectClass(Annotated.class))
                    .configurationParameters(Map.of(FlushcheckConfig.TARGET_KEY, target)).execute()
                    .testEvents().failed().list()) {
                messages.add(e.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                        .getThrowable().orElseThrow().getMessage());
            }
        }
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0)).startsWith("@RequiresRealFlush: /dev/shm/" + ESCAPED + " is NO_REAL_FLUSH: /dev/shm/" + ESCAPED);
        assertThat(messages.get(1)).contains("/dev/shm/" + ESCAPED + "/missing does not exist");
        for (String m : messages) {
            assertNoRawControls(m);
            assertThat(m).doesNotContain("\n");
        }
    }

    static class Annotated {
        @Test
        @RequiresRealFlush
        void annotated() {
        }
    }
}
