package io.flushcheck.sample;

import io.flushcheck.guest.GuestSuite;
import io.flushcheck.guest.MountKind;
import io.flushcheck.vm.CacheMode;
import io.flushcheck.vm.VmGuest;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The journal's durability tests where the application runs: on this machine, in a container with the journal
 * on a named volume, and in a VM whose disk passes flushes on to the host ({@code cache=none}). Each place is
 * one dynamic test; {@link JournalDurabilityTest}'s {@code @RequiresRealFlush} is judged in each, the VM's from
 * both sides of its virtual disk.
 */
class JournalEverywhereTest {

    // tag::everywhere[]
    @TestFactory
    Stream<DynamicTest> theJournalIsDurableOnTheHostInAContainerAndInAVm() {
        return GuestSuite.of(JournalDurabilityTest.class)
                .mounts(MountKind.VOLUME)
                .also(VmGuest.of(CacheMode.NONE))
                .dynamicTests();
    }
    // end::everywhere[]
}
