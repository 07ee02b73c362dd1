package io.flushcheck.junitfloor;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs fixture classes through the JUnit Platform launcher of the JUnit on the class path, below the floor too. */
public final class LauncherRuns {

    private LauncherRuns() {
    }

    /** The failures of running these classes, in the order they were reported. */
    public static List<Throwable> failuresOf(Class<?>... classes) {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (Class<?> c : classes) {
            request.selectors(selectClass(c));
        }
        LauncherFactory.create().execute(request.build(), new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                result.getThrowable().ifPresent(failures::add);
            }
        });
        return failures;
    }
}
