package io.flushcheck.powercut;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Runs a test up to {@link #times()} times, each on a fresh {@link SimulatedDisk} whose power goes at a
 * different point of the test's own workload, so that the test checks every crash point of its code and
 * not only the end. The test runs its workload on {@link SimulatedDisk#path()}, then calls
 * {@link SimulatedDisk#cutPower()} and checks what survived, as a {@link SimulatedPowerLoss} test would:
 * <pre>
 * &#64;RepeatedPowerCut(times = 20)
 * void everyAcknowledgedRecordSurvives(SimulatedDisk disk) throws IOException {
 *     List&lt;String&gt; acknowledged = new ArrayList&lt;&gt;();
 *     try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
 *         for (int i = 0; i &lt; 10; i++) {
 *             journal.append("record " + i);        // returns once synced
 *             acknowledged.add("record " + i);
 *         }
 *     } catch (IOException powerWentMidWorkload) {
 *         // after an armed cut every sync fails: nothing more is acknowledged
 *     }
 *     Path survivor = disk.cutPower();
 *     try (Journal journal = Journal.open(survivor.resolve("journal"))) {
 *         assertTrue(journal.readAll().containsAll(acknowledged));
 *     }
 * }
 * </pre>
 *
 * <p>The first invocation cuts where the test calls {@code cutPower()} and counts the flushes the workload
 * made before it (N, counted from the start of the test method). The others arm a cut beforehand, at a
 * flush of that workload; when it comes, the power goes while the workload runs, and every later sync
 * fails (a program cannot acknowledge what no longer reaches the drive), while its writes are discarded.
 * The test's {@code cutPower()} then mounts what survived that cut.
 * <ul>
 * <li>{@link Sweep#FLUSHES}: after flush k, for k spread evenly over 1 .. N-1 (every one where there are
 * enough invocations): what the flushes up to k made durable survives, nothing after.</li>
 * <li>{@link Sweep#RANDOM}: during flush k, k drawn from a seed: what flush k-1 made durable survives, with
 * a subset of the sectors written since drawn from the same seed (a drive may have written any of them
 * when its power went), and the sync waiting for flush k fails.</li>
 * <li>{@link Sweep#BOTH} (the default): half of each.</li>
 * </ul>
 * A workload whose flushes vary from run to run may end before its armed flush: that invocation then cuts
 * where the test calls {@code cutPower()}, and its report entry {@code flushcheck.powercut.point} says so.
 *
 * <p>Each invocation's display name names its cut point ({@code [3] power cut after flush 2 of 14},
 * {@code [12] power cut during flush 9 of 14, seed 4411}), its report entries name the point and the cut,
 * and a failing invocation's message says how to repeat exactly that invocation: {@link #point()}, or the
 * configuration parameter {@value #POINT_PARAMETER} (for example
 * {@code mvn test -Dtest='StoreTest#survives' -Dflushcheck.powercut.point='after flush 2'}).
 *
 * <p>The disks are made as {@link SimulatedPowerLoss} on the method or its class says (filesystem, size,
 * mkfs options, direct I/O), or with its defaults. Needs what a {@link SimulatedPowerLoss} test needs;
 * invocations run one at a time. Usable on a method or another annotation.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(RepeatedPowerCutExtension.class)
@ResourceLock(SimulatedPowerLoss.LOCK)
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public @interface RepeatedPowerCut {

    /** The configuration parameter (or system property) that runs only the invocation of one crash point. */
    String POINT_PARAMETER = "flushcheck.powercut.point";

    /** How the crash points are chosen. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    enum Sweep {
        /** After the k-th flush, k spread over the workload's flushes. */
        FLUSHES,
        /** During a seeded random flush, keeping a seeded subset of the writes since the flush before. */
        RANDOM,
        /** Half {@link #FLUSHES}, half {@link #RANDOM}. */
        BOTH
    }

    /** The most invocations, the first (the cut at the end) included; fewer when the workload has fewer flushes. */
    int times() default 20;

    /** How the crash points are chosen. */
    Sweep sweep() default Sweep.BOTH;

    /** The seed the {@link Sweep#RANDOM} points derive from: the same seed draws the same points. */
    long seed() default 0;

    /**
     * Only this crash point, in one invocation: {@code "end"}, {@code "after flush 3"} or
     * {@code "during flush 9, seed 4411"}, as a failing invocation's message names it. Empty: sweep.
     */
    String point() default "";
}
