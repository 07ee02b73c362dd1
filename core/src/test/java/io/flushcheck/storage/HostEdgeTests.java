package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostEdgeTests {

    @Test
    void theEvidenceKeepsItsColons() {
        HostEdge e = HostEdge.parse("vda:missing:cache=unsafe: 0 of 64 flushes reached loop3");
        assertThat(e.device()).isEqualTo("vda");
        assertThat(e.flushesReachHost()).isFalse();
        assertThat(e.evidence()).isEqualTo("cache=unsafe: 0 of 64 flushes reached loop3");
        assertThat(HostEdge.parse(e.propertyValue())).isEqualTo(e);
        assertThat(HostEdge.parse("vdb:reached").evidence()).isEmpty();
    }

    @Test
    void anythingElseIsRefusedWithTheExpectedForm() {
        for (String bad : new String[] {"vda", ":missing:x", "vda:lost:x", "vda:REACHED:x", "a/b:reached:x"}) {
            assertThatThrownBy(() -> HostEdge.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("DEVICE:reached:EVIDENCE");
        }
    }
}
