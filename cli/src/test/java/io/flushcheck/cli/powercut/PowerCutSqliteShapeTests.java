package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.DocumentedCommand;
import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code flushcheck powercut sqlite --cuts 20}, exactly as the guide shows it. About 16 s on two
 * cores, so it runs once per build: junit6/ leaves it out, as the figures do not depend on JUnit's version.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutSqliteShapeTests {

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    /**
     * The shape SQLite's documentation promises, from exactly {@code flushcheck powercut sqlite --cuts 20}:
     * WAL+NORMAL loses acknowledged commits in some cuts, WAL+FULL and DELETE+EXTRA lose none, DELETE+FULL
     * loses at most the last commit of a cut, and no cut corrupts a database.
     */
    @Test
    void twentyCutsPerCellShowTheDocumentedShape() {
        long t0 = System.nanoTime();
        Run r = run(DocumentedCommand.of(PowerCutSqliteShapeTests.class, "sqlite-matrix").args());
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("flushcheck powercut sqlite --cuts 20: %.1f s%n%s", seconds, r.out());
        assertThat(r.exit()).as(r.err()).isZero();
        Map<String, long[]> rows = table(r.out());
        assertThat(rows.keySet()).containsExactlyElementsOf(PowerCutSqliteCommandTests.CELLS);
        // cuts, acknowledged, lost, cuts that lost, most in one, corrupt
        rows.forEach((cell, f) -> {
            assertThat(f[0]).as("%s cuts", cell).isEqualTo(20);
            assertThat(f[5]).as("%s corrupt", cell).isZero();
        });
        assertThat(rows.get("WAL/NORMAL")[3]).as("WAL/NORMAL cuts that lost").isPositive();
        assertThat(rows.get("WAL/FULL")[2]).as("WAL/FULL lost").isZero();
        assertThat(rows.get("WAL/EXTRA")[2]).as("WAL/EXTRA lost").isZero();
        assertThat(rows.get("DELETE/EXTRA")[2]).as("DELETE/EXTRA lost").isZero();
        assertThat(rows.get("DELETE/FULL")[4]).as("DELETE/FULL most lost in one cut").isLessThanOrEqualTo(1);
        assertThat(r.err()).contains("flushcheck powercut sqlite: [8/8] WAL/EXTRA: 20 cuts, ");
        PowerCutCommandTests.assertNothingLeft();
    }

    /** The table's rows by cell: {@code DELETE FULL 20 2089 20 20 1 0}. */
    private static Map<String, long[]> table(String out) {
        Map<String, long[]> rows = new LinkedHashMap<>();
        for (String line : out.lines().toList()) {
            String[] f = line.trim().split(" +");
            if (f.length == 8 && (f[0].equals("DELETE") || f[0].equals("WAL"))) {
                long[] v = new long[6];
                for (int i = 0; i < 6; i++) {
                    v[i] = Long.parseLong(f[i + 2]);
                }
                rows.put(f[0] + "/" + f[1], v);
            }
        }
        return rows;
    }
}
