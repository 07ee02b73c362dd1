package io.flushcheck.powercut.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The power both models share: flushes counted, cuts armed at and during a flush, and what a flush gets after. */
class PowerSwitchTests {

    private final PowerSwitch power = new PowerSwitch();
    private final List<String> events = new ArrayList<>();

    /** A flush as a model runs one: carried out when the switch lets it, else what the switch answered. */
    private int flush() {
        int refused = power.arrive(seed -> {
            power.freeze();
            events.add("model cut, seed " + seed);
        });
        if (refused != PowerSwitch.CARRY_OUT) {
            return refused;
        }
        power.completed(k -> events.add("flush " + k));
        return 0;
    }

    @Test
    void flushesAreCountedWhileThePowerIsOn() {
        assertThat(flush()).isZero();
        assertThat(flush()).isZero();
        assertThat(power.flushes()).isEqualTo(2);
        assertThat(power.frozen()).isFalse();
        assertThat(events).containsExactly("flush 1", "flush 2");
    }

    @Test
    void whatWatchesTheFlushesHearsEachOneBeforeItCounts() {
        power.whenCompleting(k -> events.add("completing " + k + " of which " + power.flushes() + " counted"));
        flush();
        flush();
        power.whenCompleting(null);
        flush();
        assertThat(events).containsExactly("completing 1 of which 0 counted", "flush 1",
                "completing 2 of which 1 counted", "flush 2", "flush 3");
    }

    @Test
    void aCutAtAFlushComesAsItCompletesAfterItIsCountedAndLaterFlushesFail() {
        power.whenFrozen(() -> events.add("frozen"));
        power.cutAtFlush(2, () -> events.add("at cut"));
        assertThat(flush()).isZero();
        assertThat(power.frozen()).isFalse();
        assertThat(flush()).as("the armed flush itself completed").isZero();
        assertThat(events).containsExactly("flush 1", "flush 2", "at cut", "frozen");
        assertThat(power.frozen()).isTrue();
        assertThat(power.armedCutHappened()).isTrue();
        assertThat(power.cutAtArmedFlush()).isTrue();
        assertThat(flush()).as("the workload's next flush").isEqualTo(PowerLossModel.EIO);
        assertThat(power.flushes()).isEqualTo(2);
    }

    @Test
    void aCutDuringAFlushFailsThatFlushAndHandsTheModelTheSeed() {
        power.whenFrozen(() -> events.add("frozen"));
        power.cutDuringFlush(2, 42);
        assertThat(flush()).isZero();
        assertThat(flush()).isEqualTo(PowerLossModel.EIO);
        assertThat(events).containsExactly("flush 1", "frozen", "model cut, seed 42");
        assertThat(power.flushes()).as("the interrupted flush never completed").isEqualTo(1);
        assertThat(power.armedCutHappened()).isTrue();
        assertThat(power.cutAtArmedFlush()).isFalse();
    }

    @Test
    void afterACutByACallFlushesPassUndoneAndNoArmedCutIsReported() {
        power.cutAtFlush(5, null);
        flush();
        power.requirePower();
        power.freeze();
        assertThat(flush()).as("the workload is over; its last flushes pass").isZero();
        assertThat(power.flushes()).isEqualTo(1);
        assertThat(power.armedCutHappened()).isFalse();
        assertThatThrownBy(power::requirePower).isInstanceOf(IllegalStateException.class)
                .hasMessage("the power is already cut");
    }

    @Test
    void armingTheLatestCutReplacesTheOtherAndAFlushThatHappenedCannotBeArmed() {
        flush();
        assertThatThrownBy(() -> power.cutAtFlush(1, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("flush 1 has already happened (1 so far)");
        power.cutDuringFlush(2, 7);
        power.cutAtFlush(2, null);
        assertThat(flush()).as("at, not during: the flush completes").isZero();
        assertThat(power.cutAtArmedFlush()).isTrue();
        assertThatThrownBy(() -> power.cutDuringFlush(3, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPlannedFailureFailsTheFlushWithoutCountingIt() {
        power.failFlushesAfter(1, false, 28);
        assertThat(flush()).isZero();
        assertThat(flush()).isEqualTo(28);
        assertThat(flush()).as("not persistent: the next one works").isZero();
        assertThat(power.flushes()).isEqualTo(2);
        assertThat(power.failedFlushes()).isEqualTo(1);
    }
}
