package io.flushcheck.powercut;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Damage to a block of a file on what survived a power cut, placed by {@link #on} for {@link SimulatedDisk#corrupt}:
 * {@code length} bytes from {@code offset} of the survivor's file {@code file} (relative to the survivor, '/' between
 * names), damaged as {@code kind} says, a bit drawn from {@code seed} for bit rot. Written as {@link CorruptedBlocks#block()} and
 * {@link #parse} take it: {@code bit rot in journal bytes 8192+4096, seed 31}, {@code zeroed in db/wal bytes 0+4096}.
 *
 * @param kind   what is done to the bytes; null for none (a sweep's first invocation)
 * @param file   the file, relative to the survivor
 * @param offset the block's first byte in the file
 * @param length the block's bytes; the damage touches only those the file holds
 * @param seed   the seed that draws the flipped bit (bit rot); 0 for zeroed
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record DamagedBlock(DataFault.Kind kind, String file, long offset, int length, long seed) {

    private static final Pattern FORM = Pattern.compile("(bit rot|zeroed) in (.+) bytes (\\d+)\\+(\\d+)(?:, seed (-?\\d+))?");

    static DamagedBlock none() {
        return new DamagedBlock(null, null, 0, 0, 0);
    }

    /** False for none. */
    public boolean damages() {
        return kind != null;
    }

    /** Reads what {@link #toString()} writes; throws with the accepted form otherwise. */
    public static DamagedBlock parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (m.matches()) {
            DataFault.Kind kind = m.group(1).equals("zeroed") ? DataFault.Kind.ZEROED : DataFault.Kind.BIT_ROT;
            try {
                long offset = Long.parseLong(m.group(3));
                int length = Integer.parseInt(m.group(4));
                if (length > 0 && (kind == DataFault.Kind.ZEROED || m.group(5) != null)) {
                    return new DamagedBlock(kind, m.group(2), offset, length, m.group(5) == null ? 0 : Long.parseLong(m.group(5)));
                }
            } catch (NumberFormatException e) {
                // too large: refused below with the accepted form
            }
        }
        throw new IllegalArgumentException("not a damaged block: \"" + text + "\" (write \"bit rot in FILE bytes OFFSET+LENGTH,"
                + " seed S\" or \"zeroed in FILE bytes OFFSET+LENGTH\", FILE relative to the survivor, LENGTH from 1)");
    }

    @Override
    public String toString() {
        if (!damages()) {
            return "nothing damaged";
        }
        String where = " in " + file + " bytes " + offset + "+" + length;
        return kind == DataFault.Kind.ZEROED ? "zeroed" + where : "bit rot" + where + ", seed " + seed;
    }

    /**
     * Up to {@code count} damaged blocks of {@code survivor}'s regular files, spread evenly over every (block, kind)
     * in order of file name, offset and {@code kinds}, each bit rot seeded from {@code seed}: the sweep
     * {@link CorruptedBlocks} runs. Symbolic links are not followed; ext4's {@code lost+found} is left out.
     */
    public static List<DamagedBlock> sweep(Path survivor, Collection<DataFault.Kind> kinds, int blockBytes, int count, long seed) {
        return BlockSites.spread(BlockSites.files(survivor), kinds.toArray(DataFault.Kind[]::new), blockBytes, count, seed);
    }

    /**
     * This damage as a fault on {@code survivor}'s file, for {@link SimulatedDisk#corrupt}: {@code disk.corrupt(
     * block.on(disk.cutPower()))}.
     *
     * @throws IllegalArgumentException when it damages nothing, or its file would lead out of {@code survivor}
     */
    public DataFault on(Path survivor) {
        if (!damages()) {
            throw new IllegalArgumentException("nothing damaged: no fault to place");
        }
        Path p = survivor.resolve(file).normalize();
        if (!p.startsWith(survivor.normalize()) || p.equals(survivor.normalize())) {
            throw new IllegalArgumentException(file + " is not a file of the survivor " + survivor);
        }
        DataFault fault = kind == DataFault.Kind.ZEROED ? DataFault.zeroed(p) : DataFault.bitRot(p);
        return fault.range(offset, length).seed(seed);
    }
}
