package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.powercut.internal.kernel.LoopDevices;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every crash state of one recorded run, on ext4: a log that syncs its records before committing them
 * passes each; one that commits them in the same epoch fails in a state that only a drive writing out of
 * order reaches, which a seeded sweep of as many cuts misses.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class CrashStatesTests {

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static Path work(String name) {
        return Path.of("/dev/shm", "flushcheck-states-" + name + "-" + ProcessHandle.current().pid());
    }

    /**
     * ext4 with 4 KiB blocks, as on any disk above 512 MiB: mke2fs gives a drive this small 1 KiB blocks, and
     * a 4 KiB write of a file then straddles two of the drive's sectors, reaching it as two writes.
     */
    private static SimulatedDisk disk(String name, int atomicWriteBytes) throws IOException {
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).mkfsOptions("-b", "4096")
                .atomicWriteBytes(atomicWriteBytes).create(work(name));
    }

    private static SimulatedDisk disk(String name) throws IOException {
        return disk(name, 4096);
    }

    /** A batch log recorded on {@code disk}, each record synced before its commit where {@code careful}. */
    private static CrashStates recordedLog(SimulatedDisk disk, boolean careful) throws Exception {
        Path log = disk.path().resolve("log");
        BatchLog.create(log);
        return disk.recordCrashStates(acks -> BatchLog.appendAll(log, careful, acks));
    }

    /** Every record acknowledged at a state's flushes is in its log, and none nobody wrote. */
    private static final CrashStates.Verification VERIFIED_LOG = (survivor, mustSurvive) ->
            BatchLog.verify(survivor.resolve("log"), mustSurvive);

    /** Nothing left attached or mounted by the states checked on the disk {@code name}, nor any place of a state. */
    private static void assertNothingLeft(String name, String when) throws IOException {
        assertThat(leftBehind(work(name))).as(when).isEmpty();
        assertThat(statePlaces(work(name))).as(when).isEmpty();
    }

    @Test
    void aLogThatSyncsItsRecordsBeforeTheirCommitPassesEveryState() throws Exception {
        try (SimulatedDisk disk = disk("careful")) {
            CrashStates states = recordedLog(disk, true);
            CrashStateReport report = states.check(1000, VERIFIED_LOG);
            System.out.println("careful log: " + states.writes() + " writes in " + states.epochs() + " epochs; " + report
                    + "; " + String.format("%.1f", report.checked() / report.seconds()) + " states/s; load "
                    + Files.readString(Path.of("/proc/loadavg")).trim());
            report.assertPassed();
            assertThat(report.checked()).isGreaterThan(BatchLog.BATCHES * 2 * BatchLog.BATCH);
            assertThat(report.leftOut()).isZero();
        }
    }

    @Test
    void filesWrittenSyncedRenamedAndTheirDirectorySyncedPassEveryStateAfterJournalReplay() throws Exception {
        try (SimulatedDisk disk = disk("renames")) {
            Path dir = Files.createDirectories(disk.path().resolve("records"));
            CrashStates states = disk.recordCrashStates(acks -> {
                for (int i = 0; i < RENAMED; i++) {
                    RenamedFiles.put(dir, "r" + i, "value " + i);
                    acks.add("r" + i);
                }
            });
            CrashStateReport report = states.check(1000, (survivor, mustSurvive) ->
                    RenamedFiles.verify(survivor.resolve("records"), mustSurvive));
            System.out.println("renamed files: " + states.writes() + " writes in " + states.epochs() + " epochs; " + report
                    + "; " + String.format("%.1f", report.checked() / report.seconds()) + " states/s; load "
                    + Files.readString(Path.of("/proc/loadavg")).trim());
            report.assertPassed();
            assertThat(report.checked()).isGreaterThan(RENAMED);
        }
    }

    private static final int RENAMED = 10;

    /**
     * Without the directory's sync, a state whose epoch lost the journal commit that carries a rename lacks
     * the renamed file: the failure says so by name, against its epoch's state with every write, and names
     * the directory whose sync would have kept it. Only the first few failing states are explained.
     */
    @Test
    void aRenameWithoutItsDirectorysSyncFailsNamingTheFileAndTheDirectorySync() throws Exception {
        try (SimulatedDisk disk = disk("nodirsync")) {
            Path dir = Files.createDirectories(disk.path().resolve("records"));
            CrashStates states = disk.recordCrashStates(acks -> {
                for (int i = 0; i < RENAMED; i++) {
                    RenamedFiles.put(dir, "r" + i, "value " + i, false);
                    acks.add("r" + i);
                }
            });
            CrashStateReport report = states.check(1000, (survivor, mustSurvive) ->
                    RenamedFiles.verify(survivor.resolve("records"), mustSurvive));
            System.out.println("renames without the directory's sync: " + report);
            assertThat(report.failing()).isGreaterThan(CrashStates.EXPLAINED);
            String missing = "records/r\\d+ \\(7 bytes\\) missing: its creation or rename not durable, no sync of"
                    + " directory records completed after it";
            for (int i = 0; i < CrashStates.EXPLAINED; i++) {
                assertThat(report.failures().get(i).explanation()).as(report.failures().get(i).state())
                        .anyMatch(line -> line.matches(missing));
            }
            assertThat(report.failures().get(CrashStates.EXPLAINED).explanation()).isEmpty();
            assertThat(report.states()).hasSize(report.checked());
            assertThat(report.states().stream().filter(s -> !s.passed())).hasSize(report.failing());
            assertThatThrownBy(report::assertPassed).satisfies(e -> {
                System.out.println(e.getMessage());
                assertThat(e.getMessage().lines().skip(1)).anyMatch(line -> line.trim().matches(missing));
                assertThat(e.getMessage().lines().count()).isLessThanOrEqualTo(1 + CrashStateReport.SHOWN + 1);
            });
            assertThat(leftBehind(work("nodirsync"))).isEmpty();
        }
    }

    /**
     * xfs and btrfs too, each state's log replayed: the careful log passes every state on both; the careless
     * one fails on xfs, which overwrites in place as ext4 does, and passes every state on btrfs, which writes
     * an O_DIRECT overwrite to a new extent that the file points to only once fdatasync has written its log
     * tree: the batch becomes durable at once. btrfs mounts a clone of a mounted filesystem under a temporary
     * fsid, and refuses one while the last state's teardown is under way: the state's mount waits for it. The
     * careless log's states are checked on three workers, several clones of one filesystem mounted at once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"xfs", "btrfs"})
    void onXfsAndBtrfsTheCarefulLogPassesEveryStateAndTheCarelessOneFailsWhereOverwritesAreInPlace(String fs)
            throws Exception {
        Requirements.require(Filesystems.find("mkfs." + fs) != null, "mkfs." + fs + " (apt-get install "
                + Filesystems.debianPackage(fs) + ")");
        for (boolean careful : new boolean[] {true, false}) {
            try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).fs(fs)
                    .sizeBytes(SimulatedDisk.minimumSizeBytes(fs) + (16L << 20)).create(work(fs))) {
                CrashStates states = recordedLog(disk, careful);
                // The careless log's states on three workers: clones of one filesystem mounted at once.
                CrashStateReport report = states.inParallel(careful ? 1 : 3).check(1000, VERIFIED_LOG);
                System.out.println(fs + (careful ? " careful" : " careless") + " log: " + states.writes() + " writes in "
                        + states.epochs() + " epochs; " + report);
                assertThat(report.checked()).isGreaterThan(BatchLog.BATCHES * 2 * BatchLog.BATCH);
                if (careful || fs.equals("btrfs")) {
                    report.assertPassed();
                } else {
                    assertThatThrownBy(report::assertPassed).hasMessageContaining("a record nobody wrote");
                }
            }
        }
    }

    @Test
    void aCommitInTheEpochOfItsRecordsFailsInAReorderedStateThatASeededSweepOfAsManyCutsMisses() throws Exception {
        CrashStateReport report;
        long flushes;
        try (SimulatedDisk disk = disk("careless")) {
            Path log = disk.path().resolve("log");
            BatchLog.create(log);
            long before = disk.flushes();
            CrashStates states = disk.recordCrashStates(acks -> BatchLog.appendAll(log, false, acks));
            flushes = disk.flushes() - before;
            report = states.check(1000, VERIFIED_LOG);
            System.out.println("careless log: " + states.writes() + " writes in " + states.epochs() + " epochs, " + flushes
                    + " flushes; " + report);
        }
        try {
            report.assertPassed();
        } catch (AssertionError e) {
            System.out.println("  " + e.getMessage());
        }
        assertThatThrownBy(report::assertPassed)
                .hasMessageContaining("the smallest, after flush")
                .hasMessageMatching("(?s).*write \\d+ \\(4096 bytes at drive byte \\d+, log bytes \\d+ to \\d+\\) lost, the \\d+ after it kept: the reader"
                        + " recovered a record nobody wrote.*");
        assertThat(report.failures()).allSatisfy(f -> assertThat(f.lost()).isEqualTo(1));
        // Each lost write is named as a record's body in the log: an odd block of its batch, before the commit.
        assertThat(report.failures()).allSatisfy(f -> {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("log bytes (\\d+) to ").matcher(f.state());
            assertThat(m.find()).as(f.state()).isTrue();
            long block = Long.parseLong(m.group(1)) / BatchLog.BLOCK % (2 * BatchLog.BATCH + 1);
            assertThat(block % 2).as("block %d of its batch, in %s", block, f.state()).isEqualTo(1);
        });

        // The sweep @RepeatedPowerCut makes of as many cuts: after flushes, and during flushes keeping a seeded subset.
        List<CrashPoint> points = RepeatedPowerCutExtension.points(flushes, report.checked(), RepeatedPowerCut.Sweep.BOTH, 0);
        int found = 0;
        int partial = 0;
        long started = System.nanoTime();
        for (CrashPoint point : points) {
            try (SimulatedDisk disk = disk("sweep")) {
                Path log = disk.path().resolve("log");
                BatchLog.create(log);
                long start = disk.flushes();
                if (point.kind() == CrashPoint.Kind.AFTER) {
                    disk.cutAfterFlushes(start + point.flush());
                } else {
                    disk.cutDuringFlush(start + point.flush(), point.seed());
                }
                AcknowledgedRecords acks = disk.untilPowerCut(a -> BatchLog.appendAll(log, false, a));
                Path survivor = disk.cutPower();
                PowerCut cut = disk.cuts().get(0);
                if (cut.keptBytes() > 0 && cut.keptBytes() < cut.unflushedBytes()) {
                    partial++;
                }
                try {
                    BatchLog.verify(survivor.resolve("log"), acks.all());
                } catch (AssertionError e) {
                    found++;
                }
            }
        }
        System.out.println("the seeded sweep: " + points.size() + " cuts in "
                + String.format("%.1f", (System.nanoTime() - started) / 1e9) + " s, " + partial
                + " keeping part of the drive's cache, " + found + " failing");
        assertThat(points).hasSize(report.checked());
        assertThat(partial).as("cuts that kept some of the writes since the last flush, not all").isPositive();
        assertThat(found).as("cuts of the seeded sweep that found the bug").isZero();
    }

    @Test
    void aRecordOverwrittenInPlaceWithoutAChecksumIsFoundTornOnADriveThatWrites512BytesAtomically() throws Exception {
        try (SimulatedDisk disk = disk("torn", 512)) {
            Path slot = disk.path().resolve("slot");
            Slot.create(slot);
            CrashStates states = disk.recordCrashStates(acks -> {
                for (int v = 1; v <= 3; v++) {
                    Slot.overwrite(slot, v);
                    acks.add(String.valueOf(v));
                }
            });
            CrashStateReport report = states.check(1000, (survivor, mustSurvive) ->
                    Slot.verify(survivor.resolve("slot"), mustSurvive));
            System.out.println("slot: " + states.writes() + " writes in " + states.epochs() + " epochs; " + report);
            assertThatThrownBy(report::assertPassed).hasMessageMatching(
                    "(?s).*the smallest, after flush \\d+ .*write \\d+ \\(4096 bytes at drive byte \\d+, slot bytes 0 to 4095\\) torn after its first 2048"
                    + " bytes.*: the slot holds version \\d, its body versions \\[.*");
            assertThat(report.failures()).allSatisfy(f -> assertThat(f.state()).contains("torn after its first 2048 bytes"));
        }
    }

    @Test
    void aMarkerUnorderedAfterItsTwoCopiesFailsOnlyInDrawnStatesThatLoseBothCopies() throws Exception {
        try (SimulatedDisk disk = disk("drawn")) {
            Path file = disk.path().resolve("mirrored");
            MirroredRecord.create(file);
            CrashStates states = disk.recordCrashStates(acks -> {
                for (int v = 1; v <= 4; v++) {
                    MirroredRecord.commit(file, v);
                    acks.add(String.valueOf(v));
                }
            });
            CrashStates.Verification verify = (survivor, mustSurvive) ->
                    MirroredRecord.verify(survivor.resolve("mirrored"), mustSurvive);
            CrashStateReport enumerated = states.check(1000, verify);
            assertThat(enumerated.leftOut()).isZero();
            assertThat(enumerated.failures()).as("every prefix and every single write lost").extracting(
                    f -> f.state() + ": " + f.message()).isEmpty();

            CrashStateReport drawn = states.draw(24, 7).check(1000, verify);
            System.out.println("mirrored record: " + states.writes() + " writes in " + states.epochs() + " epochs; "
                    + enumerated + "; with draws: " + drawn);
            assertThat(drawn.checked()).isGreaterThan(enumerated.checked());
            assertThat(drawn.failing()).isPositive();
            // Both copies' writes lost (the first of an epoch may hold more than its copy: the kernel merges them).
            assertThat(drawn.failures()).allSatisfy(f -> assertThat(f.state()).contains("draw ").contains(" of seed 7: ")
                    .containsPattern("writes \\d+ \\(\\d+ bytes at drive byte \\d+, mirrored bytes 0 to \\d+\\), \\d+ "
                            + "\\(\\d+ bytes at drive byte \\d+, mirrored bytes 4096 to \\d+\\)"));
            assertThatThrownBy(drawn::assertPassed).hasMessageContaining("but copy A holds");
            assertThat(outcomes(states.draw(24, 7).check(1000, verify))).as("the same seed draws the same states")
                    .isEqualTo(outcomes(drawn));
            assertThat(outcomes(states.draw(24, 8).check(1000, verify))).isNotEqualTo(outcomes(drawn));
            assertThat(leftBehind(work("drawn"))).isEmpty();
        }
    }

    @Test
    void statesLeavingOneImageAreCheckedOnceAndTheBoundSaysWhatItLeftOut() throws Exception {
        try (SimulatedDisk disk = disk("bound")) {
            Path log = disk.path().resolve("log");
            BatchLog.create(log);
            CrashStates states = disk.recordCrashStates(acks -> {
                BatchLog.appendAll(log, false, acks);
                BatchLog.rewriteFirstBlockTwice(log);
            });
            CrashStateReport all = states.check(1000, (survivor, mustSurvive) -> { });
            // The last epoch: the first block, the same bytes again, the second block. Keeping the first write
            // and not the second leaves what keeping both does; dropping either with the third kept, the whole epoch.
            assertThat(all.duplicates()).isGreaterThanOrEqualTo(3);
            assertThat(all.leftOut()).isZero();
            CrashStateReport bounded = states.check(10, VERIFIED_LOG);
            assertThat(bounded.checked()).isEqualTo(10);
            assertThat(bounded.leftOut()).isEqualTo(all.checked() - 10);
            assertThat(bounded.duplicates()).isEqualTo(all.duplicates());
            assertThatThrownBy(bounded::assertPassed).hasMessageContaining(
                    "(" + bounded.leftOut() + " more left out by the bound of 10, " + all.duplicates() + " duplicates checked once)");
            assertThat(bounded.toString()).contains("10 crash states checked");
            assertThat(leftBehind(work("bound"))).isEmpty();
        }
    }

    /**
     * Checked by three workers at once, the careless log's states give the report one worker gives: the same states
     * in the same order, each passing or failing alike with the same message, the same first few explained, the same
     * failure asserted. The verification ran on several states at once, each worker's survivor mounted as data in a
     * place of its own that only its owner may enter; nothing is left mounted or attached after the failing states.
     */
    @Test
    void severalWorkersAtOnceReportWhatOneWorkerReportsInTheSameOrder() throws Exception {
        try (SimulatedDisk disk = disk("workers")) {
            CrashStates states = recordedLog(disk, false);
            CrashStateReport alone = states.check(1000, VERIFIED_LOG);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            Set<String> places = ConcurrentHashMap.newKeySet();
            Set<String> refused = ConcurrentHashMap.newKeySet();
            CrashStateReport three = states.inParallel(3).check(1000, (survivor, mustSurvive) -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    places.add(survivor.toString());
                    String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(survivor.getParent(),
                            LinkOption.NOFOLLOW_LINKS));
                    String options = mountOptions(survivor);
                    if (!mode.equals("rwx------") || !options.matches("(.*,)?nosuid,nodev,noexec(,.*)?")) {
                        refused.add(survivor.getParent() + " " + mode + ", mounted " + options);
                    }
                    Thread.sleep(2); // long enough for the others to start theirs
                    BatchLog.verify(survivor.resolve("log"), mustSurvive);
                } finally {
                    running.decrementAndGet();
                }
            });
            System.out.println("careless log, 1 worker: " + alone + "; 3 workers: " + three + ", at most " + most
                    + " verifying at once");
            assertThat(alone.failing()).isPositive();
            assertThat(detailed(three)).isEqualTo(detailed(alone));
            assertThat(three.failures()).extracting(CrashStateReport.Failure::explanation)
                    .isEqualTo(alone.failures().stream().map(CrashStateReport.Failure::explanation).toList());
            assertThat(catchThrowable(three::assertPassed)).hasMessage(catchThrowable(alone::assertPassed).getMessage());
            assertThat(most.get()).as("verifications running at once").isGreaterThan(1);
            assertThat(places).as("mount points").hasSize(3);
            assertThat(refused).as("places not the owner's alone, or mounts not as data").isEmpty();
            assertNothingLeft("workers", "after the check");
        }
    }

    /**
     * On several workers, a verification that throws an exception fails its state, as an assertion does; one that
     * throws an Error stops the check as it stops one worker's: the Error of the same state (the first in the
     * order the states are taken, though a later one threw first), once every state begun was taken down. Neither
     * leaves a loop device attached or a state mounted.
     */
    @Test
    void aVerificationThatThrowsOnSeveralWorkersFailsOrStopsAsOnOneAndLeavesNothing() throws Exception {
        try (SimulatedDisk disk = disk("throwing")) {
            CrashStates states = recordedLog(disk, true);
            CrashStateReport report = states.inParallel(3).check(1000, (survivor, mustSurvive) -> {
                if (!mustSurvive.isEmpty()) {
                    throw new IllegalStateException(mustSurvive.size() + " acknowledged");
                }
            });
            assertThat(report.failing()).isPositive().isLessThan(report.checked());
            assertThat(report.failures()).allSatisfy(f -> assertThat(f.message()).endsWith(" acknowledged"));
            assertNothingLeft("throwing", "after the failing states");

            for (int workers : new int[] {1, 3}) {
                AtomicInteger arrived = new AtomicInteger();
                Throwable thrown = catchThrowable(() -> states.inParallel(workers).check(1000, (survivor, mustSurvive) -> {
                    if (!mustSurvive.isEmpty()) {
                        String which = mustSurvive.size() + " acknowledged, log " + digest(survivor.resolve("log"));
                        if (arrived.incrementAndGet() == 1) {
                            Thread.sleep(300); // the first state to stop the check stops it last
                        }
                        throw new Stop(which);
                    }
                }));
                assertThat(thrown).as("%d workers", workers).isInstanceOf(Stop.class);
                stopped.add(thrown.getMessage());
                assertNothingLeft("throwing", workers + " workers");
            }
            assertThat(stopped.get(1)).as("the state that stopped 3 workers").isEqualTo(stopped.get(0));
        }
    }

    private final List<String> stopped = new java.util.ArrayList<>();

    /** What a test's verification throws to stop a check: not a state's failure. */
    private static final class Stop extends Error {
        private static final long serialVersionUID = 1L;

        Stop(String message) {
            super(message);
        }
    }

    private static String digest(Path file) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(file))).substring(0, 16);
    }

    /** Each state as reported: what it kept and lost, and whether it passed, with the message it failed with. */
    private static List<String> detailed(CrashStateReport report) {
        return report.states().stream().map(s -> s.state() + (s.passed() ? " passed" : " failed: "
                + s.failure().message())).toList();
    }

    /** The options {@code point} is mounted with, as /proc/self/mountinfo lists them. */
    private static String mountOptions(Path point) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            if (f[4].equals(point.toString())) {
                return f[5];
            }
        }
        return "(not mounted)";
    }

    /** The places states were mounted in, left in the recordings' directories of the disk's work directory. */
    private static List<String> statePlaces(Path work) throws IOException {
        List<String> found = new java.util.ArrayList<>();
        try (var recordings = Files.list(work)) {
            for (Path r : recordings.filter(p -> p.getFileName().toString().startsWith("crash-states-")).toList()) {
                try (var entries = Files.list(r)) {
                    entries.filter(p -> p.getFileName().toString().startsWith("states-"))
                            .forEach(p -> found.add(work.relativize(p).toString()));
                }
            }
        }
        return found;
    }

    private static List<String> outcomes(CrashStateReport report) {
        return report.states().stream().map(s -> s.state() + (s.passed() ? " passed" : " failed")).toList();
    }

    /** Loop devices mapping a file under {@code work}, and mounts under it, but the disk's own (its drive and filesystem). */
    private static List<String> leftBehind(Path work) throws IOException {
        List<String> found = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String point = line.split(" ")[4];
            if (point.startsWith(work.toString()) && !point.equals(work + "/fs") && !point.equals(work + "/drive")) {
                found.add("mount " + point);
            }
        }
        try (var loops = Files.list(Path.of("/sys/block"))) {
            for (Path loop : loops.filter(p -> p.getFileName().toString().startsWith("loop")).toList()) {
                // Another test's device may be detached between the listing and the read: null, not an error.
                String file = LoopDevices.backingFile(loop.getFileName().toString());
                if (file != null && file.startsWith(work + "/") && !file.startsWith(work + "/drive/")) {
                    found.add(loop.getFileName() + " on " + file);
                }
            }
        }
        return found;
    }
}
