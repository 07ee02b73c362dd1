package io.flushcheck.jupiter;

import java.util.Locale;
import org.apiguardian.api.API;

/** What a test does when its storage does not (or cannot be shown to) flush. */
@API(status = API.Status.STABLE, since = "0.1")
public enum FlushPolicy {
    /** Use the configuration key ({@value FlushcheckConfig#ON_NO_REAL_FLUSH_KEY} or {@value FlushcheckConfig#ON_UNKNOWN_KEY}). */
    CONFIGURED,
    /** Fail the test with the evidence. */
    FAIL,
    /** Abort (skip) the test with the evidence: for laptops whose /tmp is tmpfs. */
    SKIP,
    /** Run the test, publish the evidence as a report entry and print it on stderr. */
    WARN;

    static FlushPolicy parse(String key, String value) {
        for (FlushPolicy p : values()) {
            if (p != CONFIGURED && p.name().equals(value.trim().toUpperCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new org.junit.jupiter.api.extension.ExtensionConfigurationException(
                key + " = '" + value + "' is not allowed: use fail, skip or warn");
    }
}
