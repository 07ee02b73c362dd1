package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.dynamicTestRegistered;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The sample suite on the host and in the bookworm guest on overlay, bind mount, volume and tmpfs, through
 * the {@code @TestFactory} API: the in-guest verdicts must be REAL_FLUSH except on tmpfs.
 */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class GuestSuiteTests {

    /** Runs in every environment: what a user's durability test looks like. */
    static class DurabilityTestCases {

        static Path dataDir() {
            return Path.of(System.getProperty(GuestMain.DATA_DIR_PROPERTY));
        }

        static String environment() {
            return System.getProperty(GuestMain.ENVIRONMENT_PROPERTY);
        }

        static CheckResult check() {
            return Flushcheck.check(dataDir(), CheckOptions.defaults().withPlan(ProbePlan.verification().withRounds(32)),
                    ProbeListener.NONE);
        }

        @Test
        void tempDirIsOnTheMountUnderTest(@TempDir Path dir) throws Exception {
            assertThat(dir.toRealPath()).startsWith(dataDir().toRealPath());
            Files.writeString(dir.resolve("x"), "x");
        }

        /** The expected verdict per environment: tmpfs NO_REAL_FLUSH, everything else REAL_FLUSH. */
        @Test
        void verdictMatchesTheMount() {
            CheckResult r = check();
            Verdict want = environment().endsWith("/tmpfs") ? Verdict.NO_REAL_FLUSH : Verdict.REAL_FLUSH;
            assertEquals(want, r.verdict(), environment() + ": " + r.judgement().summary());
        }

        /** What a user writes: fails on tmpfs, with the evidence. */
        @Test
        void syncsReachTheDisk() {
            CheckResult r = check();
            assertEquals(Verdict.REAL_FLUSH, r.verdict(), "syncs in " + dataDir() + " (" + environment() + "): "
                    + r.judgement().summary());
        }

        @Test
        void abortedOnlyOnTheHost() {
            Assumptions.assumeFalse(environment().equals("host"), "not on the host");
        }
    }

    static class FactoryTestCases {

        @TestFactory
        Stream<DynamicTest> everywhere() {
            return GuestSuite.of(DurabilityTestCases.class).withProbe(32).dynamicTests();
        }
    }

    @Test
    void everyEnvironmentRunsTheSuiteAndOnlyTmpfsFailsIt() {
        GuestTesting.requireDockerAndBaseImage();
        long t0 = System.nanoTime();
        EngineExecutionResults run = EngineTestKit.engine("junit-jupiter").selectors(selectClass(FactoryTestCases.class))
                .execute();
        Events events = run.allEvents();
        System.err.printf("guest suite: %.1f s%n", (System.nanoTime() - t0) / 1e9);
        List<String> names = new ArrayList<>();
        events.filter(e -> dynamicTestRegistered("").matches(e)).forEach(e -> names.add(e.getTestDescriptor().getDisplayName()));
        assertThat(names).containsExactly("host", "debian-bookworm-jre17/overlay", "debian-bookworm-jre17/bind",
                "debian-bookworm-jre17/volume", "debian-bookworm-jre17/tmpfs", "host/guest comparison");
        Events tests = run.testEvents();
        tests.assertStatistics(s -> s.started(6).succeeded(5).failed(1));
        tests.assertThatEvents().haveExactly(1, event(displayName("debian-bookworm-jre17/tmpfs"),
                finishedWithFailure(message(m -> m.startsWith("debian-bookworm-jre17/tmpfs: 1 of 4 tests failed")
                        && m.contains("DurabilityTestCases.syncsReachTheDisk()")
                        && m.contains("/data is on tmpfs")))));
    }

    @Test
    void outcomesComeBackAsData() {
        GuestTesting.requireDockerAndBaseImage();
        List<GuestOutcome> outcomes = GuestSuite.of(DurabilityTestCases.class).host(false).mounts(MountKind.TMPFS)
                .withProbe(16).run();
        assertThat(outcomes).hasSize(1);
        GuestOutcome o = outcomes.get(0);
        assertThat(o.name()).isEqualTo("debian-bookworm-jre17/tmpfs");
        assertThat(o.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(o.results().get(0).environment()).isEqualTo("debian-bookworm-jre17/tmpfs");
        assertThat(o.results().get(0).storage().fsType()).isEqualTo("tmpfs");
        assertThat(o.results().get(0).costs()).isNotEmpty();
        assertThat(o.tests()).extracting(TestOutcome::displayName, TestOutcome::status).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("tempDirIsOnTheMountUnderTest(Path)", TestOutcome.Status.SUCCESSFUL),
                org.assertj.core.groups.Tuple.tuple("verdictMatchesTheMount()", TestOutcome.Status.SUCCESSFUL),
                org.assertj.core.groups.Tuple.tuple("syncsReachTheDisk()", TestOutcome.Status.FAILED),
                org.assertj.core.groups.Tuple.tuple("abortedOnlyOnTheHost()", TestOutcome.Status.SUCCESSFUL));
        assertThat(o.failedTests().get(0).message()).contains("expected: <REAL_FLUSH> but was: <NO_REAL_FLUSH>");
    }

    @Test
    void theHostRunReportsAbortedTestsAsAborted() {
        List<GuestOutcome> outcomes = GuestSuite.of(DurabilityTestCases.class).mounts().run();
        assertThat(outcomes).extracting(GuestOutcome::name).containsExactly("host");
        assertThat(outcomes.get(0).tests()).extracting(TestOutcome::displayName, TestOutcome::status)
                .contains(org.assertj.core.groups.Tuple.tuple("abortedOnlyOnTheHost()", TestOutcome.Status.ABORTED),
                        org.assertj.core.groups.Tuple.tuple("syncsReachTheDisk()", TestOutcome.Status.SUCCESSFUL));
        assertThat(outcomes.get(0).count(TestOutcome.Status.ABORTED)).isEqualTo(1);
    }
}
