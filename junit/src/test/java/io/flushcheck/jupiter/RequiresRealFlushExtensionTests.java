package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.MountTable;
import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.opentest4j.TestAbortedException;

class RequiresRealFlushExtensionTests {

    static Path disk;

    @BeforeAll
    static void diskDirectory() throws IOException {
        disk = Files.createDirectories(Path.of("target", "flushcheck-it", "requires").toAbsolutePath());
    }

    static EngineExecutionResults run(Class<?> fixture, Map<String, String> config) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).configurationParameters(config).execute();
    }

    static String shmMessage() {
        MountInfo m = MountTable.live().mountOf("/dev/shm");
        return "@RequiresRealFlush: /dev/shm is NO_REAL_FLUSH: /dev/shm is on tmpfs (/dev/shm, mount " + m.mountId()
                + "): syncs reach no device";
    }

    @Test
    void passesOnDisk() {
        run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString()))
                .testEvents().assertStatistics(s -> s.started(2).succeeded(2).failed(0));
    }

    @Test
    void failsOnTmpfsWithTheEvidence() {
        run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm")).testEvents()
                .assertStatistics(s -> s.started(2).succeeded(1).failed(1))
                .assertThatEvents().haveExactly(1, event(test("annotated"), finishedWithFailure(
                        instanceOf(NoRealFlushError.class),
                        message(shmMessage() + " (run on a disk directory: point java.io.tmpdir or flushcheck.target at one, "
                                + "or set flushcheck.on-no-real-flush=skip or warn where that is acceptable)"))));
    }

    @Test
    void annotationPathWinsOverTheKey() {
        run(PathAttributeTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString())).testEvents()
                .assertStatistics(s -> s.started(1).failed(1))
                .assertThatEvents().haveExactly(1, event(test("onShm"), finishedWithFailure(
                        instanceOf(NoRealFlushError.class), message(m -> m.startsWith(shmMessage() + " (")))));
    }

    @Test
    void twoDirectoriesOnOneMountShareTheProbeButKeepTheirOwnEvidence() throws IOException {
        Path a = Files.createDirectories(Path.of("/dev/shm/flushcheck-it-a"));
        Path b = Files.createDirectories(Path.of("/dev/shm/flushcheck-it-b"));
        try {
            run(TwoDirectoriesTestCases.class, Map.of()).testEvents()
                    .assertStatistics(s -> s.started(2).failed(2))
                    .assertThatEvents()
                    .haveExactly(1, event(test("a"), finishedWithFailure(message(m -> m.startsWith(
                            "@RequiresRealFlush: " + a + " is NO_REAL_FLUSH: " + a + " is on tmpfs")))))
                    .haveExactly(1, event(test("b"), finishedWithFailure(message(m -> m.startsWith(
                            "@RequiresRealFlush: " + b + " is NO_REAL_FLUSH: " + b + " is on tmpfs")))));
        } finally {
            Files.delete(a);
            Files.delete(b);
        }
    }

    @Test
    void nestedClassesAreJudgedByTheirOwnAnnotation() {
        run(OuterOnDiskTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString())).testEvents()
                .assertStatistics(s -> s.started(1).succeeded(1))
                .assertThatEvents().haveExactly(1, event(test("outer"), org.junit.platform.testkit.engine.EventConditions
                        .finishedSuccessfully()));
        run(OuterOnDiskTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString())).containerEvents()
                .assertThatEvents().haveExactly(1, event(org.junit.platform.testkit.engine.EventConditions
                        .container("InnerOnShm"), finishedWithFailure(message(m -> m.startsWith(shmMessage())))));
    }

    @Test
    void unknownFollowsItsOwnPolicy() throws IOException {
        io.flushcheck.testing.Mounts.requireMountTools();
        try (io.flushcheck.testing.Mounts mounts = new io.flushcheck.testing.Mounts()) {
            // A read-only disk: no probe file can be made, and nothing else decides, so UNKNOWN.
            Path ro = Files.createDirectories(disk.resolve("read-only"));
            mounts.loopExt4(disk.resolve("read-only.img"), 16, ro, "ro");
            String unknown = "@RequiresRealFlush: " + ro + " is UNKNOWN: cannot probe " + ro + ": open(";
            run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, ro.toString())).testEvents()
                    .assertStatistics(s -> s.started(2).succeeded(2));
            run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, ro.toString(),
                    FlushcheckConfig.ON_UNKNOWN_KEY, "fail")).testEvents()
                    .assertThatEvents().haveExactly(1, event(test("annotated"), finishedWithFailure(
                            instanceOf(NoRealFlushError.class), message(m -> m.startsWith(unknown)
                                    && m.contains("Read-only file system (errno 30)")
                                    && m.endsWith("(the evidence here decides nothing; set flushcheck.on-unknown=skip or "
                                            + "warn where that is acceptable)")))));
            run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, ro.toString(),
                    FlushcheckConfig.ON_UNKNOWN_KEY, "skip")).testEvents()
                    .assertStatistics(s -> s.started(2).succeeded(1).aborted(1));
        }
    }

    @Test
    void thresholdKeysAreNamedWhenOutOfRange() {
        run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                FlushcheckConfig.MIN_FLUSHES_PER_SYNC_KEY, "0")).testEvents()
                .assertThatEvents().haveExactly(1, event(test("annotated"), finishedWithFailure(
                        instanceOf(ExtensionConfigurationException.class),
                        message("flushcheck.min-flushes-per-sync = '0' is out of range: use a number above 0 and at most 10 "
                                + "(default 0.5)"))));
        run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                FlushcheckConfig.SUSPICIOUS_SYNC_MICROS_KEY, "fast")).testEvents()
                .assertThatEvents().haveExactly(1, event(test("annotated"), finishedWithFailure(
                        instanceOf(ExtensionConfigurationException.class),
                        message("flushcheck.suspicious-sync-micros = 'fast' is not a number"))));
    }

    @Test
    void adviceNamesTheAttributeThatChoseThePolicy() {
        run(AttributeFailTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm")).testEvents()
                .assertThatEvents().haveExactly(1, event(test("failsOnItsOwn"), finishedWithFailure(message(
                        shmMessage() + " (run on a disk directory: point java.io.tmpdir or flushcheck.target at one, or "
                                + "change @RequiresRealFlush(onNoRealFlush = FAIL) to skip or warn where that is acceptable)"))));
    }

    @Test
    void skipPolicyAbortsWithTheEvidence() {
        run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm",
                FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, "skip")).testEvents()
                .assertStatistics(s -> s.started(2).succeeded(1).aborted(1))
                .assertThatEvents().haveExactly(1, event(test("annotated"), org.junit.platform.testkit.engine.EventConditions
                        .abortedWithReason(instanceOf(TestAbortedException.class), message(m -> m.startsWith(shmMessage())))));
    }

    @Test
    void warnPolicyRunsTheTestAndReportsTheEvidence() {
        EngineExecutionResults r = run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm",
                FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, "WARN"));
        r.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
        assertThat(r.allEvents().reportingEntryPublished().stream()
                .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class).orElseThrow())
                .flatMap(e -> e.getKeyValuePairs().entrySet().stream())
                .filter(e -> e.getKey().equals("flushcheck.warning")).map(Map.Entry::getValue))
                .containsExactly(shmMessage());
    }

    @Test
    void annotationPolicyOverridesTheKey() {
        run(AttributePolicyTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm",
                FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, "fail")).testEvents()
                .assertStatistics(s -> s.started(1).aborted(1));
    }

    @Test
    void badPolicyValueNamesKeyValueAndChoices() {
        run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, "maybe")).testEvents()
                .assertThatEvents().haveExactly(1, event(test("annotated"), finishedWithFailure(
                        instanceOf(ExtensionConfigurationException.class),
                        message("flushcheck.on-no-real-flush = 'maybe' is not allowed: use fail, skip or warn"))));
    }

    @Test
    void badRoundsValueNamesKeyAndRange() {
        run(MethodLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                FlushcheckConfig.VERIFY_ROUNDS_KEY, "3")).testEvents()
                .assertThatEvents().haveExactly(1, event(test("annotated"), finishedWithFailure(
                        instanceOf(ExtensionConfigurationException.class),
                        message("flushcheck.verify.rounds = '3' is out of range: use 8 to 100000"))));
    }

    @Test
    void classLevelFailsTheWholeClassOnce() {
        EngineExecutionResults r = run(ClassLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm"));
        r.containerEvents().assertStatistics(s -> s.failed(1));
        r.testEvents().assertStatistics(s -> s.started(0));
    }

    @Test
    void classLevelAppliesToNestedClassesAndSubclasses() {
        run(SubclassTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString())).testEvents()
                .assertStatistics(s -> s.started(2).succeeded(2));
        run(SubclassTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm")).containerEvents()
                .assertStatistics(s -> s.failed(1));
        run(ClassLevelTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString())).testEvents()
                .assertStatistics(s -> s.started(2).succeeded(2));
    }

    @Test
    void worksAsMetaAnnotation() {
        run(MetaAnnotationTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm")).testEvents()
                .assertStatistics(s -> s.started(1).failed(1));
    }

    @Test
    void manyParallelTestsCostOneProbe() {
        int before = CheckCache.CHECKS_RUN.get();
        run(ManyTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "8")).testEvents()
                .assertStatistics(s -> s.started(300).succeeded(300));
        assertThat(CheckCache.CHECKS_RUN.get() - before).isEqualTo(1);
    }

    @Test
    void theVerdictIsReportedOncePerClassAndDirectoryOnTheClass() throws IOException {
        assertThat(verdictEntries(run(ManyTestCases.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString()))))
                .containsExactly("RequiresRealFlushExtensionTests$ManyTestCases: " + disk + ": REAL_FLUSH");
        Path a = Files.createDirectories(Path.of("/dev/shm/flushcheck-it-a"));
        Path b = Files.createDirectories(Path.of("/dev/shm/flushcheck-it-b"));
        try {
            assertThat(verdictEntries(run(TwoDirectoriesTestCases.class, Map.of()))).containsExactlyInAnyOrder(
                    "RequiresRealFlushExtensionTests$TwoDirectoriesTestCases: /dev/shm/flushcheck-it-a: NO_REAL_FLUSH",
                    "RequiresRealFlushExtensionTests$TwoDirectoriesTestCases: /dev/shm/flushcheck-it-b: NO_REAL_FLUSH");
        } finally {
            Files.delete(a);
            Files.delete(b);
        }
    }

    /** The {@code flushcheck.verdict} entries, each as "where it was published: value". */
    static java.util.List<String> verdictEntries(EngineExecutionResults r) {
        return r.allEvents().reportingEntryPublished().stream()
                .flatMap(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class).orElseThrow()
                        .getKeyValuePairs().entrySet().stream()
                        .filter(kv -> kv.getKey().equals("flushcheck.verdict"))
                        .map(kv -> e.getTestDescriptor().getDisplayName() + ": " + kv.getValue()))
                .toList();
    }

    static class MethodLevelTestCases {
        @Test
        @RequiresRealFlush
        void annotated() {
        }

        @Test
        void plain() {
        }
    }

    static class PathAttributeTestCases {
        @Test
        @RequiresRealFlush(path = "/dev/shm")
        void onShm() {
        }
    }

    static class TwoDirectoriesTestCases {
        @Test
        @RequiresRealFlush(path = "/dev/shm/flushcheck-it-a")
        void a() {
        }

        @Test
        @RequiresRealFlush(path = "/dev/shm/flushcheck-it-b")
        void b() {
        }
    }

    @RequiresRealFlush
    static class OuterOnDiskTestCases {
        @Test
        void outer() {
        }

        @Nested
        @RequiresRealFlush(path = "/dev/shm")
        class InnerOnShm {
            @Test
            void inner() {
            }
        }
    }

    static class AttributeFailTestCases {
        @Test
        @RequiresRealFlush(onNoRealFlush = FlushPolicy.FAIL)
        void failsOnItsOwn() {
        }
    }

    static class AttributePolicyTestCases {
        @Test
        @RequiresRealFlush(onNoRealFlush = FlushPolicy.SKIP)
        void skipsOnItsOwn() {
        }
    }

    @RequiresRealFlush
    static class ClassLevelTestCases {
        @Test
        void one() {
        }

        @Nested
        class Inner {
            @Test
            void two() {
            }
        }
    }

    static class SubclassTestCases extends ClassLevelTestCases {
    }

    @Target({ElementType.METHOD, ElementType.TYPE})
    @Retention(RetentionPolicy.RUNTIME)
    @RequiresRealFlush
    @Test
    @interface DurabilityTest {
    }

    static class MetaAnnotationTestCases {
        @DurabilityTest
        void journalSurvivesPowerLoss() {
        }
    }

    static class ManyTestCases {
        @RepeatedTest(300)
        @RequiresRealFlush
        void durable() {
        }
    }
}
