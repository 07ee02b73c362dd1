package io.flushcheck;

import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The oldest JUnit flushcheck's extensions run on, and the check that the one on the class path is not older:
 * below it, a test fails with one message naming the version found and the one needed, instead of running on a JUnit
 * no build tested until a call meets a missing method ({@code NoSuchMethodError}). The extensions call it when JUnit
 * makes them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JunitFloor {

    /** The oldest JUnit Jupiter supported (what Spring Boot 3.5 manages); every JUnit 6 is newer. */
    public static final String JUPITER = "5.12";

    /** The JUnit Platform that comes with {@link #JUPITER}; JUnit 6's Platform is numbered 6. */
    public static final String PLATFORM = "1.12";

    private static volatile String checked;

    private JunitFloor() {
    }

    /**
     * Why the JUnit that loaded these classes is too old for flushcheck, or null when it is not (or when its jars
     * name no version, as classes repackaged into another jar may not): checked once per class loader of this class.
     *
     * @param jupiterApi a class of the JUnit Jupiter API, as {@code org.junit.jupiter.api.extension.Extension}
     * @param platformCommons a class of the JUnit Platform's commons, as
     *     {@code org.junit.platform.commons.support.AnnotationSupport}
     */
    public static String refusal(Class<?> jupiterApi, Class<?> platformCommons) {
        String c = checked;
        if (c == null) {
            String r = refusalFor(version(jupiterApi), version(platformCommons));
            c = r == null ? "" : r;
            checked = c;
        }
        return c.isEmpty() ? null : c;
    }

    /**
     * Throws {@code error} of {@link #refusal(Class, Class)} when the JUnit that loaded these classes is too old.
     *
     * @param jupiterApi a class of the JUnit Jupiter API
     * @param platformCommons a class of the JUnit Platform's commons
     * @param error makes the exception from the message, as {@code ExtensionConfigurationException::new}
     */
    public static void require(Class<?> jupiterApi, Class<?> platformCommons,
            Function<String, ? extends RuntimeException> error) {
        String why = refusal(jupiterApi, platformCommons);
        if (why != null) {
            throw error.apply(why);
        }
    }

    /**
     * Why these versions of JUnit Jupiter and the JUnit Platform are too old, or null when they are not (or are
     * unknown: null).
     */
    public static String refusalFor(String jupiter, String platform) {
        if (below(jupiter, JUPITER)) {
            return "flushcheck needs JUnit Jupiter " + JUPITER + " or later (or JUnit 6), but the test class path has"
                    + " junit-jupiter-api " + jupiter + ": manage JUnit's versions with org.junit:junit-bom " + JUPITER
                    + " or later";
        }
        if (below(platform, PLATFORM)) {
            return "flushcheck needs JUnit Platform " + PLATFORM + " or later (or JUnit 6), but the test class path has"
                    + " junit-platform-commons " + platform + (jupiter == null ? "" : " beside junit-jupiter-api "
                    + jupiter) + ": manage JUnit's versions with org.junit:junit-bom " + JUPITER + " or later";
        }
        return null;
    }

    /**
     * Whether {@code version}'s major and minor numbers come before {@code floor}'s; false for a version that does
     * not start with them (unknown, so not refused). For any library's floor, as Testcontainers'.
     */
    public static boolean below(String version, String floor) {
        int[] v = majorMinor(version);
        int[] f = majorMinor(floor);
        if (v == null || f == null) {
            return false;
        }
        return v[0] != f[0] ? v[0] < f[0] : v[1] < f[1];
    }

    /** The leading major and minor numbers of a version such as {@code 5.12.2} or {@code 6.0.0-RC1}, or null. */
    private static int[] majorMinor(String version) {
        if (version == null) {
            return null;
        }
        String[] parts = version.trim().split("[.\\-+]", 3);
        if (parts.length < 2) {
            return null;
        }
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = Integer.parseInt(parts[1]);
            return major < 0 || minor < 0 ? null : new int[] {major, minor};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The Implementation-Version of the jar a class came from, or null. */
    public static String version(Class<?> c) {
        Package p = c.getPackage();
        return p == null ? null : p.getImplementationVersion();
    }
}
