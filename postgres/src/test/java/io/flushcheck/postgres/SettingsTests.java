package io.flushcheck.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SettingsTests {

    @Test
    void aRowIsNameValuePairsSeparatedByCommas() {
        assertThat(Settings.parseRow("synchronous_commit=off, wal_writer_delay=10ms"))
                .containsExactly("synchronous_commit=off", "wal_writer_delay=10ms");
        assertThat(Settings.parseRow(" ")).isEmpty();
        assertThat(Settings.describe(List.of())).isEqualTo("defaults");
    }

    @Test
    void anythingElseIsRefusedWithThePartNamed() {
        assertThatThrownBy(() -> Settings.parseRow("fsync=off,nonsense")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nonsense'");
        assertThatThrownBy(() -> Settings.parseRow("fsync=")).hasMessageContaining("name=value");
        assertThatThrownBy(() -> Settings.parseRow("-c x=1")).hasMessageContaining("'-c x=1'");
    }
}
