package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.DiskRequirements;
import io.flushcheck.powercut.FileRules;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/** What this machine must offer before a simulated disk can be made, and where the disks go. */
final class Machine {

    private Machine() {
    }

    /**
     * What this machine lacks to make disks of {@code model} (resolved: BLOCK or FILE) with {@code fs}, or null:
     * the file model needs {@code /dev/fuse}, and fusermount where not root.
     */
    static String missingForDisks(DiskModel model, String fs) {
        if (model != DiskModel.FILE) {
            return missingForDisks(fs);
        }
        DiskRequirements.Lack lack = DiskRequirements.lacking(DiskModel.FILE, null);
        if (lack == DiskRequirements.Lack.FUSE_DEVICE) {
            return "/dev/fuse (modprobe fuse)";
        }
        if (lack == DiskRequirements.Lack.FUSERMOUNT) {
            return "fusermount3 or fusermount to mount FUSE without root (apt-get install fuse3)";
        }
        return null;
    }

    /**
     * As {@link #missingForDisks(DiskModel, String)}, for a command that runs a program on the disks: that program
     * runs in a world of its own, made with util-linux's setsid, setpriv and unshare.
     */
    static String missingForPrograms(DiskModel model, String fs) {
        String missing = missingForDisks(model, fs);
        for (String tool : List.of("setsid", "setpriv", "unshare")) {
            if (missing == null && which(tool) == null) {
                missing = "the " + tool + " command (util-linux)";
            }
        }
        return missing;
    }

    /** The first progress line of the power-cut commands: which model runs, and why where auto chose it. */
    static String modelLine(DiskModel asked, String fs) {
        return modelLine(asked, fs, FileRules.JOURNALED);
    }

    /** As {@link #modelLine(DiskModel, String)}, the file model under {@code rules}. */
    static String modelLine(DiskModel asked, String fs, FileRules rules) {
        String why = asked == DiskModel.AUTO
                ? " (auto: " + DiskModel.autoReason() + ")" : "";
        return asked.resolved() == DiskModel.FILE
                ? "the file model" + why + ": files over FUSE, " + rules.describe()
                : "the block model" + why + ": " + fs + " on a simulated drive with a volatile write cache";
    }

    static String missingForDisks(String fs) {
        DiskRequirements.Lack lack = DiskRequirements.lacking(DiskModel.BLOCK, fs);
        if (lack == DiskRequirements.Lack.ROOT) {
            return "root (to attach loop devices and mount)";
        }
        if (lack == DiskRequirements.Lack.FUSE_DEVICE) {
            return "/dev/fuse (modprobe fuse)";
        }
        for (String tool : new String[] {"losetup", "mount", "umount"}) {
            if (which(tool) == null) {
                return "the " + tool + " command (util-linux, mount)";
            }
        }
        if (lack == DiskRequirements.Lack.MKFS) {
            return DiskRequirements.mkfs(fs) + " to make " + fs + " (e2fsprogs, xfsprogs or btrfs-progs)";
        }
        return null;
    }

    static boolean isRoot() {
        return DiskRequirements.root();
    }

    /** The command's full path on PATH, or null. */
    static Path which(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Where this process's disks are made, in the temporary directory, under a name no one can guess before it is
     * made (128 random bits): the disk makes it, by one mkdir, and removes it when it closes.
     */
    static Path workDir() {
        // Not under /dev/shm: the programs run on the disks have a /dev/shm of their own (ProcessWorld).
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        return Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("flushcheck-powercut-" + HexFormat.of().formatHex(random));
    }

    private static final SecureRandom RANDOM = new SecureRandom();
}
