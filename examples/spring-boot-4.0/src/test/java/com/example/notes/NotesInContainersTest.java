package com.example.notes;

import io.flushcheck.guest.GuestSuite;
import io.flushcheck.guest.MountKind;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The store's durability test on the host and in a Linux container with its data on a Docker volume. */
class NotesInContainersTest {

    // tag::containers[]
    @TestFactory
    Stream<DynamicTest> notesAreDurableOnTheHostAndInAContainer() {
        return GuestSuite.of(NoteStoreDurabilityTest.class)
                .mounts(MountKind.VOLUME)
                .dynamicTests();                    // host, .../volume
    }
    // end::containers[]
}
