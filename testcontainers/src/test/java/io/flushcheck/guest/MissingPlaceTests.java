package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.flushcheck.MissingTool;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.RunFixture;
import io.flushcheck.testing.SystemProperties;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** A place that cannot run here: its test is skipped with the reason, or fails with it under {@code fail}. */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class MissingPlaceTests {

    private static final String WHY = "nowhere needs a tool this machine lacks";

    private static Events run(String policy) {
        return SystemProperties.with(MissingTool.KEY, policy, () -> EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(Fixture.class)).execute().testEvents());
    }

    private static String message(Event e) {
        return e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage();
    }

    @Test
    void skippedWithTheReasonUnlessMissingToolsFail() {
        for (String policy : new String[] {null, "skip"}) {
            Events events = run(policy);
            assertThat(events.failed().list()).as("%s=%s", MissingTool.KEY, policy).isEmpty();
            assertThat(message(events.aborted().list().get(0))).isEqualTo(WHY);
        }
        Events failing = run("fail");
        assertThat(failing.aborted().list()).isEmpty();
        assertThat(message(failing.failed().list().get(0))).contains(WHY).contains(MissingTool.KEY + "=fail");
    }

    @Test
    void ciTrueAloneStillSkips() {
        // The environment cannot be changed in this JVM: a child JVM gets CI=true and no flushcheck.missing-tool.
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of("env", "CI=true"), RunFixture.class.getName(),
                List.of(Fixture.class.getName())), 120);
        assertThat(r.stdout()).as("%s", r).isEqualTo("ABORTED placeMissing(): " + WHY + "\n");
    }

    static class Fixture {
        @Test
        void placeMissing() {
            GuestPlace.notHere(WHY);
        }
    }
}
