package io.flushcheck.cli.powercut;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One cut of {@code flushcheck powercut}: where the power went, what it took, and what the verify said.
 *
 * @param number         1 for the first cut
 * @param seed           the cut's seed: which unflushed sectors survive a cut at the command's exit and,
 *                       at random, at which flush the power goes
 * @param afterFlushes   the flush of the command's after or during which the power was to go (one beyond its last
 *                       for its exit)
 * @param cutAt          {@code flush} (as the command's {@code afterFlushes}-th flush completed), {@code during} (as it
 *                       arrived), {@code exit} (it ended first) or {@code timeout} (it was still running when its time
 *                       was up)
 * @param commandExit    the command's exit code when it ended before the cut, else null
 * @param commandTail    the last lines of the command's output
 * @param flushes        flushes the drive completed between the command's start and the cut
 * @param discardedBytes unflushed bytes the cut discarded
 * @param keptBytes      unflushed bytes the cut kept
 * @param verifyExit     the verify command's exit code; null when it did not run or timed out
 * @param verifyTail     the last lines of the verify command's output
 * @param failure        why the cut failed without a verify exit code (the survivor would not mount, a timeout), or null
 * @param armedDuring    whether the cut was armed during a flush (it may still have come at the exit): the repeat
 *                       line's choice between {@code --during-flush} and {@code --after-flushes}
 * @param lost           the file model's word on what only its rules lost ({@link io.flushcheck.powercut.PowerCut#lost()});
 *                       empty when there is none
 * @param discarded      what the cut discarded, an operation an entry with the sync it missed (the file model's);
 *                       empty when the model cannot say
 */
record CutOutcome(int number, long seed, long afterFlushes, String cutAt, Integer commandExit, String commandTail,
                  long flushes, long discardedBytes, long keptBytes, Integer verifyExit, String verifyTail,
                  String failure, boolean armedDuring, String lost, List<String> discarded) {

    CutOutcome {
        lost = lost == null ? "" : lost;
        discarded = discarded == null ? List.of() : List.copyOf(discarded);
    }

    /** A cut that lists nothing it discarded. */
    CutOutcome(int number, long seed, long afterFlushes, String cutAt, Integer commandExit, String commandTail,
               long flushes, long discardedBytes, long keptBytes, Integer verifyExit, String verifyTail,
               String failure, boolean armedDuring) {
        this(number, seed, afterFlushes, cutAt, commandExit, commandTail, flushes, discardedBytes, keptBytes, verifyExit,
                verifyTail, failure, armedDuring, "", List.of());
    }

    /** What the file model writes after an operation on data, where a name change has its directory's reason. */
    private static final String DATA_REASON = ", file not synced";
    private static final Pattern MORE = Pattern.compile("and \\d+ more");

    /**
     * The name changes (create, mkdir, rename, link, unlink) the cut discarded, which the byte counts leave out:
     * {@code 0}, {@code 2}, or {@code 1000+} when the model listed only the first of them.
     */
    String discardedNameChanges() {
        int names = 0;
        boolean more = false;
        for (String op : discarded) {
            if (MORE.matcher(op).matches()) {
                more = true;
            } else if (!op.endsWith(DATA_REASON)) {
                names++;
            }
        }
        return names + (more ? "+" : "");
    }

    boolean passed() {
        return failure == null && verifyExit != null && verifyExit == 0;
    }

    /** The verify's result in a few words: {@code passed}, {@code failed (exit 1)}, or why there is none. */
    String verdict() {
        if (failure != null) {
            return "failed: " + failure;
        }
        return verifyExit == 0 ? "passed" : "failed (exit " + verifyExit + ")";
    }

    /**
     * Where the power went, in words: {@code flush 3}, {@code during 3}, {@code exit}, {@code exit 1} (its exit code),
     * {@code timeout}.
     */
    String where() {
        if (cutAt.equals("flush")) {
            return "flush " + afterFlushes;
        }
        if (cutAt.equals("during")) {
            return "during " + afterFlushes;
        }
        if (cutAt.equals("exit")) {
            return "exit" + (commandExit != null && commandExit != 0 ? " " + commandExit : "");
        }
        return cutAt;
    }
}
