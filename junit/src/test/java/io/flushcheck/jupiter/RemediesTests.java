package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fix a failure names follows the finding that decided it. */
class RemediesTests {

    private static final String MOVE = "give it a directory on a disk";

    private static Judgement no(FindingCode... codes) {
        List<Finding> f = new java.util.ArrayList<>();
        for (FindingCode c : codes) {
            f.add(Finding.of(c, c.name()));
        }
        return new Judgement(Verdict.NO_REAL_FLUSH, f);
    }

    @Test
    void storageUnderTheDirectoryIsFixedByMovingIt() {
        assertThat(Remedies.of(no(FindingCode.RAM_FILESYSTEM), MOVE)).isEqualTo(MOVE);
        assertThat(Remedies.of(no(FindingCode.FLUSHES_MISSING, FindingCode.VIRTUAL_DISK), MOVE)).isEqualTo(MOVE);
    }

    @Test
    void whatTravelsWithTheProcessTheMountOrTheMachineIsNamed() {
        assertThat(Remedies.of(no(FindingCode.SYNC_INTERPOSER), MOVE)).contains("unset LD_PRELOAD");
        assertThat(Remedies.of(no(FindingCode.BARRIERS_OFF), MOVE)).startsWith("mount that filesystem with barriers")
                .endsWith(MOVE);
        assertThat(Remedies.of(no(FindingCode.HOST_FLUSHES_MISSING), MOVE)).contains("cache=none").doesNotContain(MOVE);
        assertThat(Remedies.of(no(FindingCode.HOST_STORAGE_NO_REAL_FLUSH), MOVE)).contains("disk image");
    }

    @Test
    void theDecidingFindingCountsNotAnInformativeOne() {
        Judgement j = new Judgement(Verdict.NO_REAL_FLUSH, List.of(Finding.of(FindingCode.RAM_FILESYSTEM, "tmpfs"),
                Finding.of(FindingCode.PRELOADED_LIBRARY, "libfoo")));
        assertThat(Remedies.of(j, MOVE)).isEqualTo(MOVE);
    }
}
