package io.flushcheck.powercut.internal.disk;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What a model's check of its crash states found, as the model says it; the crash states' face shows it as its
 * report, field for field.
 *
 * @param checked the states verified
 * @param failures the states that failed, fewest writes lost first
 * @param duplicates states that left the same image as one checked, not checked again
 * @param leftOut distinct states beyond the bound, not checked
 * @param maxStates the bound
 * @param seconds how long the checking took
 * @param states every state within the bound, fewest writes lost first, with its failure if it failed
 * @param otherShards states within the bound that other shards check
 * @param damagedChecks the checks of the states checked here with a damage placed ({@link ModelStates.Damages})
 * @param notPlaced the damages the states checked here listed and had no place for (no bytes of the file's own on
 *     the drive: a hole, an inline or unwritten extent), not checked
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record CheckReport(int checked, List<Failure> failures, int duplicates, int leftOut, int maxStates,
                          double seconds, List<State> states, int otherShards, long damagedChecks, long notPlaced) {

    /** A report of a check without damage. */
    public CheckReport(int checked, List<Failure> failures, int duplicates, int leftOut, int maxStates, double seconds,
                       List<State> states, int otherShards) {
        this(checked, failures, duplicates, leftOut, maxStates, seconds, states, otherShards, 0, 0);
    }

    public CheckReport {
        failures = List.copyOf(failures);
        states = List.copyOf(states);
    }

    /**
     * A state whose verification failed: what it kept and lost, what the check said and threw, and why by name; with
     * the damage placed for that check, or null for the state undamaged.
     */
    public record Failure(String state, int lost, String message, Throwable cause, List<String> explanation,
                          Damaged damaged) {

        public Failure {
            explanation = List.copyOf(explanation);
        }

        /** A failure of the state undamaged. */
        public Failure(String state, int lost, String message, Throwable cause, List<String> explanation) {
            this(state, lost, message, cause, explanation, null);
        }
    }

    /** A damage as placed: on the block model where its bytes lay in the state's image; empty on the file model. */
    public record Damaged(ModelStates.Damage damage, List<ModelDisk.FaultRange> drive) {

        public Damaged {
            drive = List.copyOf(drive);
        }
    }

    /**
     * One state within the bound: its failure (undamaged first, else its first damaged check's), null when it passed or
     * was not checked; not checked on another shard.
     */
    public record State(String state, int lost, Failure failure, boolean checked) {
    }
}
