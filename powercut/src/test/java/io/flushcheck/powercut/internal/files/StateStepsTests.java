package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording's states written into several places from one replay stepped epoch by epoch: each place holds the
 * state one directory for all holds ({@link TreeStates#visit}), though each skips the states the others took; a
 * state of an epoch already passed is refused; the places and the replay's tree are removed when closed.
 */
class StateStepsTests {

    /** More names than a state directory writes whole each time: the places' states are written from their last. */
    private static final int FILES = 300;

    @TempDir
    Path tmp;

    /** {@value #FILES} files, synced; then three epochs, each writing and renaming some of them, then a sync. */
    private RegularFile recording() throws Exception {
        return TreeRecordings.record(tmp, FILES, (t, made) -> {
            for (int epoch = 1; epoch <= 3; epoch++) {
                for (int i = epoch; i < FILES; i += 40) {
                    t.write(made.get(i), 0, ByteBuffer.wrap(("epoch " + epoch).getBytes(StandardCharsets.UTF_8)));
                }
                t.rename(FileTree.ROOT, "f" + (epoch * 7), FileTree.ROOT, "renamed-" + epoch, false);
                t.sync(made.get(0));
            }
        });
    }

    @Test
    void placesTakingStatesInTurnHoldWhatOneDirectoryForAllHolds() throws Exception {
        try (RegularFile recording = recording()) {
            List<TreeStates.Candidate> states = TreeStates.enumerate(recording,
                    Files.createDirectories(tmp.resolve("enumerated")), Integer.MAX_VALUE).states();
            List<TreeStates.Candidate> byEpoch = new ArrayList<>(states);
            byEpoch.sort(Comparator.comparingInt(TreeStates.Candidate::epoch));
            assertThat(byEpoch.stream().map(TreeStates.Candidate::epoch).distinct().count()).isGreaterThan(2);
            List<String> alone = new ArrayList<>();
            TreeStates.visit(recording, Files.createDirectories(tmp.resolve("visit")), byEpoch, tmp.resolve("alone"),
                    (state, survivor) -> alone.add(describe(survivor)));

            List<String> inTurn = new ArrayList<>();
            java.util.Set<Path> used = new java.util.HashSet<>();
            Path scratch = Files.createDirectories(tmp.resolve("steps"));
            try (StateSteps steps = StateSteps.open(recording, scratch)) {
                List<StateSteps.Place> places = List.of(steps.place(tmp.resolve("a")), steps.place(tmp.resolve("b")),
                        steps.place(tmp.resolve("c")));
                Random pick = new Random(42);
                for (int i = 0; i < byEpoch.size(); i++) {
                    // Not round the clock: a place skips a varying number of states.
                    StateSteps.Place p = places.get(pick.nextInt(places.size()));
                    steps.write(byEpoch.get(i), p);
                    inTurn.add(describe(p.dir()));
                    used.add(p.dir());
                }
                TreeStates.Candidate last = byEpoch.get(byEpoch.size() - 1);
                TreeStates.Candidate first = byEpoch.get(0);
                assertThat(first.epoch()).isLessThan(last.epoch());
                assertThatThrownBy(() -> steps.write(first, places.get(0))).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("in the order of their epochs");
                for (StateSteps.Place p : places) {
                    p.close();
                    assertThat(p.dir()).doesNotExist();
                    assertThat(p.dir().resolveSibling(p.dir().getFileName() + ".clock")).doesNotExist();
                }
            }
            assertThat(inTurn).isEqualTo(alone);
            assertThat(used).as("places used").hasSize(3);
            try (Stream<Path> left = Files.list(scratch)) {
                assertThat(left).as("the replay's tree").isEmpty();
            }
        }
    }

    /** A served state's mount point is noted in the work directory before it is mounted, once per place. */
    @Test
    void aServedStatesMountIsNotedInTheWorkDirectory() throws Exception {
        io.flushcheck.testing.Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        try (RegularFile recording = recording()) {
            List<TreeStates.Candidate> states = TreeStates.enumerate(recording,
                    Files.createDirectories(tmp.resolve("enumerated-served")), 2).states();
            Path work = Files.createDirectories(tmp.resolve("work"));
            Path served = work.resolve("served");
            try (StateSteps steps = StateSteps.open(recording, Files.createDirectories(tmp.resolve("steps-served")));
                 StateSteps.Place p = steps.place(work.resolve("state"), served, 1, work)) {
                steps.write(states.get(0), p);
                try (StateSteps.Place.Held held = p.hold()) {
                    assertThat(held.path()).isEqualTo(served);
                }
                try (StateSteps.Place.Held held = p.hold()) {
                    assertThat(held.path()).isEqualTo(served);
                }
            }
            assertThat(Files.readAllLines(work.resolve("attached"))).containsExactly("mount " + served);
        }
    }

    /** Each name of {@code dir} in order, with its bytes. */
    private static String describe(Path dir) {
        StringBuilder out = new StringBuilder();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted().toList()) {
                out.append(dir.relativize(p));
                if (Files.isRegularFile(p)) {
                    out.append(' ').append(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
                }
                out.append('\n');
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toString();
    }
}
