package io.flushcheck.jupiter;

import io.flushcheck.verdict.Verdict;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@code flushcheck.verdict} report entries: one per test class and judged directory, on the class, when its
 * first test is judged, and one more whenever a test of the class gets another verdict there than the last one
 * published. One entry a
 * test would say the same thing a thousand times, and each costs the reporting listeners a call and a timestamp.
 */
final class VerdictEntries {

    static final String KEY = "flushcheck.verdict";
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(VerdictEntries.class);

    private VerdictEntries() {
    }

    static void publish(ExtensionContext context, JudgedDir dir, Verdict verdict) {
        ExtensionContext owner = classOf(context);
        // Made by JUnit from the class: a lambda would be one more class for every fork to load.
        @SuppressWarnings("unchecked")
        Map<String, Verdict> published = owner.getStore(NAMESPACE).getOrComputeIfAbsent(ConcurrentHashMap.class);
        if (published.put(dir.reportedAs(), verdict) != verdict) {
            owner.publishReportEntry(KEY, dir.reportedAs() + ": " + verdict);
        }
    }

    /** The context of the innermost test class: the class itself in beforeAll, the test's class otherwise. */
    private static ExtensionContext classOf(ExtensionContext context) {
        ExtensionContext c = context;
        while (c.getTestMethod().isPresent()) {
            Optional<ExtensionContext> parent = c.getParent();
            if (parent.isEmpty()) {
                break;
            }
            c = parent.get();
        }
        return c;
    }
}
