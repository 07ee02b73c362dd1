package io.flushcheck.powercut.internal.kernel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The filesystems a recording's image may be mounted as, and each one's superblock magic: an image is mounted as
 * the filesystem its superblock says, never as one its recording merely names (tmpfs, proc).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Superblocks {

    /** The filesystems a block recording's image may hold. */
    public static final List<String> MOUNTED = List.of("ext4", "xfs", "btrfs");

    private Superblocks() {
    }

    /**
     * Why {@code image} does not hold the filesystem {@code fs} (one of {@link #MOUNTED}), by its superblock's
     * magic; null when it does.
     */
    public static String mismatch(FileChannel image, String fs) throws IOException {
        return switch (fs) {
            case "ext4" -> expect(image, 1080, new byte[] {0x53, (byte) 0xEF}, "ext4", "0xEF53");
            case "xfs" -> expect(image, 0, "XFSB".getBytes(StandardCharsets.US_ASCII), "xfs", "XFSB");
            case "btrfs" -> expect(image, 65600, "_BHRfS_M".getBytes(StandardCharsets.US_ASCII), "btrfs", "_BHRfS_M");
            default -> "flushcheck mounts only " + String.join(", ", MOUNTED) + ", not " + fs;
        };
    }

    private static String expect(FileChannel image, long at, byte[] magic, String fs, String said) throws IOException {
        ByteBuffer found = ByteBuffer.allocate(magic.length);
        while (found.hasRemaining() && image.read(found, at + found.position()) > 0) {
            // a short read leaves the rest to read again
        }
        return found.hasRemaining() || !found.flip().equals(ByteBuffer.wrap(magic))
                ? "it holds no " + fs + " filesystem: no " + fs + " superblock magic (" + said + ") at byte " + at
                : null;
    }
}
