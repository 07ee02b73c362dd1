package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.message;
import static io.flushcheck.powercut.FixtureRuns.name;
import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** @RepeatedPowerCut as a user's test meets it: run through the test kit, on real mounts. */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class RepeatedPowerCutTests {

    private static final int RECORDS = 6;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    /** Report entries by invocation display name. */
    private static Map<String, Map<String, String>> entries(Events events) {
        return events.reportingEntryPublished().stream().collect(Collectors.toMap(FixtureRuns::name,
                e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs(),
                (a, b) -> {
                    Map<String, String> m = new java.util.TreeMap<>(a);
                    m.putAll(b);
                    return m;
                }));
    }

    @Test
    void eachInvocationCutsAFreshDiskAtADistinctFlushOfTheWorkload() {
        Fixtures.Honest.SURVIVED.clear();
        Events events = run(Fixtures.Honest.class, Map.of());
        events.assertStatistics(s -> s.started(9).succeeded(9));
        List<String> names = events.started().stream().map(FixtureRuns::name).toList();
        assertThat(names.get(0)).isEqualTo("[1] power cut after the workload");
        Pattern after = Pattern.compile("\\[\\d+] power cut after flush (\\d+) of (\\d+)");
        Pattern during = Pattern.compile("\\[\\d+] power cut during flush (\\d+) of (\\d+), seed -?\\d+");
        Set<Long> afterFlushes = new HashSet<>();
        int duringPoints = 0;
        for (String n : names.subList(1, names.size())) {
            Matcher m = after.matcher(n);
            if (m.matches()) {
                assertThat(afterFlushes.add(Long.parseLong(m.group(1)))).as("a distinct flush: %s", n).isTrue();
            } else {
                assertThat(n).matches(during);
                duringPoints++;
            }
        }
        assertThat(afterFlushes).hasSize(4);
        assertThat(duringPoints).isEqualTo(4);

        Map<String, Map<String, String>> entries = entries(events);
        assertThat(entries.get(names.get(0)).get("flushcheck.powercut.point")).matches("power cut after the workload \\(\\d+ flushes\\)");
        for (String n : names.subList(1, names.size())) {
            Map<String, String> e = entries.get(n);
            assertThat(e.get("flushcheck.powercut.point")).as(n).doesNotContain("not reached");
            assertThat(e.get("flushcheck.powercut.1")).as("a real cut, at the armed flush: %s", n).contains("(armed)");
        }
        assertThat(Fixtures.Honest.SURVIVED).as("records that survived each cut").hasSize(9);
        assertThat(new HashSet<>(Fixtures.Honest.SURVIVED)).as("different cuts kept different records").hasSizeGreaterThan(2);
        assertThat(Fixtures.Honest.SURVIVED.get(0)).as("the cut at the end keeps every record").isEqualTo(RECORDS);
    }

    @Test
    void aStoreThatAcknowledgesBeforeItSyncsPassesTheCutAtTheEndAndIsCaughtMidWorkload() {
        Events events = run(Fixtures.AcknowledgesBeforeSync.class, Map.of());
        List<Event> started = events.started().list();
        assertThat(events.succeeded().stream().map(FixtureRuns::name)).as("everything was synced by the end")
                .contains("[1] power cut after the workload");
        assertThat(events.failed().count()).as("invocations that caught it, of %d", started.size()).isPositive();
        String message = message(events.failed().list().get(0));
        assertThat(message).contains("acknowledged records").contains("power cut ").contains("(armed)")
                .contains("to repeat only this invocation: @RepeatedPowerCut(point = \"");
    }

    @Test
    void theFileModelSweepsTheSameWorkloadsAndCatchesTheSameStore() {
        Fixtures.Honest.SURVIVED.clear();
        run(Fixtures.HonestOnFiles.class, Map.of()).assertStatistics(s -> s.started(9).succeeded(9));
        assertThat(new HashSet<>(Fixtures.Honest.SURVIVED)).as("different cuts kept different records").hasSizeGreaterThan(2);
        Events broken = run(Fixtures.AcknowledgesBeforeSyncOnFiles.class, Map.of());
        assertThat(broken.failed().count()).as("invocations that caught it").isPositive();
        assertThat(message(broken.failed().list().get(0))).contains("acknowledged records");
    }

    @Test
    void theFailingMessageNamesThePointThatRepeatsExactlyThatInvocation() {
        Events sweep = run(Fixtures.AcknowledgesBeforeSync.class, Map.of());
        Event failed = sweep.failed().list().get(0);
        Matcher m = Pattern.compile("@RepeatedPowerCut\\(point = \"([^\"]+)\"\\)").matcher(message(failed));
        assertThat(m.find()).isTrue();
        String point = m.group(1);

        Events again = run(Fixtures.AcknowledgesBeforeSync.class, Map.of(RepeatedPowerCut.POINT_PARAMETER, point));
        again.assertStatistics(s -> s.started(1).failed(1));
        assertThat(name(again.started().list().get(0))).isEqualTo("[1] power cut " + point);
        String cut = message(failed).lines().filter(l -> l.startsWith("power cut ")).findFirst().orElseThrow();
        assertThat(message(again.failed().list().get(0))).as("the same cut again")
                .contains(cut.substring(cut.indexOf(": ") + 2));
    }

    @Test
    void aComposedAnnotationCarriesTheSweepAndTheDisk() {
        Events events = run(Fixtures.Composed.class, Map.of());
        events.assertStatistics(s -> s.started(3).succeeded(3));
        assertThat(events.started().stream().map(FixtureRuns::name).toList().get(1)).startsWith("[2] power cut after flush ");
    }

    @Test
    void aTestThatNeverCutsIsToldToAndNotRepeated() {
        Events events = run(Fixtures.NeverCuts.class, Map.of());
        events.assertStatistics(s -> s.started(1).failed(1));
        assertThat(message(events.failed().list().get(0))).contains("the test made no power cut")
                .contains("disk.cutPower()");
    }

    /** Appends RECORDS records, each synced; honest ones acknowledge after the sync, broken ones before. */
    static int appendRecords(Path log, boolean acknowledgeFirst) {
        int acknowledged = 0;
        for (int i = 1; i <= RECORDS; i++) {
            try (FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                ch.write(ByteBuffer.wrap(("record " + i + "\n").getBytes(StandardCharsets.UTF_8)));
                if (acknowledgeFirst) {
                    acknowledged++;
                }
                ch.force(true);
                if (i == 1) {
                    try (FileChannel dir = FileChannel.open(log.getParent(), StandardOpenOption.READ)) {
                        dir.force(true);
                    }
                }
                if (!acknowledgeFirst) {
                    acknowledged++;
                }
            } catch (IOException powerGone) {
                return acknowledged;
            }
        }
        return acknowledged;
    }

    static int survivingRecords(Path survivor, int acknowledged) throws IOException {
        Path log = survivor.resolve("log");
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= lines.size(); i++) {
            expected.add("record " + i);
        }
        assertThat(lines).as("the log is whole records in order").isEqualTo(expected);
        assertThat(lines.size()).as("acknowledged records survive").isGreaterThanOrEqualTo(acknowledged);
        return lines.size();
    }

    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @RepeatedPowerCut(times = 3, sweep = RepeatedPowerCut.Sweep.FLUSHES)
    @SimulatedPowerLoss(sizeMiB = 48)
    @interface SweptOnASmallDisk {
    }

    static class Fixtures {

        @SimulatedPowerLoss(sizeMiB = 32)
        static class Honest {
            static final List<Integer> SURVIVED = new CopyOnWriteArrayList<>();

            @RepeatedPowerCut(times = 9, seed = 7)
            void everyAcknowledgedRecordSurvives(SimulatedDisk disk) throws IOException {
                try (var s = Files.list(disk.path())) {
                    assertThat(s).as("a fresh disk").isEmpty();
                }
                int acknowledged = appendRecords(disk.path().resolve("log"), false);
                SURVIVED.add(survivingRecords(disk.cutPower(), acknowledged));
            }
        }

        @SimulatedPowerLoss(sizeMiB = 32)
        static class AcknowledgesBeforeSync {
            @RepeatedPowerCut(times = 9, seed = 7)
            void everyAcknowledgedRecordSurvives(SimulatedDisk disk) throws IOException {
                int acknowledged = appendRecords(disk.path().resolve("log"), true);
                survivingRecords(disk.cutPower(), acknowledged);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class HonestOnFiles extends Honest {
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class AcknowledgesBeforeSyncOnFiles extends AcknowledgesBeforeSync {
        }

        static class Composed {
            @SweptOnASmallDisk
            void sweptOnASmallDisk(SimulatedDisk disk) throws IOException {
                long total = Files.getFileStore(disk.path()).getTotalSpace();
                assertThat(total).as("the composed annotation's 48 MiB").isBetween(32L << 20, 48L << 20);
                int acknowledged = appendRecords(disk.path().resolve("log"), false);
                survivingRecords(disk.cutPower(), acknowledged);
            }
        }

        static class NeverCuts {
            @RepeatedPowerCut(times = 5)
            void forgetsToCut(SimulatedDisk disk) {
                appendRecords(disk.path().resolve("log"), false);
            }
        }
    }
}
