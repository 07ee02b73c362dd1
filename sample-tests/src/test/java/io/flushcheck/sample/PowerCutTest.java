package io.flushcheck.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.flushcheck.powercut.RepeatedPowerCut;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The application's durability promises, tested the only way that proves them: by cutting the power. */
@SimulatedPowerLoss(sizeMiB = 64)
class PowerCutTest {

    @Test
    void everyAcknowledgedJournalRecordSurvives(SimulatedDisk disk) throws Exception {
        try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
            for (String r : List.of("one", "two", "three")) {
                journal.append(r.getBytes(StandardCharsets.UTF_8));
            }
        }
        Path survivor = disk.cutPower(11);
        try (Journal journal = Journal.open(survivor.resolve("journal"))) {
            assertEquals(List.of("one", "two", "three"),
                    journal.readAll().stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList());
        }
    }

    /** The power goes at each flush of the journal's appends in turn: no acknowledged record is ever lost. */
    @RepeatedPowerCut(times = 10)
    void atEveryCrashPointTheAcknowledgedJournalRecordsSurvive(SimulatedDisk disk) throws Exception {
        List<String> acknowledged = new ArrayList<>();
        try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
            for (int i = 0; i < 8; i++) {
                journal.append(("record " + i).getBytes(StandardCharsets.UTF_8));
                acknowledged.add("record " + i);
            }
        } catch (IOException powerWentMidWorkload) {
            // the syncs after the cut fail: nothing more was acknowledged
        }
        Path survivor = disk.cutPower();
        try (Journal journal = Journal.open(survivor.resolve("journal"))) {
            List<String> kept = journal.readAll().stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
            assertEquals(acknowledged, kept.subList(0, Math.min(kept.size(), acknowledged.size())));
            assertEquals(true, kept.size() >= acknowledged.size(), "kept " + kept + ", acknowledged " + acknowledged);
        }
    }

    @Test
    void aCommittedSettingSurvives(SimulatedDisk disk) throws Exception {
        try (SettingsStore store = SettingsStore.open(disk.path().resolve("settings.db"))) {
            store.put("theme", "dark");
            Path survivor = disk.cutPower();
            try (SettingsStore after = SettingsStore.open(survivor.resolve("settings.db"))) {
                assertEquals("dark", after.get("theme").orElse(null));
            }
        }
    }

    @Test
    void aSnapshotReplacedWholeSurvives(SimulatedDisk disk) throws Exception {
        new SnapshotFile(disk.path().resolve("snapshot")).write("v1");
        Path survivor = disk.cutPower();
        assertEquals("v1", new SnapshotFile(survivor.resolve("snapshot")).read());
    }

    /** The broken snapshot passes any test that keeps the power on; a cut right after it returns loses it. */
    @Test
    void aSnapshotWhoseRenameIsNotSyncedIsCaught(SimulatedDisk disk) throws Exception {
        new SnapshotFile.WithoutDirectorySync(disk.path().resolve("snapshot")).write("v1");
        assertEquals("v1", new SnapshotFile(disk.path().resolve("snapshot")).read(), "with the power on, it looks fine");
        Path survivor = disk.cutPower();
        assertNotEquals("v1", new SnapshotFile(survivor.resolve("snapshot")).read(),
                "the harness must see the acknowledged snapshot lost");
    }
}
