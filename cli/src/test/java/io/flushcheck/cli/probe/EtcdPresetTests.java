package io.flushcheck.cli.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.JsonInput;
import io.flushcheck.testing.Checks;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code --preset etcd}: etcd's fio recipe, 2,300-byte writes with fdatasync over 22 MiB, gated at 10 ms. */
class EtcdPresetTests {

    @Test
    @SuppressWarnings("unchecked")
    void thePresetMeasuresEtcdsRecipeAndGatesTheFdatasyncAloneAt10Ms() throws Exception {
        Path dir = Checks.freshDir(Path.of("target", "etcd-preset").toAbsolutePath(), "disk");
        InProcess.Run json = InProcess.run("--preset", "etcd", "--json", "--quiet", dir.toString());
        assertThat(json.exit()).as(json.err()).isZero();
        Map<String, Object> r = ((List<Map<String, Object>>) JsonInput.parseObject(json.out()).get("results")).get(0);
        Map<String, Object> cost = ((List<Map<String, Object>>) r.get("costs")).get(0);
        assertThat(cost).containsEntry("mode", "append-fdatasync");
        // fio writes whole blocks: 22 MiB / 2,300 bytes = 10,029 of them; a busy device may add remeasures.
        assertThat(((Number) cost.get("blockSize")).intValue()).isEqualTo(2300);
        assertThat(((Number) cost.get("rounds")).intValue()).isIn(10_029, 4 * 10_029, 16 * 10_029);
        assertThat(((Number) cost.get("latencyRounds")).intValue()).isPositive()
                .isLessThan(((Number) cost.get("rounds")).intValue());
        Map<String, Object> preset = (Map<String, Object>) r.get("preset");
        Map<String, Object> sync = (Map<String, Object>) cost.get("sync");
        assertThat(preset).containsEntry("name", "etcd").containsEntry("limitMicros", 10000L)
                .containsEntry("syncP99Micros", sync.get("p99Micros")).containsEntry("syncP50Micros", sync.get("p50Micros"));
        double p99 = ((Number) preset.get("syncP99Micros")).doubleValue();
        assertThat(preset).containsEntry("pass", p99 < 10_000);
        // The sync alone is part of the whole round: never slower than it, at every percentile.
        assertThat(p99).isLessThanOrEqualTo(((Number) cost.get("p99Micros")).doubleValue());

        InProcess.Run text = InProcess.run("--preset", "etcd", "--quiet", dir.toString(), "/dev/shm");
        assertThat(text.exit()).as(text.err()).isZero();
        Matcher line = Pattern.compile("(?m)^etcd: REAL_FLUSH, fdatasync p50 [0-9.]+ ms, p99 [0-9.]+ ms over ([0-9]+) of "
                + "([0-9]+) writes of 2300 bytes \\(the ([0-9]+) right after the probe's idle windows left out\\) in a file "
                + "laid out as fio's: (PASS \\(p99 under 10 ms\\)|FAIL \\(p99 at or over 10 ms\\))$").matcher(text.out());
        assertThat(line.find()).as(text.out()).isTrue();
        // The first sync after each of the probe's idle windows is left out of the figures, and the line says so.
        long kept = Long.parseLong(line.group(1));
        long all = Long.parseLong(line.group(2));
        assertThat(all).isIn(10_029L, 4 * 10_029L, 16 * 10_029L);
        assertThat(Long.parseLong(line.group(3))).isPositive().isEqualTo(all - kept);
        assertThat(text.out()).contains("etcd: NO_REAL_FLUSH, fdatasync not measured: the storage facts decided");
    }

    @Test
    void thePresetLaysOutItsFileAsFioDoesForItsJob() {
        // fio --rw=write preallocates the job's whole file (fallocate(fd, 0, 0, 22 MiB), seen with strace) and writes it
        // from its start in the whole blocks that fit: the plan asks for that layout (PreallocatedLayoutTests checks
        // it on disk).
        ProbePlan plan = EtcdPreset.plan(5);
        assertThat(plan.modes()).containsExactly(SyncMode.APPEND_FDATASYNC);
        assertThat(plan.blockSize()).isEqualTo(2300);
        assertThat(plan.rounds()).isEqualTo((22 << 20) / 2300);
        assertThat(plan.preallocate()).isTrue();
        assertThat(plan.layoutBytes()).isEqualTo(22L << 20);
    }

    @Test
    void thePresetSetsTheModeRoundsAndBlockSizeItself() {
        InProcess.Run mixed = InProcess.run("--preset", "etcd", "--rounds", "10", "/dev/shm");
        assertThat(mixed.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(mixed.err()).contains("--preset etcd sets the mode, the rounds and the block size");
        InProcess.Run unknown = InProcess.run("--preset", "postgres", "/dev/shm");
        assertThat(unknown.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("unknown preset 'postgres'; known presets: etcd");
    }
}
