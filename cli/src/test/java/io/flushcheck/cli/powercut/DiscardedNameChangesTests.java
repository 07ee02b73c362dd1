package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The row's count of discarded name changes, read from the file model's list of what a cut discarded. */
class DiscardedNameChangesTests {

    private static CutOutcome cut(List<String> discarded) {
        return new CutOutcome(1, 5, 3, "exit", 0, "", 2, 0, 0, 1, "", null, false, "", discarded);
    }

    @Test
    void namesAreCountedAndDataIsLeftToTheByteColumns() {
        assertThat(cut(List.of()).discardedNameChanges()).isEqualTo("0");
        assertThat(cut(List.of("rename value.tmp -> value, no sync after it")).discardedNameChanges()).isEqualTo("1");
        assertThat(cut(List.of("create db, directory not synced", "4096 bytes at offset 0 of db/log, file not synced",
                "truncate db/log to 0 bytes, file not synced", "unlink old, directory not synced"))
                .discardedNameChanges()).isEqualTo("2");
    }

    @Test
    void aListCutShortSaysTheCountIsAtLeastThat() {
        assertThat(cut(List.of("create a, no sync after it", "and 12 more")).discardedNameChanges()).isEqualTo("1+");
    }
}
