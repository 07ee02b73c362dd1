package io.flushcheck.powercut;

import java.util.Arrays;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * What a {@link CorruptedBlocks} sweep does to one block of a file ({@link DamagedBlock}). Three moments:
 * <ul>
 *   <li>on data at rest, after the cut ({@link SimulatedDisk#corrupt}): {@link #BIT_ROT}, {@link #ZEROED};
 *   <li>on the survivor's reads, after the cut ({@link SimulatedDisk#failReads}): {@link #BAD_SECTOR},
 *       {@link #TRANSIENT_READ};
 *   <li>on the workload's writes, armed before it runs ({@link SimulatedDisk#failWrites}): {@link #LOST_WRITE},
 *       {@link #MISDIRECTED_WRITE}.
 * </ul>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum BlockDamage {
    /** One bit of one byte of the block, both drawn from a seed, flips on the survivor. */
    BIT_ROT("bit rot"),
    /** Every byte of the block reads as zero on the survivor. */
    ZEROED("zeroed"),
    /** Every write of the workload to the block is acknowledged, and so is the sync after it, and never made. */
    LOST_WRITE("lost write"),
    /**
     * Every write of the workload to the block is acknowledged and made at another block of the same file instead
     * (the block after the file's end, for a file of one block); the block keeps its old contents.
     */
    MISDIRECTED_WRITE("misdirected write"),
    /** Every read of the block on the survivor fails with EIO until a write covers it. */
    BAD_SECTOR("bad sector"),
    /**
     * The first read of the block on the survivor that reaches the drive fails with EIO; the next succeeds. Where that
     * read is the kernel's read-ahead for a buffered read, Linux ignores its error and reads each page again on its
     * own, and the program gets the bytes: only a read with O_DIRECT meets the error.
     */
    TRANSIENT_READ("transient read error");

    private final String words;

    BlockDamage(String words) {
        this.words = words;
    }

    /** As a damaged block's name writes it: {@code "lost write"}. */
    public String words() {
        return words;
    }

    /** As a command's option writes it: {@code "lost-write"}, {@code "transient-read"}. */
    public String option() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind of damage to data at rest that {@code kind} is. */
    static BlockDamage atRest(DataFault.Kind kind) {
        return switch (kind) {
            case BIT_ROT -> BIT_ROT;
            case ZEROED -> ZEROED;
        };
    }

    /** The kind {@link #option()} names. */
    public static BlockDamage ofOption(String option) {
        for (BlockDamage k : values()) {
            if (k.option().equals(option)) {
                return k;
            }
        }
        throw new IllegalArgumentException("no kind of damage \"" + option + "\": one of "
                + String.join(", ", Arrays.stream(values()).map(BlockDamage::option).toList()));
    }

    /** True for the kinds armed on the workload's writes, before it runs: lost and misdirected writes. */
    public boolean onWrites() {
        return this == LOST_WRITE || this == MISDIRECTED_WRITE;
    }

    /** True for the kinds armed on the survivor's reads: bad sectors and transient read errors. */
    public boolean onReads() {
        return this == BAD_SECTOR || this == TRANSIENT_READ;
    }
}
