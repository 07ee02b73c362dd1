package io.flushcheck.guest;

import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DynamicTest;

/**
 * The shortest way to run test classes on the host and in every guest and mount from a
 * {@code @TestFactory}:
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> everywhere() {
 *     return Guests.dynamicTests(MyDurabilityTests.class);
 * }
 * }</pre>
 *
 * yields {@code host}, {@code debian-bookworm-jre17/overlay}, {@code .../bind}, {@code .../volume},
 * {@code .../tmpfs} (named after the image {@link GuestImageChoice} chooses: {@code temurin-21-jre/overlay}, ...); see
 * {@link GuestSuite} for choosing images and mounts.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Guests {

    private Guests() {
    }

    public static Stream<DynamicTest> dynamicTests(Class<?>... testClasses) {
        return GuestSuite.of(testClasses).dynamicTests();
    }
}
