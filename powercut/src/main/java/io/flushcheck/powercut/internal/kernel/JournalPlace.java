package io.flushcheck.powercut.internal.kernel;

import io.flushcheck.powercut.internal.sys.Commands;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Where a filesystem's journal lies on its drive, read from an image of it with the filesystem's own tools:
 * ext2/3/4's journal inode (8) through e2fsprogs' {@code dumpe2fs} and {@code debugfs}, xfs's internal log
 * through {@code xfs_db}. mkfs places it and it never moves, so any image of the drive answers. btrfs has
 * none (its log tree lives in metadata chunks like any other tree), nor has an ext4 with an external journal.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JournalPlace {

    /** {@code length} bytes of the drive from {@code offset}. */
    public record Range(long offset, long length) {
    }

    private static final Pattern EXT_BLOCK_SIZE = Pattern.compile("(?m)^Block size:\\s+(\\d+)");
    // "(0-4095):16385-20480", or "(0):16385" for one block
    private static final Pattern EXT_EXTENT = Pattern.compile("\\((\\d+)(?:-(\\d+))?\\):(\\d+)(?:-(\\d+))?");
    private static final Pattern XFS_FIELD = Pattern.compile("(?m)^(\\w+) = (\\d+)$");

    private JournalPlace() {
    }

    /** The journal's ranges on the drive whose image is {@code image}; empty for a filesystem without one. */
    public static List<Range> of(String fs, Path image) throws IOException {
        if (fs.startsWith("ext")) {
            return ext(image);
        }
        if (fs.equals("xfs")) {
            return xfs(image);
        }
        return List.of();
    }

    private static List<Range> ext(Path image) throws IOException {
        String header = Commands.run(tool("dumpe2fs"), "-h", image.toString());
        Matcher size = EXT_BLOCK_SIZE.matcher(header);
        if (!header.contains("Journal inode:") || !size.find()) {
            return List.of();
        }
        return extExtents(Commands.run(tool("debugfs"), "-c", "-R", "stat <8>", image.toString()),
                Long.parseLong(size.group(1)));
    }

    /** The extents {@code debugfs}' {@code stat} lists after {@code EXTENTS:}, in bytes of {@code blockSize}. */
    static List<Range> extExtents(String stat, long blockSize) {
        int from = stat.indexOf("EXTENTS:");
        List<Range> ranges = new ArrayList<>();
        if (from < 0) {
            return ranges;
        }
        Matcher m = EXT_EXTENT.matcher(stat.substring(from));
        while (m.find()) {
            long first = Long.parseLong(m.group(3));
            long last = m.group(4) == null ? first : Long.parseLong(m.group(4));
            ranges.add(new Range(first * blockSize, (last - first + 1) * blockSize));
        }
        return ranges;
    }

    private static List<Range> xfs(Path image) throws IOException {
        return xfsLog(Commands.run(tool("xfs_db"), "-r", "-c", "sb 0", "-c", "print logstart logblocks blocksize agblocks agblklog",
                image.toString()));
    }

    /**
     * The internal log from {@code xfs_db}'s superblock fields. {@code logstart} is a filesystem block number,
     * the allocation group in its high bits ({@code agblklog} wide below them); 0 means an external log.
     */
    static List<Range> xfsLog(String fields) {
        java.util.Map<String, Long> f = new java.util.HashMap<>();
        Matcher m = XFS_FIELD.matcher(fields);
        while (m.find()) {
            f.put(m.group(1), Long.parseLong(m.group(2)));
        }
        Long start = f.get("logstart");
        if (start == null || start == 0 || f.size() < 5) {
            return List.of();
        }
        long blockSize = f.get("blocksize");
        long group = start >>> f.get("agblklog");
        long inGroup = start & ((1L << f.get("agblklog")) - 1);
        return List.of(new Range((group * f.get("agblocks") + inGroup) * blockSize, f.get("logblocks") * blockSize));
    }

    private static String tool(String name) {
        Path p = Filesystems.find(name);
        return p == null ? name : p.toString();
    }
}
