package io.flushcheck.powercut.internal.kernel;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What differs between the filesystems a simulated disk carries: how to make one without questions, the
 * smallest size its mkfs accepts, a default size, and how to mount a survivor beside the original it was
 * cut from (xfs refuses a second filesystem with a mounted one's UUID unless told {@code nouuid}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Filesystems {

    private static final long MIB = 1L << 20;

    private Filesystems() {
    }

    /** The mkfs command line: quiet, forced (the drive is fresh), the user's options, then the device. */
    public static List<String> mkfs(String fs, List<String> options, String device) {
        List<String> cmd = new ArrayList<>(List.of(tool(fs)));
        cmd.addAll(options);
        if (fs.startsWith("ext")) {
            cmd.addAll(List.of("-q", "-F"));
        } else if (fs.equals("xfs") || fs.equals("btrfs")) {
            cmd.addAll(List.of("-q", "-f"));
        }
        cmd.add(device);
        return cmd;
    }

    public static String tool(String fs) {
        return "mkfs." + fs;
    }

    /** The Debian package that has {@link #tool}. */
    public static String debianPackage(String fs) {
        return switch (fs) {
            case "ext2", "ext3", "ext4" -> "e2fsprogs";
            case "xfs" -> "xfsprogs";
            case "btrfs" -> "btrfs-progs";
            default -> "the package with " + tool(fs);
        };
    }

    /**
     * The smallest drive mkfs accepts: mkfs.xfs (since xfsprogs 5.19) refuses filesystems of 300 MB or
     * less, mkfs.btrfs devices under 114294784 bytes; 16 MiB for the others.
     */
    public static long minimumBytes(String fs) {
        return switch (fs) {
            case "xfs" -> 300 * MIB;
            case "btrfs" -> 114294784L;
            default -> 16 * MIB;
        };
    }

    /** The size used when none is asked for: 512 MiB for xfs (above its minimum), 256 MiB for the others. */
    public static long defaultBytes(String fs) {
        return fs.equals("xfs") ? 512 * MIB : 256 * MIB;
    }

    /**
     * Mount options (mount's {@code -o}) for the filesystem a test gets. ext4 is told {@code noinit_itable}:
     * mkfs leaves its inode tables unwritten, and the kernel zeroes them in the background some seconds
     * after the mount (32 MiB and a flush on a 256 MiB drive), in the middle of the test, with writes and a
     * flush the test never made. The drive reads sectors never written as zeros, so those tables are zero
     * already. xfs is told {@code nouuid}: drives made alike start from one image, so every disk of one size
     * and options has the same UUID, as a survivor has its original's (which may still be mounted, lazily),
     * and xfs refuses a second mount of a UUID without it. Survivors are mounted with the same options.
     */
    public static List<String> mountOptions(String fs) {
        return switch (fs) {
            case "ext4" -> List.of("noinit_itable");
            case "xfs" -> List.of("nouuid");
            default -> List.of();
        };
    }

    /** The tool's path, on PATH or in the sbin directories a non-login root shell may lack; null if absent. */
    public static Path find(String tool) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String dir : dirs) {
            Path p = Path.of(dir, tool);
            if (!dir.isEmpty() && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
