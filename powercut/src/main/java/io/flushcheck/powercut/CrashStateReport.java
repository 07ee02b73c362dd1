package io.flushcheck.powercut;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What {@link CrashStates#check} found: the crash states it checked, those that failed (smallest first:
 * fewest writes lost), the duplicates it checked once and the states its bound left out. With damage
 * ({@link CrashStates#damaged}), each state's failing checks with a damaged block follow its own, each failure
 * naming its damage.
 *
 * @param checked the states mounted and verified
 * @param failures the states that failed, fewest writes lost first
 * @param duplicates states that left the same image as one checked, not checked again
 * @param leftOut distinct states beyond the bound, not checked
 * @param maxStates the bound
 * @param seconds how long the checking took, images, mounts and verification included
 * @param states every state within the bound, fewest writes lost first, with its failure if it failed; those
 *     another shard checks among them, marked not checked
 * @param otherShards states within the bound that other shards check ({@link CrashStates#check(int, int, int,
 *     CrashStates.Verification)}), not checked here; 0 for a check of them all
 * @param damagedChecks the checks of states with a damaged block ({@link CrashStates#damaged}), besides the states
 *     checked undamaged
 * @param notPlaced the damaged blocks a state listed and had no place for, not checked: on the block model no bytes of
 *     the file's own on the drive (a hole, an inline or unwritten extent), on the file model no such file
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CrashStateReport(int checked, List<Failure> failures, int duplicates, int leftOut, int maxStates,
                               double seconds, List<State> states, int otherShards, long damagedChecks,
                               long notPlaced) {

    /** A report whose damages all had a place. */
    public CrashStateReport(int checked, List<Failure> failures, int duplicates, int leftOut, int maxStates,
                            double seconds, List<State> states, int otherShards, long damagedChecks) {
        this(checked, failures, duplicates, leftOut, maxStates, seconds, states, otherShards, damagedChecks, 0);
    }

    /** A report without damaged checks. */
    public CrashStateReport(int checked, List<Failure> failures, int duplicates, int leftOut, int maxStates,
                            double seconds, List<State> states, int otherShards) {
        this(checked, failures, duplicates, leftOut, maxStates, seconds, states, otherShards, 0, 0);
    }

    /** A report of every state within the bound, none left to other shards. */
    public CrashStateReport(int checked, List<Failure> failures, int duplicates, int leftOut, int maxStates,
                            double seconds, List<State> states) {
        this(checked, failures, duplicates, leftOut, maxStates, seconds, states, 0);
    }

    /** The lines of a failing state's explanation that {@link #assertPassed()} shows; the rest are in the report. */
    static final int SHOWN = 4;

    /**
     * A crash state whose verification failed: undamaged, or with a damaged block placed in it.
     *
     * @param state what the state kept and lost, as {@link CrashStates} says it
     * @param lost the writes of its epoch that did not survive whole
     * @param message what the verification (or the mount) said
     * @param cause what it threw
     * @param explanation what the state lost by name, a line each, with the sync that would have kept it, after a
     *     first line that says what it was compared with (its epoch's state that kept every write, or a later one);
     *     empty for the failing states past the first few, and where the names could not be read, and for a
     *     failure with damage
     * @param damage the damaged block of this check, in the form {@link DamagedBlock#parse} reads; null for the state
     *     undamaged
     * @param done what the damage changed ({@link Corruption}): {@code bit 3 of byte 8200 of db/wal flipped}, on the
     *     block model with the byte of the state's image; null for the state undamaged
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Failure(String state, int lost, String message, Throwable cause, List<String> explanation,
                          DamagedBlock damage, String done) {

        public Failure {
            explanation = List.copyOf(explanation);
        }

        /** A failure of a state undamaged. */
        public Failure(String state, int lost, String message, Throwable cause, List<String> explanation) {
            this(state, lost, message, cause, explanation, null, null);
        }

        /** The state, and the damage where there was one: {@code STATE, with bit 3 of byte 8200 of journal flipped}. */
        public String what() {
            return damage == null ? state : state + ", with " + done;
        }
    }

    /**
     * One state within the bound.
     *
     * @param state what the state kept and lost, as {@link CrashStates} says it
     * @param lost the writes of its epoch that did not survive whole
     * @param failure why it failed (undamaged, else with its first failing damage); null when it passed or was not
     *     checked
     * @param checked false for a state another shard checks
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record State(String state, int lost, Failure failure, boolean checked) {

        /** A state checked. */
        public State(String state, int lost, Failure failure) {
            this(state, lost, failure, true);
        }

        /** Whether it was checked and the verification passed. */
        public boolean passed() {
            return checked && failure == null;
        }
    }

    public CrashStateReport {
        failures = List.copyOf(failures);
        states = List.copyOf(states);
    }

    /** The checks that failed: states undamaged, and states with a damaged block. */
    public int failing() {
        return failures.size();
    }

    /**
     * {@code s} as a Java string literal, quotes included, that a test can paste: a file name may hold a quote, a
     * backslash or a newline. Controls are octal escapes (a unicode escape of a newline would end the line of source).
     */
    static String javaString(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                b.append('\\').append(Integer.toOctalString(c | 0x200).substring(1)); // three digits
            } else if (c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /**
     * Passes when no state failed; otherwise fails naming the smallest failing state, what it dropped, and the
     * first lines of what it lost by name.
     */
    public void assertPassed() {
        if (failures.isEmpty()) {
            return;
        }
        Failure first = failures.get(0);
        StringBuilder message = new StringBuilder((damagedChecks == 0 ? failing() + " of " + checked
                + " crash states failed (" : failing() + " of " + (checked + damagedChecks) + " checks of " + checked
                + " crash states failed (" + damagedChecks + " with a damaged block;" + (notPlaced == 0 ? "" : notPlacedNote() + ";") + " ") + boundNote()
                + "); the smallest, "
                + first.what() + ": " + first.message());
        if (first.damage() != null) {
            message.append("\n  to repeat only this damage: the same recording and check, with damaged(DamagedBlock.parse(")
                    .append(javaString(first.damage().toString())).append("))");
        }
        List<String> lines = first.explanation();
        for (int i = 0; i < Math.min(SHOWN, lines.size()); i++) {
            message.append("\n  ").append(lines.get(i));
        }
        if (lines.size() > SHOWN) {
            message.append("\n  and ").append(lines.size() - SHOWN).append(" more (the report's failures list them)");
        }
        AssertionError e = new AssertionError(message.toString());
        if (first.cause() != null) {
            e.initCause(first.cause());
        }
        throw e;
    }

    /** The damaged blocks not placed, in words: empty when every one was. */
    private String notPlacedNote() {
        return notPlaced == 0 ? "" : " " + notPlaced + (notPlaced == 1 ? " damaged block" : " damaged blocks")
                + " not placed (no such file in the state, or no bytes of the file's own on the drive there; not"
                + " checked)";
    }

    private String boundNote() {
        return (leftOut == 0 ? "none left out" : leftOut + " more left out by the bound of " + maxStates)
                + (otherShards == 0 ? "" : ", " + otherShards + " left to other shards")
                + (duplicates == 0 ? "" : ", " + duplicates + " duplicates checked once");
    }

    @Override
    public String toString() {
        String damage = (damagedChecks == 0 ? "" : ", and " + damagedChecks + " times with a damaged block")
                + (notPlaced == 0 ? "" : "," + notPlacedNote());
        return checked + " crash states checked" + (damage.isEmpty() ? "" : damage + ",") + " in " + String.format("%.1f", seconds) + " s, " + failing()
                + " failing (" + boundNote() + ")";
    }
}
