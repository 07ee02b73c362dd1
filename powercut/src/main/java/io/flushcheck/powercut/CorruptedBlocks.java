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
 * Runs a test once with its storage intact and then once per damaged block of what its workload left on the disk,
 * each on a fresh {@link SimulatedDisk}: the sweep of CORDS (Ganesan et al., "Redundancy Does Not Imply Fault
 * Tolerance", FAST 2017), after a power cut. The test runs its workload on {@link SimulatedDisk#path()}, calls
 * {@link SimulatedDisk#cutPower()} and checks what it reads back from the survivor, as a {@link RepeatedPowerCut}
 * test does; in every invocation but the first, one block of one surviving file is damaged as the cut returns,
 * before the test reads anything:
 * <pre>
 * &#64;CorruptedBlocks(times = 40)
 * void noAcknowledgedRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
 *     AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -&gt; {
 *         try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
 *             for (int i = 0; i &lt; 100; i++) {
 *                 journal.append("record " + i);        // returns once synced
 *                 acknowledged.add("record " + i);
 *             }
 *         }
 *     });
 *     Path survivor = disk.cutPower();
 *     acks.readBack(() -&gt; Journal.readAll(survivor.resolve("journal"))).assertNotSilent();
 * }
 * </pre>
 *
 * <p>The first invocation damages nothing; its survivor's regular files, cut into blocks of {@link #blockBytes()},
 * are the sites, each with each of {@link #kinds()}. The others take up to {@code times - 1} of these sites spread
 * evenly over them (every one where there are enough invocations), with a seed for each drawn from {@link #seed()}.
 * What each kind ({@link BlockDamage}) does, and when:
 * <ul>
 *   <li>{@link BlockDamage#BIT_ROT bit rot} and {@link BlockDamage#ZEROED zeroed} bytes change data at rest on the
 *       survivor as the cut returns ({@link SimulatedDisk#corrupt}): what the program reads back, not what it wrote,
 *       is wrong;
 *   <li>a {@link BlockDamage#BAD_SECTOR bad sector} and a {@link BlockDamage#TRANSIENT_READ transient read error}
 *       fail the survivor's reads of the block, armed as the cut returns ({@link SimulatedDisk#failReads}); a disk
 *       that cannot fail a survivor's reads aborts the invocation with its reason (a file of the survivor held open,
 *       or bytes no write that survived the cut put on the drive: a block of a file never synced).
 *       A transient error fails the first read that reaches the drive: for a buffered read that is the kernel's
 *       read-ahead, whose error Linux ignores, reading each page again on its own, so the program reads the bytes
 *       (only O_DIRECT meets the error); the report entry says how many reads failed;
 *   <li>a {@link BlockDamage#LOST_WRITE lost write} and a {@link BlockDamage#MISDIRECTED_WRITE misdirected write} are
 *       armed before the test method runs ({@link SimulatedDisk#failWrites}), on the file of the disk named as the
 *       site's file of the first survivor: every write the workload makes to the block is acknowledged, and so is the
 *       sync after it, and is dropped, or made at another block of the same file (drawn from the seed; the block after
 *       the file's end for a file of one block) instead. A workload that writes the same files each run meets it; an
 *       invocation where no write reached the block aborts, saying so. The file model arms it on the file by its
 *       name, at the first write the file gets. The block model arms it on the drive, where the listing run's
 *       workload left the block (on ext4 every run is made to place a file's blocks alike: its per-processor pools
 *       for small files, {@code mb_stream_req}, are off), and checks after the cut that the survivor's block lies
 *       there, aborting the invocation where it does not; a pinned lying write ({@link #block()}) runs the listing
 *       invocation first. btrfs writes a changed block elsewhere (copy on write): there the invocation aborts.
 * </ul>
 * A site whose file is not on this invocation's survivor (a workload that varies from run to run) aborts that
 * invocation, saying so.
 *
 * <p>Each invocation's display name names its site ({@code [4] bit rot in journal bytes 8192+4096, seed 31},
 * {@code [5] misdirected write in journal bytes 0+4096 to bytes 8192}), its report entry
 * {@code flushcheck.faults.block} says exactly what was done ({@code bit 3 of byte 8200 of journal flipped},
 * {@code 12 writes to journal bytes 4096+4096 acknowledged and lost}), and a failing invocation's message says it and how to repeat exactly that invocation: {@link #block()},
 * or the configuration parameter {@value #BLOCK_PARAMETER}.
 *
 * <p>Disks are made as {@link SimulatedPowerLoss} on the method or its class says, or with its defaults; on the
 * block model the filesystem above the damaged drive answers as it does (btrfs checks its data's checksums and
 * fails the read; ext4 and xfs return the bytes). Invocations run one at a time. Usable on a method or another
 * annotation.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(CorruptedBlocksExtension.class)
@ResourceLock(SimulatedPowerLoss.LOCK)
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public @interface CorruptedBlocks {

    /** The configuration parameter (or system property) that runs only the invocation of one damaged block. */
    String BLOCK_PARAMETER = "flushcheck.faults.block";

    /** The kinds of damage; each site gets each kind. */
    BlockDamage[] kinds() default {BlockDamage.BIT_ROT, BlockDamage.ZEROED};

    /** The most invocations, the first (nothing damaged) included; fewer when there are fewer sites. */
    int times() default 20;

    /** The size of a damaged block: a disk's sector (512) up to a filesystem's block (4096, the default) and more. */
    int blockBytes() default 4096;

    /** The seed each site's seed is drawn from: the same seed damages the same bits. */
    long seed() default 0;

    /**
     * Only this damaged block, in one invocation: {@code "bit rot in journal bytes 8192+4096, seed 31"},
     * {@code "zeroed in db/wal bytes 0+4096"}, {@code "lost write in journal bytes 4096+4096"}, as a display name
     * writes it ({@link DamagedBlock#parse}). Empty: sweep.
     */
    String block() default "";
}
