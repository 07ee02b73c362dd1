package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/** {@code flushcheck powercut sqlite}: SQLite's settings under real power cuts, through the command. */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutSqliteCommandTests {

    static final List<String> CELLS = List.of("DELETE/OFF", "DELETE/NORMAL", "DELETE/FULL", "DELETE/EXTRA",
            "WAL/OFF", "WAL/NORMAL", "WAL/FULL", "WAL/EXTRA");

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    @Test
    void jsonHasOneRowPerCellWithTheDocumentedFields() throws Exception {
        Path page = Path.of("target", "powercut-sqlite.html").toAbsolutePath();
        Files.deleteIfExists(page);
        Run r = run("powercut", "sqlite", "--cuts", "1", "--json", "--quiet", "--html", page.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(json.keySet()).containsExactly("rules", "seed", "rows");
        assertThat(json.get("rules")).as("root takes the block model, which has ext4's rules").isNull();
        List<String> cells = new ArrayList<>();
        for (Object o : MiniJson.array(json.get("rows"))) {
            Map<String, Object> row = MiniJson.object(o);
            assertThat(row.keySet()).containsExactly("journalMode", "synchronous", "cuts", "acknowledged", "lost",
                    "cutsThatLost", "maxLostInOneCut", "corrupt");
            assertThat(row.get("cuts")).isEqualTo(1L);
            assertThat((Long) row.get("acknowledged")).isPositive();
            assertThat((Long) row.get("lost")).isBetween(0L, (Long) row.get("acknowledged"));
            cells.add(row.get("journalMode") + "/" + row.get("synchronous"));
        }
        assertThat(cells).containsExactlyElementsOf(CELLS);
        // --html: the same rows as a table, one row per cell with its figures.
        String html = Files.readString(page);
        assertThat(html).contains("SQLite under power cuts", "seed 2026");
        for (Object o : MiniJson.array(json.get("rows"))) {
            Map<String, Object> row = MiniJson.object(o);
            assertThat(html).contains("<th>" + row.get("journalMode") + "</th><th>" + row.get("synchronous") + "</th><td>1</td><td>"
                    + row.get("acknowledged") + "</td><td>" + row.get("lost") + "</td>");
        }
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void onTheFileModelTheRulesAreNamedInTheFirstLineAndTheJson() {
        Run r = run("powercut", "sqlite", "--model", "file", "--rules", "posix", "--cuts", "1", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).startsWith("flushcheck powercut sqlite: the file model: files over FUSE, POSIX rules: data"
                + " durable at its file's fsync and names at their directory's\n");
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(json.get("rules")).isEqualTo("posix");
        assertThat(MiniJson.array(json.get("rows"))).hasSize(CELLS.size());
        PowerCutCommandTests.assertNothingLeft();
    }
}
