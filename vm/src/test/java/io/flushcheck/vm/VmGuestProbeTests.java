package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.guest.GuestSuite;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A guest run with no test classes, only the probe, through {@link GuestSuite}: its outcome carries the host's
 * finding on the guest's disk. No JUnit runs on the host or in the guest here, so it runs on one JUnit
 * version only (unlike {@link VmGuestSuiteTests}).
 */
class VmGuestProbeTests {

    @Test
    void theGuestsProbeResultCarriesTheHostsFinding() {
        VmTesting.requireVm();
        var outcomes = GuestSuite.ofClassNames().host(false).images().withProbe(16).hostDir(Path.of("target").toAbsolutePath())
                .also(VmGuest.of(CacheMode.UNSAFE)).run();
        assertThat(outcomes).hasSize(1);
        var o = outcomes.get(0);
        assertThat(o.errors()).isEmpty();
        assertThat(o.verdict()).as(o.log()).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(o.results().get(0).environment()).isEqualTo("qemu/cache=unsafe");
        assertThat(o.results().get(0).findings()).extracting(f -> f.code()).contains(FindingCode.HOST_FLUSHES_MISSING);
        assertThat(o.log()).contains("the host's side of vda: NO_REAL_FLUSH");
    }
}
