package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The arithmetic of a sweep's crash points, and how a point is written. */
class CrashPointTests {

    @Test
    void aFlushSweepSpreadsDistinctPointsFromTheFirstFlushToTheLastButOne() {
        List<CrashPoint> points = RepeatedPowerCutExtension.points(100, 10, RepeatedPowerCut.Sweep.FLUSHES, 0);
        assertThat(points).hasSize(10).allMatch(p -> p.kind() == CrashPoint.Kind.AFTER);
        assertThat(points.get(0).flush()).isEqualTo(1);
        assertThat(points.get(9).flush()).isEqualTo(99);
        assertThat(new HashSet<>(points)).hasSize(10);
        assertThat(RepeatedPowerCutExtension.points(5, 19, RepeatedPowerCut.Sweep.FLUSHES, 0)).as("every flush, no more")
                .extracting(CrashPoint::flush).containsExactly(1L, 2L, 3L, 4L);
        assertThat(RepeatedPowerCutExtension.points(9, 1, RepeatedPowerCut.Sweep.FLUSHES, 0)).extracting(CrashPoint::flush)
                .containsExactly(4L);
    }

    @Test
    void randomPointsAreDrawnWithinTheWorkloadAndTheSameSeedDrawsTheSame() {
        List<CrashPoint> a = RepeatedPowerCutExtension.points(12, 19, RepeatedPowerCut.Sweep.RANDOM, 7);
        assertThat(a).hasSize(19).allMatch(p -> p.kind() == CrashPoint.Kind.DURING && p.flush() >= 1 && p.flush() <= 12);
        assertThat(RepeatedPowerCutExtension.points(12, 19, RepeatedPowerCut.Sweep.RANDOM, 7)).isEqualTo(a);
        assertThat(RepeatedPowerCutExtension.points(12, 19, RepeatedPowerCut.Sweep.RANDOM, 8)).isNotEqualTo(a);
        assertThat(a.stream().map(CrashPoint::flush).distinct().count()).as("spread over the flushes").isGreaterThan(5);
    }

    @Test
    void bothSplitsTheInvocationsAndNoCountMeansNoPoints() {
        List<CrashPoint> both = RepeatedPowerCutExtension.points(40, 19, RepeatedPowerCut.Sweep.BOTH, 0);
        assertThat(both.stream().filter(p -> p.kind() == CrashPoint.Kind.AFTER)).hasSize(10);
        assertThat(both.stream().filter(p -> p.kind() == CrashPoint.Kind.DURING)).hasSize(9);
        assertThat(RepeatedPowerCutExtension.points(2, 19, RepeatedPowerCut.Sweep.BOTH, 0)).as("one flush to cut after")
                .filteredOn(p -> p.kind() == CrashPoint.Kind.AFTER).hasSize(1);
        assertThat(RepeatedPowerCutExtension.points(-1, 19, RepeatedPowerCut.Sweep.BOTH, 0)).isEmpty();
        assertThat(RepeatedPowerCutExtension.points(0, 19, RepeatedPowerCut.Sweep.BOTH, 0)).isEmpty();
    }

    @Test
    void aPointReadsBackAsItIsWritten() {
        for (CrashPoint p : List.of(CrashPoint.end(), CrashPoint.after(3), CrashPoint.during(9, 4411), CrashPoint.during(2, -5))) {
            assertThat(CrashPoint.parse(p.toString())).isEqualTo(p);
        }
        assertThat(CrashPoint.during(9, 4411).describe(14)).isEqualTo("power cut during flush 9 of 14, seed 4411");
        assertThatThrownBy(() -> CrashPoint.parse("after flush 0")).hasMessageContaining("with K from 1");
        assertThatThrownBy(() -> CrashPoint.parse("flush 3")).hasMessageContaining("\"after flush K\"");
    }
}
