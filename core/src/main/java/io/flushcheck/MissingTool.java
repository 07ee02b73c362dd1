package io.flushcheck;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * What a test does when a tool one of flushcheck's features needs is missing on this machine (root,
 * {@code /dev/fuse}, a filesystem's mkfs, a free loop device, a Docker engine, QEMU): the JVM system property
 * {@value #KEY}. {@code skip}, the default, skips the test with the reason, as on a laptop without Docker;
 * {@code fail} fails it with the same reason, for a build that must not pass by skipping what it was meant to
 * run. Nothing else changes it: in particular not the {@code CI} environment variable, which hosted CI sets
 * for every build.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public enum MissingTool {

    /** The test is skipped (aborted) with the reason. */
    SKIP,

    /** The test fails with the reason. */
    FAIL;

    /** The JVM system property that chooses: {@code skip} (the default) or {@code fail}. */
    public static final String KEY = "flushcheck.missing-tool";

    /**
     * The choice of this JVM's {@value #KEY} property, {@link #SKIP} when it is unset or blank.
     *
     * @throws IllegalArgumentException naming the key, the value and what is allowed
     */
    public static MissingTool current() {
        return parse(System.getProperty(KEY));
    }

    static MissingTool parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "", "skip":
                return SKIP;
            case "fail":
                return FAIL;
            default:
                throw new IllegalArgumentException(KEY + "=" + value + " is not skip or fail");
        }
    }

    /** {@code flushcheck.missing-tool=fail}, for the message of a test this choice failed. */
    @Override
    public String toString() {
        return KEY + "=" + name().toLowerCase(Locale.ROOT);
    }
}
