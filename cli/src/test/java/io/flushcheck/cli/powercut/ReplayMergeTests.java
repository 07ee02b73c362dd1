package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.CrashStates;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The merge's arithmetic on documents made here: which shard's entry each state takes, the counts summed, and the
 * explanations kept on the first failing states of the whole, as one run gives them.
 */
class ReplayMergeTests {

    /** Eight states; states 2, 3, 4, 6 and 7 (from 0) fail. Shard s of 2 checks the states i with i % 2 == s. */
    private static final boolean[] PASSES = {true, true, false, false, false, true, false, false};

    @Test
    void moreFailingStatesThanOneRunExplainsKeepExplanationsOnTheFirstOnly() {
        assertThat(CrashStates.EXPLAINED).as("this test needs more failing states than are explained").isLessThan(5);
        ReplayOutput.Document merged = ReplayMerge.merge(List.of("b.json", "a.json"), List.of(shard(2), shard(1)));

        assertThat(merged.shard()).isNull();
        assertThat(merged.checked()).isEqualTo(8);
        assertThat(merged.failed()).isEqualTo(5);
        assertThat(merged.passed()).isEqualTo(3);
        assertThat(merged.otherShards()).isZero();
        assertThat(merged.seconds()).isEqualTo(3.0);
        List<String> explained = new ArrayList<>();
        for (ReplayOutput.State s : merged.states()) {
            assertThat(s.checked()).isTrue();
            if (s.explanation() != null) {
                explained.add(s.state());
            }
        }
        assertThat(explained).containsExactly("state 2", "state 3", "state 4");
        assertThat(merged.states()).extracting(ReplayOutput.State::passed)
                .containsExactly(true, true, false, false, false, true, false, false);
        assertThat(merged.states().get(7).failure()).isEqualTo("lost record 7");
    }

    @Test
    void shardsOfDifferentDrawsDoNotMerge() {
        ReplayOutput.Document drawn = shard(1);
        drawn = new ReplayOutput.Document(drawn.mode(), drawn.recording(), drawn.shard(), drawn.verify(), drawn.model(),
                drawn.rules(), drawn.fs(), drawn.atomicWriteBytes(), drawn.maxStates(), new ReplayOutput.Draw(5, 1), drawn.writes(),
                drawn.epochs(), drawn.acknowledgements(), drawn.checked(), drawn.passed(), drawn.failed(),
                drawn.otherShards(), drawn.duplicates(), drawn.leftOut(), drawn.seconds(), drawn.states());
        List<ReplayOutput.Document> docs = List.of(drawn, shard(2));
        assertThatThrownBy(() -> ReplayMerge.merge(List.of("a.json", "b.json"), docs))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"draw\"");
    }

    /** Shard {@code n} of 2, as {@code --replay --shard n/2} documents it: its own first failing states explained. */
    static ReplayOutput.Document shard(int n) {
        List<ReplayOutput.State> states = new ArrayList<>();
        int checked = 0;
        int failed = 0;
        for (int i = 0; i < PASSES.length; i++) {
            boolean mine = i % 2 == n - 1;
            if (!mine) {
                states.add(new ReplayOutput.State("state " + i, 1, false, false, null, null));
                continue;
            }
            checked++;
            if (PASSES[i]) {
                states.add(new ReplayOutput.State("state " + i, 1, true, true, null, null));
            } else {
                failed++;
                states.add(new ReplayOutput.State("state " + i, 1, true, false, "lost record " + i,
                        failed <= CrashStates.EXPLAINED ? List.of("record " + i + " missing") : null));
            }
        }
        return new ReplayOutput.Document(ReplayOutput.MODE, "f".repeat(64), n + "/2", "check {dir}", "block", null, "ext4",
                4096, 8, null, 20, 4, 6, checked, checked - failed, failed, PASSES.length - checked, 0, 0, 1.5, states);
    }
}
