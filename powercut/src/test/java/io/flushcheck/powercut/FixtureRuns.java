package io.flushcheck.powercut;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs a fixture class as a user's build would, through JUnit's test kit (its conditions off, so that a fixture
 * nested in a test class runs), and reads the events: the power-cut annotations' tests see what a user sees.
 */
final class FixtureRuns {

    private FixtureRuns() {
    }

    /** The test events of running {@code fixture}. */
    static Events run(Class<?> fixture) {
        return run(fixture, Map.of());
    }

    /** The test events of running {@code fixture} with configuration {@code parameters}. */
    static Events run(Class<?> fixture, Map<String, String> parameters) {
        return EngineTestKit.engine("junit-jupiter").configurationParameter("junit.jupiter.conditions.deactivate", "*")
                .configurationParameters(parameters).selectors(selectClass(fixture)).execute().testEvents();
    }

    /** An event's display name. */
    static String name(Event e) {
        return e.getTestDescriptor().getDisplayName();
    }

    /** The message of what a failed event threw. */
    static String message(Event failed) {
        return failed.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage();
    }
}
