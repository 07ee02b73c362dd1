package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link DigestSet} says a digest is new exactly when a {@link HashSet} of the same digests would. */
class DigestSetTests {

    @Test
    void aDigestIsNewOnceWhateverTheSetHasGrownTo() {
        SplittableRandom random = new SplittableRandom(7);
        List<TreeSum> drawn = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            drawn.add(new TreeSum(random.nextLong(), random.nextLong(), random.nextLong(), random.nextLong()));
        }
        // Digests alike in the lane the set indexes by, and in all lanes but one, and the zero sum, which marks a free
        // slot inside the set.
        drawn.add(new TreeSum(1, 2, 3, 4));
        drawn.add(new TreeSum(1, 2, 3, 5));
        drawn.add(new TreeSum(1, 9, 3, 4));
        drawn.add(TreeSum.ZERO);
        drawn.add(new TreeSum(0, 0, 0, 1));
        DigestSet set = new DigestSet(10); // grows many times
        Set<TreeSum> expected = new HashSet<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < drawn.size(); i++) {
                TreeSum s = drawn.get(random.nextInt(drawn.size()));
                assertThat(set.add(s)).as("%s, round %d", s, round).isEqualTo(expected.add(s));
            }
        }
        for (TreeSum s : drawn) {
            assertThat(set.add(s)).as("%s added again", s).isEqualTo(expected.add(s));
        }
        assertThat(expected).hasSize(drawn.size());
    }
}
