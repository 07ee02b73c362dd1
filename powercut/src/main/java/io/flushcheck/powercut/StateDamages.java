package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.disk.ModelStates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The damaged blocks each crash state is checked with ({@link CrashStates#damaged}): up to a count of the state's
 * (block, kind) pairs, spread evenly over them and seeded as a {@link CorruptedBlocks} sweep spreads its invocations
 * ({@link BlockSites#spread}), or one block named, where the state's file holds it. Each is picked (the byte and bit
 * of bit rot, the bytes zeroed) against the file's size in that state.
 */
final class StateDamages implements ModelStates.Damages {

    private final BlockDamage[] kinds;
    private final int blockBytes;
    private final int count;
    private final long seed;
    /** The one block damaged, or null for a sweep. */
    private final DamagedBlock only;

    private StateDamages(BlockDamage[] kinds, int blockBytes, int count, long seed, DamagedBlock only) {
        this.kinds = kinds;
        this.blockBytes = blockBytes;
        this.count = count;
        this.seed = seed;
        this.only = only;
    }

    /** Up to {@code count} of a state's (block, kind) pairs of {@code blockBytes}, seeded from {@code seed}. */
    static StateDamages sweep(List<DataFault.Kind> kinds, int blockBytes, int count, long seed) {
        if (kinds == null || kinds.isEmpty() || kinds.stream().anyMatch(java.util.Objects::isNull)) {
            throw new IllegalArgumentException("name at least one kind of damage (DataFault.Kind.BIT_ROT, ZEROED), no null");
        }
        if (blockBytes < 1) {
            throw new IllegalArgumentException("a damaged block holds at least 1 byte, not " + blockBytes);
        }
        if (count < 0) {
            throw new IllegalArgumentException("a state is damaged at least 0 times, not " + count);
        }
        return new StateDamages(kinds.stream().distinct().map(BlockDamage::atRest).toArray(BlockDamage[]::new), blockBytes,
                count, seed, null);
    }

    /** Only {@code block}, in each state whose file holds any of its bytes. */
    static StateDamages only(DamagedBlock block) {
        if (block == null || !block.damages()) {
            throw new IllegalArgumentException("name a damaged block (DamagedBlock.parse(\"zeroed in db/wal bytes 0+4096\"))");
        }
        if (block.kind() != BlockDamage.BIT_ROT && block.kind() != BlockDamage.ZEROED) {
            // A crash state is data at rest: no program's reads or writes run on it but the check's own.
            throw new IllegalArgumentException("a crash state is damaged at rest, by bit rot or zeroed bytes, not by a "
                    + block.kind().words() + " (" + block + "): a @CorruptedBlocks sweep or flushcheck powercut damage"
                    + " takes that kind");
        }
        return new StateDamages(new BlockDamage[] {block.kind()}, block.length(), 1, block.seed(), block);
    }

    @Override
    public List<ModelStates.Damage> of(Path survivor) throws IOException {
        List<BlockSites.SurvivingFile> files = BlockSites.files(survivor);
        List<DamagedBlock> blocks = only != null ? List.of(only)
                : BlockSites.spread(files, kinds, blockBytes, count, seed);
        List<ModelStates.Damage> damages = new ArrayList<>();
        for (DamagedBlock b : blocks) {
            long size = files.stream().filter(f -> f.name().equals(b.file())).mapToLong(BlockSites.SurvivingFile::size)
                    .findFirst().orElse(-1);
            if (size <= b.offset()) {
                continue; // not in this state, or it holds none of the block's bytes
            }
            Path file = b.on(survivor).file();
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            DataFault.Pick p = b.on(survivor).pick(size, b.file());
            damages.add(new ModelStates.Damage(b.toString(), b.file(), p.offset(), p.length(), p.bit(), b));
        }
        return damages;
    }
}
