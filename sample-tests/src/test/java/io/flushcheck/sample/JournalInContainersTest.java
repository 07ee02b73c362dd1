package io.flushcheck.sample;

import io.flushcheck.guest.GuestSuite;
import io.flushcheck.guest.MountKind;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The journal's durability tests in containers, with the temp dir on each kind of mount but tmpfs, where the
 * journal's claim does not hold and {@code @RequiresRealFlush} fails, as it should.
 */
class JournalInContainersTest {

    // tag::containers[]
    @TestFactory
    Stream<DynamicTest> everywhereButTmpfs() {
        return GuestSuite.of(JournalDurabilityTest.class)
                .mounts(MountKind.OVERLAY, MountKind.BIND, MountKind.VOLUME)
                .dynamicTests();                    // host, .../overlay, .../bind, .../volume
    }
    // end::containers[]
}
