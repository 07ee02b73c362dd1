package io.flushcheck.powercut;

import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * What the tests of {@code @CorruptedBlocks} share: what their fixtures need to run, the journal those fixtures
 * write and read back after the cut, and the damage each invocation reports.
 */
final class CorruptedBlocksRuns {

    /** 300 records of about 30 bytes with their checksums: two 4 KiB blocks of journal, four sites with both kinds. */
    static final List<String> RECORDS = IntStream.range(0, 300).mapToObj(i -> "record " + i + " of 300").toList();

    private CorruptedBlocksRuns() {
    }

    /** What the fixtures on the file model's FUSE mounts need: /dev/fuse and a fusermount. */
    static void requireFuse() {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(SimulatedDisk.fusermount() != null, "fusermount3 or fusermount");
    }

    /**
     * Appends {@link #RECORDS} to a journal, with their checksums where {@code checked}, cuts the power, reads the
     * journal back and adds what that came to to {@code outcomes}; fails where a record is silently lost or wrong.
     */
    static void journal(SimulatedDisk disk, boolean checked, List<ReadBack.Outcome> outcomes) throws Exception {
        AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
        LineJournal.append(disk.path().resolve("journal"), RECORDS, checked, acks);
        Path survivor = disk.cutPower();
        ReadBack read = acks.readBack(() -> LineJournal.read(survivor.resolve("journal"), checked));
        outcomes.add(read.outcome());
        read.assertNotSilent();
    }

    /** The report entry {@code flushcheck.faults.block} of each invocation, by display name. */
    static Map<String, String> damage(Events events) {
        Map<String, String> m = new TreeMap<>();
        for (Event e : events.reportingEntryPublished().list()) {
            String v = e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("flushcheck.faults.block");
            if (v != null) {
                m.put(FixtureRuns.name(e), v);
            }
        }
        return m;
    }
}
