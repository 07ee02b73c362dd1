package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SyncModeTests {

    private static final String KNOWN = "append-fsync, append-fdatasync, overwrite-fdatasync, dsync, flush-only, "
            + "no-sync, java-force, full-fsync, barrier-fsync";

    @Test
    void parsesTrimsAndDeduplicates() {
        assertThat(SyncMode.parseList(" append-fsync , dsync,append-fsync,"))
                .containsExactly(SyncMode.APPEND_FSYNC, SyncMode.DSYNC);
        assertThat(SyncMode.parse("overwrite-fdatasync")).isEqualTo(SyncMode.OVERWRITE_FDATASYNC);
    }

    @Test
    void unknownModeNamesTheValueAndTheKnownOnes() {
        assertThat(SyncMode.allIds()).isEqualTo(KNOWN);
        assertThatThrownBy(() -> SyncMode.parseList("append-fsync,fsnyc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown sync mode 'fsnyc'; known modes: " + KNOWN);
    }

    @Test
    void emptyListIsAnError() {
        assertThatThrownBy(() -> SyncMode.parseList(" , ,"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no sync mode given; known modes: " + KNOWN);
        assertThatThrownBy(() -> SyncMode.parseList(""))
                .hasMessage("no sync mode given; known modes: " + KNOWN);
    }

    @Test
    void onlySyncingModesOtherThanFlushOnlyCountForTheVerdict() {
        assertThat(SyncMode.NO_SYNC.syncs()).isFalse();
        assertThat(SyncMode.NO_SYNC.countsForVerdict()).isFalse();
        assertThat(SyncMode.FLUSH_ONLY.countsForVerdict()).isFalse();
        assertThat(SyncMode.OVERWRITE_FDATASYNC.countsForVerdict()).isTrue();
        assertThat(SyncMode.JAVA_FORCE.countsForVerdict()).isTrue();
    }

    @Test
    void macOnlyModesAreNotAvailableOnLinux() {
        if (System.getProperty("os.name").toLowerCase().contains("linux")) {
            assertThat(SyncMode.available()).doesNotContain(SyncMode.FULL_FSYNC, SyncMode.BARRIER_FSYNC)
                    .contains(SyncMode.APPEND_FSYNC, SyncMode.JAVA_FORCE).hasSize(7);
        }
    }
}
