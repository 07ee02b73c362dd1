package io.flushcheck.powercut;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@link CorruptedBlocks} invocation's damage: {@code length} bytes from {@code offset} of the survivor's file
 * {@code file} (relative to the survivor, '/' between names), damaged as {@code kind} says with {@code seed}; or none
 * (the sweep's first invocation). Written as {@link CorruptedBlocks#block()} takes it:
 * {@code bit rot in journal bytes 8192+4096, seed 31}, {@code zeroed in db/wal bytes 0+4096}.
 */
record BlockDamage(CorruptedBlocks.Kind kind, String file, long offset, int length, long seed) {

    private static final Pattern FORM = Pattern.compile("(bit rot|zeroed) in (.+) bytes (\\d+)\\+(\\d+)(?:, seed (-?\\d+))?");

    static BlockDamage none() {
        return new BlockDamage(null, null, 0, 0, 0);
    }

    boolean damages() {
        return kind != null;
    }

    /** Reads what {@link #toString()} writes; throws with the accepted form otherwise. */
    static BlockDamage parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (m.matches()) {
            CorruptedBlocks.Kind kind = m.group(1).equals("zeroed") ? CorruptedBlocks.Kind.ZEROED : CorruptedBlocks.Kind.BIT_ROT;
            try {
                long offset = Long.parseLong(m.group(3));
                int length = Integer.parseInt(m.group(4));
                if (length > 0 && (kind == CorruptedBlocks.Kind.ZEROED || m.group(5) != null)) {
                    return new BlockDamage(kind, m.group(2), offset, length, m.group(5) == null ? 0 : Long.parseLong(m.group(5)));
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
        return kind == CorruptedBlocks.Kind.ZEROED ? "zeroed" + where : "bit rot" + where + ", seed " + seed;
    }
}
