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
 * Runs a test on a fresh {@link SimulatedDisk} whose flushes start to fail with the power on, at a point of the
 * test's own workload: once {@link #after()} flushes of the test method have completed, the next fails with
 * {@link #errno()}, and with {@link #persistent()} every one after it. The test runs its workload on
 * {@link SimulatedDisk#path()}, notes what the program acknowledged, calls {@link SimulatedDisk#cutPower()} and
 * checks that every acknowledged record survived ({@link AcknowledgedRecords} names the ones lost):
 * <pre>
 * &#64;FailingSyncs(sweep = true)
 * void nothingAcknowledgedIsLost(SimulatedDisk disk) throws IOException {
 *     AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
 *     try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
 *         for (int i = 0; i &lt; 10; i++) {
 *             journal.append("record " + i);        // returns once synced, or throws
 *             acks.add("record " + i);
 *         }
 *     } catch (IOException failedSync) {
 *         // a journal that stops at a failed sync acknowledges nothing more
 *     }
 *     acks.assertDurable(Journal.readAll(disk.cutPower().resolve("journal")));
 * }
 * </pre>
 *
 * <p>With {@link #sweep()}, the test runs once with no failing flush, counting the workload's flushes (N, up to
 * its first cut), then once for each fault point {@code after} = 0 .. N-1 (spread over them when N is more than
 * {@link #times()} - 1). Each invocation's display name names its point ({@code [3] flush 2 of 14 fails with
 * EIO, and every one after}), and a failing invocation's message says how to repeat only it: the annotation
 * with that {@code after}, or the configuration parameter {@value #AFTER_PARAMETER} (for example
 * {@code mvn test -Dtest='JournalTest#nothingLost' -Dflushcheck.failingsyncs.after=2}).
 *
 * <p>The disks are made as {@link SimulatedPowerLoss} on the method or its class says, or with its defaults,
 * and need what it needs; invocations run one at a time. What each model passes up: on the block model the
 * program's sync returns EIO whatever the errno (the loop device's doing), on the file model the errno itself.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(FailingSyncsExtension.class)
@ResourceLock(SimulatedPowerLoss.LOCK)
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public @interface FailingSyncs {

    /** The configuration parameter (or system property) that runs only the invocation of one fault point. */
    String AFTER_PARAMETER = "flushcheck.failingsyncs.after";

    /** Flushes of the test method that complete before the first that fails; without a sweep, the one point. */
    long after() default 0;

    /** What the drive fails the flush with. */
    Errno errno() default Errno.EIO;

    /** Whether every flush after the first failed one fails too; without, only that one. */
    boolean persistent() default true;

    /** One invocation per fault point of the workload, after one that counts its flushes; {@link #after()} is then unused. */
    boolean sweep() default false;

    /** In a sweep, the most invocations, the counting one included. */
    int times() default 20;
}
