package io.flushcheck.cli;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.MountTable;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.ProbeLeftovers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The flushcheck command end to end: in-process through {@link Main#run}, and in a child JVM. */
class CommandTests {

    private static final String HINT = " (see flushcheck --help)\n";
    private static Path disk;

    @BeforeAll
    static void dirs() throws IOException {
        disk = Files.createDirectories(Path.of("target", "cli-disk").toAbsolutePath());
    }

    private static void assertUsageError(Run r, String message) {
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("flushcheck: " + message + HINT);
    }

    @Test
    void helpListsOptionsAndExitCodes() {
        Run r = run("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("usage: flushcheck [probe] [options] [PATH...]\n")
                .contains(SyncMode.allIds().split(", "))
                .contains("--require-real-flush", "--json", "  -V, --version",
                        "  probe   ", "  sqlite  ", "  guests  ",
                        "  2  bad usage, or a path that does not exist or is not a directory (nothing was written)");
        assertThat(r.err()).isEmpty();
        assertThat(run("probe", "--help").out()).as("the default command by name")
                .contains("--require-real-flush", "--block-size=BYTES");
    }

    @Test
    void versionComesFromTheBuild() {
        for (String[] args : new String[][] {{"--version"}, {"-V"}, {"sqlite", "--version"}}) {
            Run r = run(args);
            assertThat(r.exit()).as("%s", r).isZero();
            assertThat(r.out()).as("%s", r).matches("flushcheck \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n");
            assertThat(r.err()).isEmpty();
        }
    }

    @Test
    void theProbeByNameIsTheDefault() {
        Run named = run("probe", "--json", "--quiet", "/dev/shm");
        assertThat(named.exit()).as("%s", named).isZero();
        assertThat(named.out()).contains("\"verdict\": \"NO_REAL_FLUSH\"");
        assertUsageError(run("probe", "--rounds"), "probe: --rounds needs a value");
    }

    @Test
    void aCommandNameAfterPathsOrOptionsIsAnErrorNotADroppedArgument() {
        assertUsageError(run("/dev/shm", "sqlite"),
                "'sqlite' after /dev/shm: the command's name comes first (flushcheck sqlite [options]); a path named sqlite"
                        + " goes after --");
        assertUsageError(run("--json", "guests"),
                "'guests' after --json: the command's name comes first (flushcheck guests [options]); a path named guests"
                        + " goes after --");
    }

    @Test
    void flagsTakeNoValueInAnyCommand() {
        assertUsageError(run("--json=false", "/dev/shm"), "--json takes no value: '--json=false'");
        assertUsageError(run("--quiet=1", "/dev/shm"), "--quiet takes no value: '--quiet=1'");
        assertUsageError(run("sqlite", "--json=false"), "sqlite: --json takes no value: '--json=false'");
        assertUsageError(run("guests", "--json=no"), "guests: --json takes no value: '--json=no'");
    }

    @Test
    void missingPath() {
        assertUsageError(run("/nonexistent/flushcheck-test"), "/nonexistent/flushcheck-test does not exist");
    }

    @Test
    void aRegularFile() throws IOException {
        Path file = Files.writeString(disk.resolve("regular-file"), "x");
        assertUsageError(run(file.toString()),
                file + " is not a directory: flushcheck probes the directory a file would live in");
    }

    @Test
    void aBadPathAfterAGoodOneStopsTheRunBeforeAnythingIsProbed() throws IOException {
        Path good = Files.createDirectories(disk.resolve("good"));
        assertUsageError(run("--rounds", "10", good.toString(), "/nonexistent/flushcheck-test"),
                "/nonexistent/flushcheck-test does not exist");
        assertThat(ProbeLeftovers.in(good)).isEmpty();
    }

    /** The commands that take --host-dir check it as the probe checks its paths, before anything is prepared. */
    @Test
    void aHostDirThatIsNoDirectoryIsRefusedByEachCommandThatTakesOne() throws IOException {
        Path file = Files.writeString(disk.resolve("host-dir-file"), "x");
        for (String command : List.of("vm", "guests")) {
            assertUsageError(run(command, "--host-dir", "/nonexistent/flushcheck-test"),
                    "--host-dir: /nonexistent/flushcheck-test does not exist");
            assertUsageError(run(command, "--host-dir", file.toString()), "--host-dir: " + file
                    + " is not a directory: flushcheck probes the directory a file would live in");
        }
    }

    @Test
    void unknownOption() {
        assertUsageError(run("--frobnicate", "/dev/shm"), "unknown option --frobnicate");
    }

    @Test
    void badRounds() {
        assertUsageError(run("--rounds", "abc", "/dev/shm"), "--rounds takes a whole number from 1 to 1000000, not 'abc'");
        assertUsageError(run("--rounds=0", "/dev/shm"), "--rounds 0 is out of range: use 1 to 1000000");
        assertUsageError(run("--rounds", "2000000", "/dev/shm"), "--rounds 2000000 is out of range: use 1 to 1000000");
        assertUsageError(run("/dev/shm", "--rounds"), "--rounds needs a value");
    }

    @Test
    void badModes() {
        assertUsageError(run("--modes", "append-fsync,fsnyc", "/dev/shm"),
                "--modes: unknown sync mode 'fsnyc'; known modes: " + SyncMode.allIds());
        assertUsageError(run("--modes=", "/dev/shm"), "--modes: no sync mode given; known modes: " + SyncMode.allIds());
    }

    @Test
    void badBlockSizeAndThresholds() {
        assertUsageError(run("--block-size", "100", "/dev/shm"), "--block-size 100 is out of range: use 512 to 67108864");
        assertUsageError(run("--min-flushes-per-sync", "lots", "/dev/shm"),
                "--min-flushes-per-sync takes a number, not 'lots'");
        assertUsageError(run("--min-flushes-per-sync", "0", "/dev/shm"),
                "--min-flushes-per-sync 0.0 is out of range: use a number above 0 and at most 10 (default 0.5)");
        assertUsageError(run("--suspicious-micros", "-3", "/dev/shm"),
                "--suspicious-micros -3.0 is out of range: use a number from 0 to 1000000 (default 20)");
        assertUsageError(run("--block-size", "99999999999999999m", "/dev/shm"),
                "--block-size takes a whole number from 512 to 67108864, not '99999999999999999m'");
        assertUsageError(run("--json=yes", "/dev/shm"), "--json takes no value: '--json=yes'");
        assertUsageError(run("--rounds", "1000000", "--block-size", "1m", "/dev/shm"),
                "1000000 rounds of 1048576 bytes would append 1000000 MiB per mode; keep rounds × block size within 1 GiB");
        assertThat(run("--rounds", "1000000", "--block-size", "512", "--modes", "no-sync", "--quiet", "--json", "/dev/shm").exit())
                .as("rounds and block size are checked together, whatever their order").isZero();
    }

    @Test
    void devShmAsTextNeedsNoProbe() {
        Run r = run("/dev/shm");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("== /dev/shm\n").contains("verdict: NO_REAL_FLUSH (", "  - RAM_FILESYSTEM: /dev/shm is on ",
                "  - NOT_PROBED: no probe ran: the storage facts decide the verdict");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void everyModeOfAPathInOneSummaryTableAfterItsLines() {
        Run r = run("--always-probe", "--rounds", "16", "--modes", "overwrite-fdatasync,no-sync", "-q", "/dev/shm");
        assertThat(r.exit()).as("%s", r).isZero();
        String out = r.out();
        int header = out.indexOf("mode                p50 us p99 us rounds/s flushes/sync KiB/sync\n");
        assertThat(header).as(out).isGreaterThan(out.indexOf("no-sync: 16 rounds of 4 KiB"));
        String[] rows = out.substring(header).split("\n");
        assertThat(rows[1]).as(out).startsWith("overwrite-fdatasync ").matches(".* +- +-");
        assertThat(rows[2]).as(out).startsWith("no-sync             ").matches(".* +- +-");
        assertThat(run("--always-probe", "--rounds", "16", "--modes", "no-sync", "-q", "/dev/shm").out())
                .as("one mode needs no comparison").doesNotContain("flushes/sync KiB/sync");
    }

    @Test
    void requireRealFlushOnDevShmExitsOneWithTheEvidence() {
        MountInfo m = MountTable.live().mountOf("/dev/shm");
        Run r = run("--require-real-flush", "--json", "/dev/shm");
        assertThat(r.exit()).isEqualTo(ExitCodes.NOT_REAL_FLUSH);
        assertThat(r.err()).isEqualTo("flushcheck: /dev/shm is NO_REAL_FLUSH: /dev/shm is on " + m.fsType()
                + " (/dev/shm, mount " + m.mountId() + "): syncs reach no device\n");
        Object result = MiniJson.array(MiniJson.object(MiniJson.parse(r.out())).get("results")).get(0);
        assertThat(MiniJson.object(result).get("verdict")).isEqualTo("NO_REAL_FLUSH");
    }

    /** The CI gate the README and the guide show, quiet. */
    @Test
    void requireRealFlushOnTheDiskExitsZero() {
        Run r = run(DocumentedCommand.of(CommandTests.class, "ci-gate").with("$DATA_DIR", disk).adding("--quiet").args());
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.out()).contains("verdict: REAL_FLUSH (", "overwrite-fdatasync: 100 rounds of 4 KiB, ");
        assertThat(r.err()).isEmpty();
        assertThat(ProbeLeftovers.in(disk)).isEmpty();
    }

    @Test
    void jsonHasTheContractFieldsAndProgressGoesToStderr() {
        Run r = run("--json", "--modes", "overwrite-fdatasync,no-sync", "--rounds", "50", disk.toString(), "/dev/shm");
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.err()).isEqualTo("flushcheck: " + disk + ": overwrite-fdatasync, 50 rounds\n"
                + "flushcheck: " + disk + ": no-sync, 50 rounds\n");
        Map<String, Object> root = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(root).containsOnlyKeys("results");
        List<Object> results = MiniJson.array(root.get("results"));
        assertThat(results).hasSize(2);

        Map<String, Object> d = MiniJson.object(results.get(0));
        assertThat(d).containsKeys("path", "verdict", "elapsedMillis", "findings", "storage", "costs");
        assertThat(d.get("path")).isEqualTo(disk.toString());
        assertThat(d.get("verdict")).isEqualTo("REAL_FLUSH");
        assertThat(d.get("elapsedMillis")).isInstanceOf(Long.class);
        List<Object> findings = MiniJson.array(d.get("findings"));
        assertThat(findings).isNotEmpty().allSatisfy(f -> assertThat(MiniJson.object(f)).containsKeys("code", "message"));
        assertThat(MiniJson.object(findings.get(0)).get("code")).isEqualTo("FLUSHES_REACHED");
        Map<String, Object> storage = MiniJson.object(d.get("storage"));
        assertThat(storage).containsKeys("fsType", "mountPoint", "device");
        MountInfo m = MountTable.live().mountOf(disk.toString());
        assertThat(storage.get("fsType")).isEqualTo(m.fsType());
        assertThat(storage.get("mountPoint")).isEqualTo(m.mountPoint());
        List<Object> costs = MiniJson.array(d.get("costs"));
        assertThat(costs).hasSize(2);
        for (Object o : costs) {
            assertThat(MiniJson.object(o)).containsKeys("mode", "blockSize", "rounds", "p50Micros", "p99Micros", "maxMicros",
                    "roundsPerSecond", "flushes", "kibWritten");
        }
        Map<String, Object> overwrite = MiniJson.object(costs.get(0));
        assertThat(overwrite.get("mode")).isEqualTo("overwrite-fdatasync");
        assertThat(overwrite.get("blockSize")).isEqualTo(4096L);
        assertThat(overwrite.get("rounds")).isEqualTo(50L);
        assertThat(((Number) overwrite.get("flushes")).longValue()).isGreaterThanOrEqualTo(50);
        assertThat(((Number) overwrite.get("kibWritten")).longValue()).isGreaterThanOrEqualTo(200);
        assertThat(((Number) overwrite.get("p50Micros")).doubleValue()).isPositive()
                .isLessThanOrEqualTo(((Number) overwrite.get("p99Micros")).doubleValue());
        assertThat(((Number) overwrite.get("roundsPerSecond")).doubleValue()).isPositive();

        Map<String, Object> shm = MiniJson.object(results.get(1));
        assertThat(shm.get("verdict")).isEqualTo("NO_REAL_FLUSH");
        assertThat(MiniJson.array(shm.get("costs"))).isEmpty();
        assertThat(MiniJson.object(shm.get("storage")).get("device")).isNull();
        assertThat(MiniJson.object(MiniJson.array(shm.get("findings")).get(0)).get("code")).isEqualTo("RAM_FILESYSTEM");
        assertThat(ProbeLeftovers.in(disk)).isEmpty();
    }

    @Test
    void aChildJvmRunsTheCommandWithRealExitCodes() {
        ChildJvm.Result ok = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--json", "--modes", "overwrite-fdatasync", "--rounds", "50", disk.toString())), 60);
        assertThat(ok.exit()).as("%s", ok).isZero();
        Map<String, Object> result = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(ok.stdout()))
                .get("results")).get(0));
        assertThat(result.get("verdict")).as("%s", ok).isEqualTo("REAL_FLUSH");
        assertThat(ok.stderr()).isEqualTo("flushcheck: " + disk + ": overwrite-fdatasync, 50 rounds\n");

        ChildJvm.Result bad = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--rounds", "abc", disk.toString())), 60);
        assertThat(bad.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.stdout()).isEmpty();
        assertThat(bad.stderr()).isEqualTo("flushcheck: --rounds takes a whole number from 1 to 1000000, not 'abc'" + HINT);

        ChildJvm.Result gate = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--require-real-flush", "/dev/shm")), 60);
        assertThat(gate.exit()).isEqualTo(ExitCodes.NOT_REAL_FLUSH);
        assertThat(gate.stderr()).startsWith("flushcheck: /dev/shm is NO_REAL_FLUSH: /dev/shm is on tmpfs (");
        assertThat(ProbeLeftovers.in(disk)).isEmpty();
    }

    @Test
    void sigtermDuringAProbeLeavesNoFile() throws Exception {
        Path dir = Files.createDirectories(disk.resolve("sigterm"));
        for (String leftover : ProbeLeftovers.in(dir)) { // an earlier run of this test that was killed
            Files.delete(dir.resolve(leftover));
        }
        List<String> cmd = ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--quiet", "--modes", "overwrite-fdatasync", "--rounds", "250000", dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            List<String> seen = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (seen.isEmpty() && System.nanoTime() < deadline && p.isAlive()) {
                seen.addAll(ProbeLeftovers.in(dir));
                Thread.sleep(20);
            }
            assertThat(seen).as("a probe file (and its idle windows' control file) while the child runs").hasSizeBetween(1, 2);
            Thread.sleep(200);
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(143);
            assertThat(ProbeLeftovers.in(dir)).isEmpty();
        } finally {
            p.destroyForcibly();
        }
    }
}
