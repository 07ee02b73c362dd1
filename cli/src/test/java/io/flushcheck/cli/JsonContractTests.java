package io.flushcheck.cli;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.testing.JsonShape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON contract of the command's outputs: every field name and the kind of its value, as
 * {@code flushcheck --json} and {@code flushcheck sqlite --json} print them on tmpfs (where the verdict
 * needs no disk, and the figures that need device counters are null).
 */
class JsonContractTests {

    private static final String SHM = "/dev/shm";

    @Test
    void probeOfAPathTheFactsDecide() {
        Run r = run("--json", SHM);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(JsonShape.of(r.out())).containsExactlyInAnyOrder(
                "results[].path: string",
                "results[].verdict: string",
                "results[].elapsedMillis: number",
                "results[].findings[].code: string",
                "results[].findings[].message: string",
                "results[].findings[].evidence.fsType: string",
                "results[].findings[].evidence.mountPoint: string",
                "results[].findings[].evidence.mountId: string",
                "results[].findings[].evidence.container: string",
                "results[].storage.resolvedPath: string",
                "results[].storage.fsType: string",
                "results[].storage.mountPoint: string",
                "results[].storage.mountId: number",
                "results[].storage.source: string",
                "results[].storage.mountOptions: string",
                "results[].storage.superOptions: string",
                "results[].storage.device: null",
                "results[].storage.countedDevices: []",
                "results[].storage.container: " + (r.out().contains("\"container\": null") ? "null" : "string"),
                "results[].storage.hypervisor: " + (r.out().contains("\"hypervisor\": null") ? "null" : "string"),
                "results[].storage.interposers: []",
                "results[].costs: []");
    }

    @Test
    void probeWithCosts() {
        Run r = run("--json", "--always-probe", "--rounds", "8", "--modes", "overwrite-fdatasync", "--histogram",
                "--per-round-counters", "-q", SHM);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(JsonShape.of(r.out())).contains(
                "results[].costs[].mode: string",
                "results[].costs[].blockSize: number",
                "results[].costs[].rounds: number",
                "results[].costs[].latencyRounds: number",
                "results[].costs[].minMicros: number",
                "results[].costs[].p50Micros: number",
                "results[].costs[].p90Micros: number",
                "results[].costs[].p99Micros: number",
                "results[].costs[].maxMicros: number",
                "results[].costs[].roundsPerSecond: number",
                "results[].costs[].write.minMicros: number",
                "results[].costs[].write.p50Micros: number",
                "results[].costs[].write.p90Micros: number",
                "results[].costs[].write.p99Micros: number",
                "results[].costs[].write.maxMicros: number",
                "results[].costs[].sync.minMicros: number",
                "results[].costs[].sync.p50Micros: number",
                "results[].costs[].sync.p90Micros: number",
                "results[].costs[].sync.p99Micros: number",
                "results[].costs[].sync.maxMicros: number",
                "results[].costs[].percentiles[].percentile: number",
                "results[].costs[].percentiles[].micros: number",
                "results[].costs[].flushes: null",
                "results[].costs[].kibWritten: null",
                "results[].costs[].flushesPerSync: null",
                "results[].costs[].backgroundFlushes: null",
                "results[].costs[].idleMillis: number",
                "results[].costs[].devices: []",
                "results[].costs[].histogram[].lowMicros: number",
                "results[].costs[].histogram[].highMicros: number",
                "results[].costs[].histogram[].count: number",
                "results[].costs[].slowestRounds[].round: number",
                "results[].costs[].slowestRounds[].micros: number",
                "results[].costs[].latencyNote: string");
    }

    @Test
    void probeWithThePresetWhereTheFactsDecide() {
        Run r = run("--json", "--preset", "etcd", "-q", SHM);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(JsonShape.of(r.out())).contains(
                "results[].costs: []",
                "results[].preset.name: string",
                "results[].preset.syncP50Micros: null",
                "results[].preset.syncP99Micros: null",
                "results[].preset.limitMicros: number",
                "results[].preset.pass: null");
        assertThat(JsonShape.of(run("--json", "-q", SHM).out())).noneMatch(l -> l.startsWith("results[].preset"));
    }

    @Test
    void sqliteMatrix() {
        Run r = run("sqlite", "--json", "--journal-modes", "WAL", "--synchronous", "FULL", "--fullfsync", "0",
                "--batches", "1", "--rows", "10", "-q", SHM);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(JsonShape.of(r.out())).containsExactlyInAnyOrder(
                "directory: string",
                "verdict: string",
                "verdictSummary: string",
                "sqliteVersion: string",
                "devices: []",
                "rows[].journalMode: string",
                "rows[].synchronous: string",
                "rows[].fullfsync: boolean",
                "rows[].batch: number",
                "rows[].rowsPerSecond: number",
                "rows[].commitsPerSecond: number",
                "rows[].flushesPerCommit: null",
                "rows[].kibPerCommit: null",
                "rows[].rows: number",
                "rows[].commits: number",
                "rows[].seconds: number",
                "rows[].flushes: null",
                "rows[].truncated: boolean",
                "skipped: []",
                "notes[]: string",
                "failure: null",
                "elapsedMillis: number");
    }

    @Test
    void sqliteAudit(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("app.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("create table t(x)");
        }
        assertThat(db).exists();
        Run r = run("sqlite", "--json", "--audit", db.toString());
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(JsonShape.of(r.out())).containsExactlyInAnyOrder(
                "source: string",
                "databaseFile: string",
                "sqliteVersion: string",
                "journalMode: string",
                "synchronous: string",
                "fullfsync: boolean",
                "checkpointFullfsync: boolean",
                "directory: string",
                "verdict: string",
                "verdictSummary: string",
                "survivesApplicationCrash.survives: boolean",
                "survivesApplicationCrash.survival: string",
                "survivesApplicationCrash.reason: string",
                "survivesPowerLoss.survives: boolean",
                "survivesPowerLoss.survival: string",
                "survivesPowerLoss.reason: string",
                "findings[].severity: string",
                "findings[].code: string",
                "findings[].message: string");
        assertThat(Files.exists(db)).isTrue();
    }
}
