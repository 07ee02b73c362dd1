package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.report.Json;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.PowerCutMatrix;
import io.flushcheck.sqlite.Synchronous;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exact JSON of {@code flushcheck powercut --json} and {@code flushcheck powercut sqlite --json} for outcomes
 * made by hand: every field's name, place and value, and {@code repeat} only on a cut that failed. (The commands'
 * own tests run real cuts, which need root and FUSE.)
 */
class PowerCutJsonTests {

    @Test
    void theCutsJsonHasEveryFieldInItsPlaceAndARepeatLineOnlyWhereACutFailed() {
        PowerCutCommand c = new PowerCutCommand();
        c.verify = "test -s {dir}/log";
        c.command = List.of("sh", "-c", "sync");
        c.disk.model = DiskModel.BLOCK;
        CutOutcome passed = new CutOutcome(1, 7, 3, "flush", null, "tail", 3, 4096, 0, 0, "ok", null, false);
        CutOutcome failed = new CutOutcome(2, 8, 9, "exit", 1, "", 5, 0, 8192, null, "", "the survivor would not mount", false,
                "", List.of("rename value.tmp -> value, no sync after it", "8 bytes at offset 0 of value.tmp, file not synced"));
        assertThat(Json.write(c.json(List.of(passed, failed), 7, 12L))).isEqualTo("""
                {
                  "command": [
                    "sh",
                    "-c",
                    "sync"
                  ],
                  "verify": "test -s {dir}/log",
                  "model": "block",
                  "rules": null,
                  "fs": "ext4",
                  "sizeMiB": 256,
                  "atomicWriteBytes": 4096,
                  "seed": 7,
                  "mode": "at-random",
                  "flushesWithPowerOn": 12,
                  "powerOnChecked": true,
                  "cuts": [
                    {
                      "cut": 1,
                      "seed": 7,
                      "afterFlushes": 3,
                      "cutAt": "flush",
                      "commandExit": null,
                      "flushes": 3,
                      "discardedBytes": 4096,
                      "keptBytes": 0,
                      "verifyExit": 0,
                      "passed": true,
                      "verifyOutput": "ok",
                      "failure": null
                    },
                    {
                      "cut": 2,
                      "seed": 8,
                      "afterFlushes": 9,
                      "cutAt": "exit",
                      "commandExit": 1,
                      "flushes": 5,
                      "discardedBytes": 0,
                      "keptBytes": 8192,
                      "verifyExit": null,
                      "passed": false,
                      "verifyOutput": "",
                      "failure": "the survivor would not mount",
                      "discarded": [
                        "rename value.tmp -> value, no sync after it",
                        "8 bytes at offset 0 of value.tmp, file not synced"
                      ],
                      "repeat": "flushcheck powercut --model block --cuts 1 --after-flushes 9 --seed 8 --verify 'test -s {dir}/log' -- sh -c sync"
                    }
                  ],
                  "passed": 1,
                  "failed": 1
                }
                """);
    }

    @Test
    void cutsAfterAGivenFlushHaveNoFlushesWithPowerOn() {
        PowerCutCommand c = new PowerCutCommand();
        c.disk.sizeMib = 64;
        c.afterFlushes = 2L;
        assertThat(Json.write(c.json(List.of(), 3, null))).contains("\"sizeMiB\": 64,", "\"verify\": null,",
                "\"mode\": \"after-flushes\",", "\"flushesWithPowerOn\": null,", "\"cuts\": [],")
                .as("no run with the power on, so nothing to say of its check").doesNotContain("powerOnChecked");
    }

    @Test
    void aRunWithThePowerOnThatWasNotCheckedSaysSo() {
        PowerCutCommand c = new PowerCutCommand();
        c.noPowerOnCheck = true;
        assertThat(Json.write(c.json(List.of(), 3, 40L))).contains("\"flushesWithPowerOn\": 40,\n  \"powerOnChecked\": false,");
    }

    @Test
    void onTheFileModelTheJsonNamesTheRulesAndEachCutsNoteOnWhatOnlyThoseRulesLost() {
        PowerCutCommand c = new PowerCutCommand();
        c.disk.model = DiskModel.FILE;
        c.rules.rules = FileRules.POSIX;
        c.verify = "test -s {dir}/v";
        c.command = List.of("store", "{dir}");
        CutOutcome cut = new CutOutcome(1, 5, 1000, "exit", 0, "", 4, 0, 0, 1, "", null, false,
                "the POSIX rules lost 1 name change", List.of("rename v.tmp -> v in ., directory not synced"));
        String json = Json.write(c.json(List.of(cut), 5, null));
        assertThat(json).contains("\"model\": \"file\",\n  \"rules\": \"posix\",\n  \"fs\"")
                .contains("\"failure\": null,\n      \"lost\": \"the POSIX rules lost 1 name change\",\n      \"discarded\": [")
                .contains("--model file --rules posix --cuts 1");
        CutOutcome quiet = new CutOutcome(1, 5, 1000, "exit", 0, "", 4, 0, 0, 0, "", null, false);
        assertThat(Json.write(c.json(List.of(quiet), 5, null))).as("no note, no field").doesNotContain("\"lost\"");
        assertThat(Json.write(PowerCutSqliteCommand.json("journaled", List.of(), 1))).startsWith("""
                {
                  "rules": "journaled",
                  "seed": 1,""");
    }

    @Test
    void theSqliteMatrixJsonIsTheSeedAndOneRowPerCell() {
        PowerCutMatrix.Row row = new PowerCutMatrix.Row(JournalMode.WAL, Synchronous.NORMAL, 20, 2089, 4, 3, 2, 0);
        assertThat(Json.write(PowerCutSqliteCommand.json(null, List.of(row), 42))).isEqualTo("""
                {
                  "rules": null,
                  "seed": 42,
                  "rows": [
                    {
                      "journalMode": "WAL",
                      "synchronous": "NORMAL",
                      "cuts": 20,
                      "acknowledged": 2089,
                      "lost": 4,
                      "cutsThatLost": 3,
                      "maxLostInOneCut": 2,
                      "corrupt": 0
                    }
                  ]
                }
                """);
    }
}
