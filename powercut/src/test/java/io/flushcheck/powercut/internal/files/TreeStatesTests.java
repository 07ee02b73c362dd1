package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording's crash states enumerated under a bound: the same first states, in the same order, as without one,
 * the bound applied as they are found (only those within it made whole, an epoch at most), and each epoch heard of.
 */
class TreeStatesTests {

    private static final int FILES = 300;

    @TempDir
    Path tmp;

    /**
     * {@value #FILES} files made and written, one synced (which commits every name), then each written again and
     * half of them renamed, to the end: two epochs of about {@value #FILES} times three states each.
     */
    private RegularFile recording() throws Exception {
        return TreeRecordings.record(tmp, FILES, (t, made) -> {
            for (int i = 0; i < FILES; i++) {
                t.write(made.get(i), 4096, ByteBuffer.wrap(("again " + i).getBytes(StandardCharsets.UTF_8)));
                if (i % 2 == 0) {
                    t.rename(FileTree.ROOT, "f" + i, FileTree.ROOT, "g" + i, false);
                }
            }
        });
    }

    @Test
    void theBoundKeepsTheFirstStatesInOrderAndMakesNoMoreWholeThanItKeepsAnEpoch() throws Exception {
        try (RegularFile recording = recording()) {
            TreeStates.Enumerated all = TreeStates.enumerate(recording, Files.createDirectories(tmp.resolve("a")),
                    Integer.MAX_VALUE);
            TreeStates.Enumerated five = TreeStates.enumerate(recording, Files.createDirectories(tmp.resolve("b")), 5);
            assertThat(all.states()).as("states without a bound").hasSizeGreaterThan(3 * FILES);
            assertThat(all.leftOut()).isZero();
            assertThat(all.made()).as("states made whole without a bound").isEqualTo(all.states().size());
            assertThat(describe(five.states())).isEqualTo(describe(all.states().subList(0, 5)));
            assertThat(five.leftOut()).isEqualTo(all.states().size() - 5);
            assertThat(five.duplicates()).isEqualTo(all.duplicates());
            assertThat(five.epochs()).isEqualTo(2);
            // Each epoch makes whole only the states within the bound as it ends: not one for each found.
            assertThat(five.made()).as("states made whole under a bound of 5").isBetween(5L, 10L);
        }
    }

    @Test
    void eachEpochIsHeardOfWithTheDistinctStatesFoundSoFar() throws Exception {
        try (RegularFile recording = recording()) {
            List<String> heard = new ArrayList<>();
            TreeStates.Enumerated e = TreeStates.enumerate(recording, Files.createDirectories(tmp.resolve("p")), 5,
                    (epochs, states) -> heard.add(epochs + ":" + states));
            long distinct = e.states().size() + e.leftOut();
            assertThat(heard).hasSize(2).last().isEqualTo("2:" + distinct);
            assertThat(heard.get(0)).startsWith("1:").isNotEqualTo("1:0").isNotEqualTo("1:" + distinct);
        }
    }

    /**
     * Every kind of record, made before the recording started (the tree it starts from, not operations) and after:
     * counting the records finds the epochs and operations a replay does.
     */
    @Test
    void countingTheRecordsFindsTheEpochsAndOperationsAReplayDoes() throws Exception {
        Path file = tmp.resolve("mixed");
        FileTree t = new FileTree(0, 0, Files.createDirectories(tmp.resolve("mixed-store")), Long.MAX_VALUE, true);
        try {
            long before = t.create(FileTree.ROOT, "before", false, 0644, 0, 0).id();
            t.write(before, 0, ByteBuffer.wrap("there first".getBytes(StandardCharsets.UTF_8)));
            t.create(FileTree.ROOT, "d0", true, 0755, 0, 0);
            t.record(file);
            long d = t.create(FileTree.ROOT, "d", true, 0755, 0, 0).id();
            long f = t.create(d, "f", false, 0644, 0, 0).id();
            t.write(f, 8192, ByteBuffer.wrap("sparse".getBytes(StandardCharsets.UTF_8)));
            t.link(f, FileTree.ROOT, "f2");
            t.sync(f);
            t.truncate(f, 0);
            t.closed(f);
            t.setAttributes(f, 0600, null, null, null);
            t.rename(d, "f", FileTree.ROOT, "before", false);
            t.remove(FileTree.ROOT, "f2", false);
            t.sync(d);
            t.remove(FileTree.ROOT, "d0", true);
            t.stopRecording();
        } finally {
            t.close();
        }
        try (RegularFile recording = RegularFile.open(file)) {
            TreeReplay.Replayed played = TreeReplay.replay(recording, Files.createDirectories(tmp.resolve("played")),
                    false, (tree, epoch, flushesBefore, last) -> { });
            assertThat(played.epochs()).isEqualTo(3);
            assertThat(played.operations()).isEqualTo(10);
            assertThat(TreeReplay.count(recording)).isEqualTo(played);
        }
    }

    private static List<String> describe(List<TreeStates.Candidate> states) {
        List<String> out = new ArrayList<>();
        for (TreeStates.Candidate c : states) {
            out.add(c.epoch() + " " + c.lost() + " " + c.state().pick() + " " + c.state().description() + " "
                    + c.state().digest());
        }
        return out;
    }
}
