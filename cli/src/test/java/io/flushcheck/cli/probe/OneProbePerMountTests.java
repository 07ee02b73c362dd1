package io.flushcheck.cli.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess;
import io.flushcheck.testing.MiniJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two directories on one mount cost one probe, as they do in the JUnit extension. */
class OneProbePerMountTests {

    @Test
    void twoDirectoriesOnOneMountAreProbedOnce() throws IOException {
        Path a = Files.createDirectories(Path.of("target", "one-probe-per-mount", "a").toAbsolutePath());
        Path b = Files.createDirectories(Path.of("target", "one-probe-per-mount", "b").toAbsolutePath());
        InProcess.Run r = InProcess.run("--json", "--modes", "overwrite-fdatasync", "--rounds", "40", a.toString(), b.toString());
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.err().lines().filter(l -> l.contains("overwrite-fdatasync, 40 rounds")))
                .as("one probe: %s", r.err()).containsExactly("flushcheck: " + a + ": overwrite-fdatasync, 40 rounds");
        assertThat(r.err()).contains("flushcheck: " + b + " is on the mount of " + a + ": judged with its probe");
        List<Object> results = MiniJson.array(MiniJson.object(MiniJson.parse(r.out())).get("results"));
        assertThat(results).hasSize(2);
        assertThat(MiniJson.object(results.get(0)).get("path")).isEqualTo(a.toString());
        assertThat(MiniJson.object(results.get(1)).get("path")).isEqualTo(b.toString());
        assertThat(MiniJson.object(results.get(1)).get("costs")).as("the same measurement")
                .isEqualTo(MiniJson.object(results.get(0)).get("costs"));
    }

    @Test
    void theSecondDirectorysReportPointsAtTheFirstsCostsInsteadOfPrintingThemAgain() throws IOException {
        Path a = Files.createDirectories(Path.of("target", "one-probe-per-mount", "text-a").toAbsolutePath());
        Path b = Files.createDirectories(Path.of("target", "one-probe-per-mount", "text-b").toAbsolutePath());
        InProcess.Run r = InProcess.run("--quiet", "--modes", "overwrite-fdatasync,append-fsync", "--rounds", "40",
                a.toString(), b.toString());
        assertThat(r.exit()).as("%s", r).isZero();
        String second = r.out().substring(r.out().indexOf("== " + b));
        assertThat(r.out().indexOf("== " + b)).as(r.out()).isPositive();
        assertThat(r.out().lines().filter(l -> l.startsWith("overwrite-fdatasync: 40 rounds"))).as(r.out()).hasSize(1);
        assertThat(second).contains("verdict: ").contains("costs: those of " + a + " above (the same mount, one probe)")
                .doesNotContain("overwrite-fdatasync: 40 rounds");
    }
}
