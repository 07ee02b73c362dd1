package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The file model's crash states checked on several workers at once, each with a directory of its own: the report
 * one worker gives (the same states in the same order, the same failures, the same first few explained), each state
 * as one worker wrote it, verifications running at once in different directories, and no directory left behind.
 */
class FileCrashStateWorkersTests {

    /** Names in the tree before the recording: more than a state directory writes whole each time. */
    static final int BASE_FILES = 300;

    /** The report's line that says which failures, by place in the report's failures, are explained. */
    static final String EXPLAINED = "explained: ";

    @TempDir
    Path tmp;

    @BeforeEach
    void needs() {
        TestDisks.requireFileModel();
    }

    /**
     * A mixed workload: a file replaced by a rename of a copy, synced on even turns and not on odd ones (so that
     * some states fail), files written and never synced, hard links, permission changes and new directories, in a
     * tree of {@link #BASE_FILES} files made before.
     */
    static CrashStates record(SimulatedDisk disk) throws Exception {
        Path dir = Files.createDirectories(disk.path().resolve("data"));
        Path base = Files.createDirectories(disk.path().resolve("base"));
        for (int i = 0; i < BASE_FILES; i++) {
            Files.writeString(base.resolve("f" + i), "base " + i);
        }
        ReplacedFile.replace(dir, "config", "value 0", true);
        return disk.recordCrashStates(acks -> {
            for (int i = 1; i <= 6; i++) {
                ReplacedFile.replace(dir, "config", "value " + i, i % 2 == 0);
                acks.add("value " + i);
                Path log = dir.resolve("log-" + i);
                Files.writeString(log, "entry " + i);
                if (i % 3 == 0) {
                    Files.createLink(dir.resolve("link-" + i), log);
                    Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-------"));
                    Files.delete(base.resolve("f" + i));
                }
                if (i == 4) {
                    Files.createDirectories(dir.resolve("sub/deeper"));
                    Files.writeString(dir.resolve("sub/deeper/x"), "x");
                }
            }
        });
    }

    /** What one check saw and said. */
    record Checked(List<String> report, Map<String, Integer> seen, int mostAtOnce, Set<Path> dirs,
                   List<String> overlaps) {
    }

    /**
     * Checks the states on {@code workers} workers: each verification counts its survivor by what must survive and
     * its names, bits, links and bytes, sleeps a little (so that several run at once), writes a file into some survivors (which the
     * next state written in that directory must not keep), then checks the replaced file.
     */
    static Checked check(CrashStates states, int workers) throws IOException {
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        Set<Path> dirs = ConcurrentHashMap.newKeySet();
        Set<Path> busy = ConcurrentHashMap.newKeySet();
        List<String> overlaps = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CrashStateReport report = states.inParallel(workers).check(1000, (survivor, mustSurvive) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            if (!busy.add(survivor)) {
                overlaps.add(survivor.toString());
            }
            dirs.add(survivor);
            try {
                String tree = describe(survivor);
                seen.merge(mustSurvive + "\n" + tree, 1, Integer::sum);
                Thread.sleep(20);
                if (Files.exists(survivor.resolve("data/config"))
                        && Files.readString(survivor.resolve("data/config")).equals("value 2")) {
                    Files.writeString(survivor.resolve("data/written-by-the-check"), "stale");
                }
                ReplacedFile.verify(survivor.resolve("data/config"), mustSurvive);
            } finally {
                busy.remove(survivor);
                running.decrementAndGet();
            }
        });
        List<String> lines = new ArrayList<>();
        for (CrashStateReport.State s : report.states()) {
            CrashStateReport.Failure f = s.failure();
            lines.add(s.state() + " | lost " + s.lost() + " | checked " + s.checked() + " | " + (f == null ? "passed"
                    : "failed: " + f.message() + " | " + f.explanation()));
        }
        lines.add("checked " + report.checked() + ", failing " + report.failing() + ", duplicates "
                + report.duplicates() + ", left out " + report.leftOut());
        List<Integer> explained = new ArrayList<>();
        for (int i = 0; i < report.failures().size(); i++) {
            CrashStateReport.Failure f = report.failures().get(i);
            lines.add("failure: " + f.state() + " | " + f.message() + " | " + f.explanation());
            if (!f.explanation().isEmpty()) {
                explained.add(i);
            }
        }
        lines.add(EXPLAINED + explained);
        return new Checked(lines, seen, most.get(), dirs, overlaps);
    }

    /** Each name of {@code survivor} in order, with its kind, permission bits, links and bytes' digest. */
    static String describe(Path survivor) throws IOException {
        StringBuilder out = new StringBuilder();
        try (Stream<Path> all = Files.walk(survivor)) {
            for (Path p : all.sorted().toList()) {
                out.append(survivor.relativize(p)).append(' ')
                        .append(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).append(' ')
                        .append(Files.getAttribute(p, "unix:nlink"));
                if (Files.isRegularFile(p)) {
                    out.append(' ').append(sha256(Files.readAllBytes(p)));
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @EnumSource(FileRules.class)
    void severalWorkersReportWhatOneWorkerReportsEachStateAsOneWorkerWroteIt(FileRules rules) throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64).rules(rules)
                .create(tmp.resolve("disk"))) {
            CrashStates states = record(disk);
            long t0 = System.nanoTime();
            Checked alone = check(states, 1);
            long t1 = System.nanoTime();
            Checked three = check(states, 3);
            long t2 = System.nanoTime();
            System.out.printf("%s: %d states; 1 worker %.2f s, 3 workers %.2f s, at most %d at once, in %s; load %s%n",
                    rules, alone.seen().size(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, three.mostAtOnce(), three.dirs(),
                    Files.readString(Path.of("/proc/loadavg")).trim());
            assertThat(alone.report()).as("the report has failing states").anyMatch(l -> l.startsWith("failure: "));
            assertThat(alone.report()).as("the first failures, fewest lost first, explained").contains(EXPLAINED
                    + "[0, 1, 2]");
            assertThat(three.report()).as("the report of 3 workers").containsExactlyElementsOf(alone.report());
            assertThat(three.seen()).as("each state's survivor as one worker wrote it")
                    .containsExactlyInAnyOrderEntriesOf(alone.seen());
            assertThat(alone.dirs()).hasSize(1);
            assertThat(three.dirs()).as("the workers' directories").hasSizeGreaterThan(1);
            assertThat(three.mostAtOnce()).as("verifications at once").isGreaterThan(1);
            assertThat(three.overlaps()).as("a directory verified twice at once").isEmpty();
            assertThat(leftBehind()).as("the workers' directories after the check").isEmpty();
        }
        assertThat(leftBehind()).isEmpty();
    }

    /** A verification that throws an Error stops the check at the same state on several workers as on one. */
    @Test
    void anErrorStopsSeveralWorkersAtTheStateItStopsOneAtAndLeavesNothing() throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64)
                .create(tmp.resolve("disk"))) {
            CrashStates states = record(disk);
            List<String> stopped = new ArrayList<>();
            for (int workers : new int[] {1, 3}) {
                Throwable thrown = catchThrowable(() -> states.inParallel(workers).check(1000, (survivor, mustSurvive) -> {
                    Path log = survivor.resolve("data/log-3");
                    if (Files.exists(log) && Files.readString(log).isEmpty()) {
                        throw new Stop(mustSurvive + " " + describe(survivor));
                    }
                }));
                assertThat(thrown).as("%d workers", workers).isInstanceOf(Stop.class);
                stopped.add(thrown.getMessage());
                assertThat(leftBehind()).as("%d workers", workers).isEmpty();
            }
            assertThat(stopped.get(1)).as("the state that stopped 3 workers").isEqualTo(stopped.get(0));
        }
    }

    /** Thrown by a verification to stop a check. */
    static final class Stop extends Error {
        Stop(String message) {
            super(message);
        }
    }

    /** The states' directories and their clock files left anywhere under the test's directory. */
    private List<Path> leftBehind() throws IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            return all.filter(p -> p.getFileName().toString().matches("state(-\\d+)?(\\.clock)?")
                    || p.toString().contains("/replay/")).toList();
        }
    }
}
