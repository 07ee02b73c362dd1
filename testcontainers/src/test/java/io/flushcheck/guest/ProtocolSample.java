package io.flushcheck.guest;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** Run only by {@link GuestProtocolContractTests} through {@link GuestMain}: one test of each outcome. */
class ProtocolSample {

    @Test
    void succeeds() {
    }

    @Test
    void fails() {
        fail("on purpose");
    }

    @Test
    void aborts() {
        Assumptions.assumeTrue(false, "not here");
    }

    @Test
    @Disabled("never")
    void skipped() {
    }
}
