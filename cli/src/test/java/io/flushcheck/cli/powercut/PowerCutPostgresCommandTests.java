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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/** {@code flushcheck powercut postgres} against Debian's PostgreSQL: its rows, its JSON, its page, its usage errors. */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutPostgresCommandTests {

    @TempDir
    Path tmp;

    @Test
    void eachRowOfSettingsIsMeasuredAndReported() throws Exception {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Files.isDirectory(Path.of("/usr/lib/postgresql")), "PostgreSQL's server (apt-get install postgresql)");
        Path page = tmp.resolve("pg.html");
        Run r = run("powercut", "postgres", "--json", "--cuts", "2", "--seed", "5", "--row", "", "--row", "fsync=off",
                "--html", page.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(json.get("seed")).isEqualTo(5L);
        List<Object> rows = MiniJson.array(json.get("rows"));
        assertThat(rows).hasSize(2);
        Map<String, Object> defaults = MiniJson.object(rows.get(0));
        assertThat(defaults.keySet()).containsExactly("settings", "cuts", "acknowledged", "lost", "cutsThatLost",
                "maxLostInOneCut", "recovered");
        assertThat(MiniJson.array(defaults.get("settings"))).isEmpty();
        assertThat(defaults.get("lost")).isEqualTo(0L);
        assertThat(defaults.get("recovered")).isEqualTo(2L);
        Map<String, Object> noFsync = MiniJson.object(rows.get(1));
        assertThat(MiniJson.array(noFsync.get("settings"))).containsExactly("fsync=off");
        assertThat((Long) noFsync.get("lost")).isPositive();
        assertThat(r.err()).contains("fsync=off: 2 cuts");
        assertThat(Files.readString(page)).contains("PostgreSQL under power cuts").contains("<th>fsync=off</th>");
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void aRowThatIsNoSettingsIsABadUsage() {
        Run r = run("powercut", "postgres", "--row", "fsync=off,nonsense");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--row: a setting is name=value, like synchronous_commit=off, not 'nonsense'");
    }

    @Test
    void aSettingTheServerDoesNotKnowIsABadUsageBeforeAnythingRuns() {
        Requirements.require(Files.isDirectory(Path.of("/usr/lib/postgresql")), "PostgreSQL's server (apt-get install postgresql)");
        Run r = run("powercut", "postgres", "--row", "fsync=off", "--row", "nosuch_setting=1,fsync=on,zero_damaged_pages=off,myext.flag=1");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("--row: the server in ").contains(" has no setting named nosuch_setting (postgres"
                + " --describe-config lists them)").doesNotContain("rows of");
    }

    @Test
    void aBinDirectoryWithoutAServerIsSaidSo() {
        Run r = run("powercut", "postgres", "--pg-bindir", tmp.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains(tmp + " holds no PostgreSQL server");
    }
}
