package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.model.PowerLossModel;
import org.junit.jupiter.api.Test;

/** What a cut of the drive discarded, as runs of sectors in bytes of the drive: whole, or torn. */
class SectorStoreDiscardedTests {

    private static final int S = SectorStore.SECTOR;

    @Test
    void aFlushedCutDiscardsEverySectorWrittenSinceTheLastFlushInRuns() {
        SectorStore s = new SectorStore(16L * S);
        s.write(0, new byte[S], S); // durable
        s.flush();
        s.write(S, new byte[2 * S], 2 * S);
        s.write(5L * S, new byte[10], 10);
        s.write(2L * S, new byte[S], S); // again: one sector, once
        assertThat(s.discarded()).as("before a cut").isEmpty();
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(s.discarded()).containsExactly("discarded " + S + " " + 2 * S, "discarded " + 5 * S + " " + S);
    }

    @Test
    void aSubsetCutListsOnlyWhatItDidNotKeepAndTornSectorsApart() {
        SectorStore whole = new SectorStore(64L * S);
        SectorStore torn = new SectorStore(64L * S, 512);
        long wholeDiscarded = 0;
        for (SectorStore s : new SectorStore[] {whole, torn}) {
            s.write(0, new byte[32 * S], 32 * S);
            long[] keptAndDiscarded = s.cut(PowerLossModel.CutMode.SUBSET, 7);
            wholeDiscarded = s == whole ? keptAndDiscarded[1] : wholeDiscarded;
            long listed = s.discarded().stream().mapToLong(e -> Long.parseLong(e.split(" ")[2])).sum();
            // A sector listed lost at least one unit: whole sectors, exactly; torn ones, a unit up to a sector each.
            assertThat(keptAndDiscarded[1]).isPositive();
            assertThat(listed).as("%s", s.discarded())
                    .isBetween(keptAndDiscarded[1] * s.atomicUnit(), Math.min(keptAndDiscarded[1] * S, 32L * S));
        }
        assertThat(whole.discarded()).allMatch(e -> e.startsWith("discarded "));
        assertThat(whole.discarded().stream().mapToLong(e -> Long.parseLong(e.split(" ")[2])).sum())
                .isEqualTo(wholeDiscarded * S);
        assertThat(torn.discarded()).as("eight units a sector: nearly every sector keeps some").anyMatch(e -> e.startsWith("torn "));
    }
}
