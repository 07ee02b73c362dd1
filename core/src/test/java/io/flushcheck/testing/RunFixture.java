package io.flushcheck.testing;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * A child-JVM main: runs one fixture class with the JUnit launcher and prints one line per finished
 * test ({@code FAILED name: message / caused by: message}, {@code ABORTED ...}, {@code SUCCESSFUL name}). Arguments: the class,
 * then {@code key=value} configuration parameters.
 */
public final class RunFixture {

    private RunFixture() {
    }

    /** The message and every cause's, since JUnit wraps what extensions throw while resolving parameters. */
    static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c == t ? ": " : " / caused by: ").append(c.getMessage());
        }
        return sb.toString();
    }

    public static void main(String[] args) throws ClassNotFoundException {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Class.forName(args[0])));
        for (int i = 1; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            request.configurationParameters(Map.of(kv[0], kv[1]));
        }
        LauncherDiscoveryRequest built = request.build();
        LauncherFactory.create().execute(built, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (!id.isTest()) {
                    return;
                }
                String why = result.getThrowable().map(RunFixture::messages).orElse("");
                System.out.println(result.getStatus() + " " + id.getDisplayName() + why);
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                System.out.println("SKIPPED " + id.getDisplayName() + ": " + reason);
            }
        });
    }
}
