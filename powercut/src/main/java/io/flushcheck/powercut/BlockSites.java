package io.flushcheck.powercut;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The blocks a {@link CorruptedBlocks} sweep damages: every block of every regular file of a survivor, each with each
 * kind, and the ones an invocation count allows, spread evenly over them. A misdirected write's target is another
 * block of the same file, drawn from the site's seed: the block after the file's end for a file of one block.
 */
final class BlockSites {

    private BlockSites() {
    }

    /** A file of a survivor: its name relative to the survivor, '/' between names, and its size. */
    record SurvivingFile(String name, long size) {
    }

    /** The survivor's regular files, sorted by name; symbolic links are not followed, ext4's lost+found is left out. */
    static List<SurvivingFile> files(Path survivor) {
        List<SurvivingFile> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(survivor)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path relative = survivor.relativize(p);
                if (relative.getNameCount() > 0 && relative.getName(0).toString().equals("lost+found")) {
                    continue;
                }
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isRegularFile()) {
                    files.add(new SurvivingFile(relative.toString().replace(relative.getFileSystem().getSeparator(), "/"),
                            a.size()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the files of the survivor " + survivor, e);
        }
        files.sort((a, b) -> a.name().compareTo(b.name()));
        return files;
    }

    /**
     * Up to {@code invocations} damaged blocks of {@code files}, spread evenly over every (block, kind) in order of
     * file, offset and kind, each seeded from {@code seed}.
     */
    static List<DamagedBlock> spread(List<SurvivingFile> files, BlockDamage[] kinds, int blockBytes, int invocations,
                                    long seed) {
        long total = count(files, kinds.length, blockBytes);
        List<DamagedBlock> chosen = new ArrayList<>();
        if (total == 0 || invocations < 1) {
            return chosen;
        }
        long count = Math.min(invocations, total);
        SplittableRandom seeds = new SplittableRandom(seed);
        for (long i = 0; i < count; i++) {
            long site = count == 1 ? total / 2 : i * (total - 1) / (count - 1); // first and last site both taken
            chosen.add(site(files, kinds, blockBytes, site, seeds.nextLong() >>> 33)); // short enough to read in a name
        }
        return chosen;
    }

    /** Every (block, kind) of {@code files}: what a sweep spreads its invocations over. */
    static long count(List<SurvivingFile> files, int kinds, int blockBytes) {
        long total = 0;
        for (SurvivingFile f : files) {
            total += blocks(f.size(), blockBytes) * kinds;
        }
        return total;
    }

    private static long blocks(long size, int blockBytes) {
        return (size + blockBytes - 1) / blockBytes;
    }

    /** The {@code index}-th (block, kind) of {@code files}. */
    private static DamagedBlock site(List<SurvivingFile> files, BlockDamage[] kinds, int blockBytes, long index,
                                    long seed) {
        long left = index;
        for (SurvivingFile f : files) {
            long here = blocks(f.size(), blockBytes) * kinds.length;
            if (left < here) {
                long block = left / kinds.length;
                BlockDamage kind = kinds[(int) (left % kinds.length)];
                return new DamagedBlock(kind, f.name(), block * blockBytes, blockBytes,
                        kind == BlockDamage.BIT_ROT ? seed : 0,
                        kind == BlockDamage.MISDIRECTED_WRITE ? otherBlock(f, block, blockBytes, seed) * blockBytes : -1);
            }
            left -= here;
        }
        throw new IndexOutOfBoundsException("site " + index + " of fewer");
    }

    /** A block of {@code f} other than {@code block}, drawn from {@code seed}; the one after its end when it has one block. */
    private static long otherBlock(SurvivingFile f, long block, int blockBytes, long seed) {
        long others = blocks(f.size(), blockBytes) - 1;
        if (others < 1) {
            return block + 1;
        }
        long r = Math.floorMod(seed, others);
        return r < block ? r : r + 1;
    }
}
