package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/**
 * How many crash states are checked at once: twice the machine's processors, unless
 * {@value CrashStates#WORKERS_PROPERTY} says another number from 1 to {@value CrashStates#MAX_WORKERS}; a bad value
 * is refused naming the property and the value.
 */
@ResourceLock(Resources.SYSTEM_PROPERTIES)
class CrashStateWorkersTests {

    private static int withProperty(String value) {
        String before = System.getProperty(CrashStates.WORKERS_PROPERTY);
        try {
            if (value == null) {
                System.clearProperty(CrashStates.WORKERS_PROPERTY);
            } else {
                System.setProperty(CrashStates.WORKERS_PROPERTY, value);
            }
            return CrashStates.defaultWorkers();
        } finally {
            if (before == null) {
                System.clearProperty(CrashStates.WORKERS_PROPERTY);
            } else {
                System.setProperty(CrashStates.WORKERS_PROPERTY, before);
            }
        }
    }

    @Test
    void theDefaultIsTwiceTheMachinesProcessorsUnlessThePropertySaysAnother() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertThat(withProperty(null)).isEqualTo(Math.min(CrashStates.MAX_WORKERS, 2 * cores));
        assertThat(withProperty(" ")).isEqualTo(Math.min(CrashStates.MAX_WORKERS, 2 * cores));
        assertThat(withProperty("1")).isEqualTo(1);
        assertThat(withProperty(" 7 ")).isEqualTo(7);
        assertThat(withProperty(String.valueOf(CrashStates.MAX_WORKERS))).isEqualTo(CrashStates.MAX_WORKERS);
    }

    @Test
    void aBadPropertyIsRefusedNamingItAndItsValue() {
        for (String bad : new String[] {"0", "-2", "65", "many", "2.5"}) {
            assertThatThrownBy(() -> withProperty(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(CrashStates.WORKERS_PROPERTY + "=" + bad + ": ")
                    .hasMessageContaining("from 1 to " + CrashStates.MAX_WORKERS);
        }
    }
}
