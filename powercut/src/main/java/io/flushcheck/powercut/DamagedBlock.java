package io.flushcheck.powercut;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Damage to a block of a file, as a {@link CorruptedBlocks} sweep does it: {@code length} bytes from {@code offset} of
 * the file {@code file} (relative to the disk's root or its survivor's, '/' between names), damaged as {@code kind}
 * says. Bit rot and zeroed bytes are placed by {@link #on} for {@link SimulatedDisk#corrupt}, a bad sector and a
 * transient read error by {@link #reads} for {@link SimulatedDisk#failReads}, both on the survivor; a lost or
 * misdirected write by {@link #writes} for {@link SimulatedDisk#failWrites}, on the disk before the workload writes.
 * Written as {@link CorruptedBlocks#block()} and {@link #parse} take it:
 * {@code bit rot in journal bytes 8192+4096, seed 31}, {@code zeroed in db/wal bytes 0+4096},
 * {@code lost write in journal bytes 4096+4096}, {@code misdirected write in journal bytes 0+4096 to bytes 8192},
 * {@code bad sector in journal bytes 0+4096}, {@code transient read error in journal bytes 0+4096}.
 *
 * @param kind   what is done to the block; null for none (a sweep's first invocation)
 * @param file   the file, relative to the disk's root
 * @param offset the block's first byte in the file
 * @param length the block's bytes; the damage touches only those the file holds
 * @param seed   the seed that draws the flipped bit (bit rot); 0 for the other kinds
 * @param target where a misdirected write's bytes land: the byte of the same file; -1 for the other kinds
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record DamagedBlock(BlockDamage kind, String file, long offset, int length, long seed, long target) {

    private static final Pattern FORM = Pattern.compile("(bit rot|zeroed|lost write|misdirected write|bad sector"
            + "|transient read error) in (.+) bytes (\\d+)\\+(\\d+)(?:, seed (-?\\d+)| to bytes (\\d+))?", Pattern.DOTALL);

    public DamagedBlock {
        if (kind != null && (kind == BlockDamage.MISDIRECTED_WRITE) != (target >= 0)) {
            throw new IllegalArgumentException(kind == BlockDamage.MISDIRECTED_WRITE
                    ? "a misdirected write needs the byte its bytes land at" : "only a misdirected write has a target");
        }
    }

    /** Damage of any kind but a misdirected write, which lands somewhere ({@link #target}). */
    public DamagedBlock(BlockDamage kind, String file, long offset, int length, long seed) {
        this(kind, file, offset, length, seed, -1);
    }

    static DamagedBlock none() {
        return new DamagedBlock(null, null, 0, 0, 0, -1);
    }

    /** False for none. */
    public boolean damages() {
        return kind != null;
    }

    /** Reads what {@link #toString()} writes; throws with the accepted form otherwise. */
    public static DamagedBlock parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (m.matches()) {
            BlockDamage kind = null;
            for (BlockDamage k : BlockDamage.values()) {
                if (k.words().equals(m.group(1))) {
                    kind = k;
                }
            }
            try {
                long offset = Long.parseLong(m.group(3));
                int length = Integer.parseInt(m.group(4));
                boolean seeded = m.group(5) != null;
                boolean aimed = m.group(6) != null;
                if (length > 0 && seeded == (kind == BlockDamage.BIT_ROT) && aimed == (kind == BlockDamage.MISDIRECTED_WRITE)) {
                    return new DamagedBlock(kind, m.group(2), offset, length, seeded ? Long.parseLong(m.group(5)) : 0,
                            aimed ? Long.parseLong(m.group(6)) : -1);
                }
            } catch (NumberFormatException e) {
                // too large: refused below with the accepted form
            }
        }
        throw new IllegalArgumentException("not a damaged block: \"" + io.flushcheck.text.Escape.of(text) + "\" (write \"bit rot in FILE bytes OFFSET+LENGTH,"
                + " seed S\", \"misdirected write in FILE bytes OFFSET+LENGTH to bytes TARGET\" or \"KIND in FILE bytes"
                + " OFFSET+LENGTH\", KIND zeroed, lost write, bad sector or transient read error, FILE relative to the"
                + " survivor, LENGTH from 1)");
    }

    @Override
    public String toString() {
        if (!damages()) {
            return "nothing damaged";
        }
        String named = kind.words() + " in " + file + " bytes " + offset + "+" + length;
        return switch (kind) {
            case BIT_ROT -> named + ", seed " + seed;
            case MISDIRECTED_WRITE -> named + " to bytes " + target;
            default -> named;
        };
    }

    /**
     * Up to {@code count} damaged blocks of {@code survivor}'s regular files, spread evenly over every (block, kind)
     * in order of file name, offset and {@code kinds}, each bit rot seeded and each misdirected write aimed from
     * {@code seed}: the sweep {@link CorruptedBlocks} runs. Symbolic links are not followed; ext4's {@code lost+found}
     * is left out.
     */
    public static List<DamagedBlock> sweep(Path survivor, Collection<BlockDamage> kinds, int blockBytes, int count, long seed) {
        return BlockSites.spread(BlockSites.files(survivor), kinds.toArray(BlockDamage[]::new), blockBytes, count, seed);
    }

    /**
     * This damage as a fault on {@code survivor}'s file, for {@link SimulatedDisk#corrupt}: {@code disk.corrupt(
     * block.on(disk.cutPower()))}.
     *
     * @throws IllegalArgumentException when it damages nothing, is not data at rest (bit rot, zeroed), or its file
     *     would lead out of {@code survivor}
     */
    public DataFault on(Path survivor) {
        if (damages() && kind != BlockDamage.BIT_ROT && kind != BlockDamage.ZEROED) {
            throw new IllegalArgumentException(this + " is no change to data at rest: no data fault to place");
        }
        Path p = fileOf(survivor);
        DataFault fault = kind == BlockDamage.ZEROED ? DataFault.zeroed(p) : DataFault.bitRot(p);
        return fault.range(offset, length).seed(seed);
    }

    /**
     * This damage as a read fault on {@code survivor}'s file, for {@link SimulatedDisk#failReads}: a bad sector fails
     * every read until rewritten, a transient read error the first.
     *
     * @throws IllegalArgumentException when it is not a read fault, or its file would lead out of {@code survivor}
     */
    public ReadFault reads(Path survivor) {
        if (damages() && !kind.onReads()) {
            throw new IllegalArgumentException(this + " is no read fault");
        }
        ReadFault fault = ReadFault.toFile(fileOf(survivor)).range(offset, length);
        return kind == BlockDamage.TRANSIENT_READ ? fault.once() : fault;
    }

    /**
     * This damage as a write fault on the file under {@code root} (the disk's {@link SimulatedDisk#path()}), for
     * {@link SimulatedDisk#failWrites} before the workload writes: every write to the block is lost, or lands at
     * {@link #target} of the same file.
     *
     * @throws IllegalArgumentException when it is not a write fault, or its file would lead out of {@code root}
     */
    public WriteFault writes(Path root) {
        if (damages() && !kind.onWrites()) {
            throw new IllegalArgumentException(this + " is no write fault");
        }
        Path p = fileOf(root);
        WriteFault fault = WriteFault.toFile(p).range(offset, length);
        return (kind == BlockDamage.LOST_WRITE ? fault.lost() : fault.misdirectedTo(p, target)).always();
    }

    /** The block as its file and range: {@code journal bytes 4096+4096}. */
    private String bytes() {
        return file + " bytes " + offset + "+" + length;
    }

    /**
     * What a lost or misdirected write did, in words a report quotes: {@code 3 writes to journal bytes 4096+4096
     * acknowledged and lost}, {@code ... acknowledged and made at bytes 0+4096 of journal instead}; for {@code met}
     * writes (from 1) that met it. {@link #noWriteMet()} says the other case.
     */
    public String writesMet(long met) {
        String writes = (met == 1 ? "1 write" : met + " writes") + " to " + bytes() + " acknowledged and ";
        return kind == BlockDamage.LOST_WRITE ? writes + "lost" : writes + "made at bytes " + target + "+" + length + " of "
                + file + " instead";
    }

    /** Why a lost or misdirected write did nothing: {@code no write reached journal bytes 4096+4096 in this run}. */
    public String noWriteMet() {
        return "no write reached " + bytes() + " in this run";
    }

    /**
     * What a read fault does, in words a report quotes: {@code every read of journal bytes 0+4096 fails with EIO until
     * rewritten}, {@code the first read of journal bytes 0+4096 that reaches the drive fails with EIO}. The first read to
     * reach the drive may be the kernel's: a buffered read reads ahead, and where the read-ahead fails Linux reads each
     * page again on its own, so a transient error there reaches the program as the bytes.
     */
    public String readsFail() {
        return kind == BlockDamage.BAD_SECTOR ? "every read of " + bytes() + " fails with EIO until rewritten"
                : "the first read of " + bytes() + " that reaches the drive fails with EIO";
    }

    /**
     * As {@link #readsFail()}, with how many reads failed once the survivor was read ({@link SimulatedDisk#failedReads}
     * after, less before): {@code ...fails with EIO; 1 read failed}; a transient error with one read failed and the
     * records intact was met by the kernel's read-ahead and read again.
     */
    public String readsFail(long failed) {
        return readsFail() + "; " + (failed == 0 ? "no read" : failed == 1 ? "1 read" : failed + " reads") + " failed";
    }

    /**
     * The block's file under {@code root}.
     *
     * @throws IllegalArgumentException when it damages nothing, or its file would lead out of {@code root}
     */
    Path fileOf(Path root) {
        if (!damages()) {
            throw new IllegalArgumentException("nothing damaged: no fault to place");
        }
        Path p = root.resolve(file).normalize();
        if (!p.startsWith(root.normalize()) || p.equals(root.normalize())) {
            throw new IllegalArgumentException(file + " is not a file of " + root);
        }
        return p;
    }
}
