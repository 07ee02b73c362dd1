package io.flushcheck.jupiter;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Path;
import java.util.Locale;
import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * For code that makes its own directories: one line judges the storage a directory is on, with the
 * same verdict, failure and evidence as {@link RequiresRealFlush}.
 *
 * <pre>{@code
 * Path data = base.resolve("db");
 * FlushAssertions.assertRealFlush(data);   // NoRealFlushError on tmpfs, under eatmydata, ...
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public final class FlushAssertions {

    private static final String NAME = "FlushAssertions.assertRealFlush";

    private FlushAssertions() {
    }

    /**
     * Judges {@code dir} (when it does not exist yet, its nearest existing ancestor, where it would be
     * created, and the message says so) and fails with a {@link NoRealFlushError} carrying the evidence
     * unless its storage really flushes. Each storage is judged once per JVM.
     *
     * <p>The system properties {@value FlushcheckConfig#ON_NO_REAL_FLUSH_KEY} and
     * {@value FlushcheckConfig#ON_UNKNOWN_KEY} choose what NO_REAL_FLUSH and UNKNOWN do, as for the
     * annotation (defaults fail and warn); skip throws opentest4j's {@code TestAbortedException}.
     *
     * @throws NoRealFlushError when the verdict fails the test
     */
    public static void assertRealFlush(Path dir) {
        JudgedDir judged = Targets.named(dir, NAME);
        CheckResult result = CheckCache.check(judged.judged(),
                new CheckOptions(ProbePlan.verification().withRounds(64), Thresholds.DEFAULT, false, true), NAME);
        if (result.verdict() == Verdict.REAL_FLUSH) {
            return;
        }
        boolean no = result.verdict() == Verdict.NO_REAL_FLUSH;
        String key = no ? FlushcheckConfig.ON_NO_REAL_FLUSH_KEY : FlushcheckConfig.ON_UNKNOWN_KEY;
        String value = System.getProperty(key, no ? "fail" : "warn");
        FlushPolicy policy = FlushPolicy.parse(key, value);
        String message = RequiresRealFlushExtension.message(NAME, judged, result, key + "=" + value.trim().toLowerCase(Locale.ROOT), policy);
        switch (policy) {
            case SKIP -> throw new TestAbortedException(message);
            case WARN -> System.err.println("flushcheck: warning: " + message);
            default -> throw new NoRealFlushError(message, result);
        }
    }
}
