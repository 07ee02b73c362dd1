package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.dynamicTestRegistered;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.guest.GuestMain;
import io.flushcheck.guest.GuestSuite;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * A test class on the host and in QEMU guests through the guests' {@code @TestFactory} API: the guest whose
 * disk drops its flushes ({@code cache=unsafe}) fails the class's durability test with the host's figures, the
 * guest whose flushes reach the host ({@code cache=none}) passes it.
 */
// On JUnit 6, GuestSuiteTests drives the same dynamic tests and guest launcher in containers, without a minute
// of QEMU (see RerunOnJunit6Tests).
@Tag("junit-api-as:io.flushcheck.guest.GuestSuiteTests")
class VmGuestSuiteTests {

    /** What a user's durability test looks like; it runs in every place. */
    static class DurabilityCases {

        static Path dataDir() {
            return Path.of(System.getProperty(GuestMain.DATA_DIR_PROPERTY));
        }

        @Test
        void tempDirIsOnTheDataDisk(@TempDir Path dir) throws Exception {
            assertThat(dir.toRealPath()).startsWith(dataDir().toRealPath());
            Files.writeString(dir.resolve("x"), "x");
        }

        @Test
        void syncsReachTheDisk() {
            CheckResult r = Flushcheck.check(dataDir(), CheckOptions.defaults().withPlan(ProbePlan.verification()
                    .withRounds(32)), ProbeListener.NONE);
            assertEquals(Verdict.REAL_FLUSH, r.verdict(), "syncs in " + dataDir() + ": " + r.judgement().summary());
        }
    }

    static class FactoryCases {

        @TestFactory
        Stream<DynamicTest> hostAndVms() {
            return GuestSuite.of(DurabilityCases.class).images().withProbe(32)
                    .hostDir(Path.of("target").toAbsolutePath())
                    .also(VmGuest.of(CacheMode.NONE), VmGuest.of(CacheMode.UNSAFE)).dynamicTests();
        }
    }

    @Test
    void theGuestWhoseDiskDropsFlushesFailsTheClassWithTheHostsFigures() {
        VmTesting.requireVm();
        long t0 = System.nanoTime();
        EngineExecutionResults run = EngineTestKit.engine("junit-jupiter").selectors(selectClass(FactoryCases.class))
                .execute();
        System.err.printf("host and two VM guests: %.1f s%n", (System.nanoTime() - t0) / 1e9);
        Events events = run.allEvents();
        List<String> names = new ArrayList<>();
        events.filter(e -> dynamicTestRegistered("").matches(e)).forEach(e -> names.add(e.getTestDescriptor().getDisplayName()));
        assertThat(names).containsExactly("host", "qemu/cache=none", "qemu/cache=unsafe", "host/guest comparison");
        Events tests = run.testEvents();
        tests.assertThatEvents().haveExactly(1, event(displayName("host"), finishedSuccessfully()));
        tests.assertThatEvents().haveExactly(1, event(displayName("qemu/cache=none"), finishedSuccessfully()));
        tests.assertThatEvents().haveExactly(1, event(displayName("qemu/cache=unsafe"),
                finishedWithFailure(message(m -> m.startsWith("qemu/cache=unsafe: 1 of 2 tests failed")
                        && m.contains("DurabilityCases.syncsReachTheDisk()")
                        && m.contains("expected: <REAL_FLUSH> but was: <NO_REAL_FLUSH>")
                        && m.contains("the host that runs this guest measured that they do not reach its disk")))));
        tests.assertThatEvents().haveExactly(1, event(displayName("host/guest comparison"), finishedSuccessfully()));
    }
}
