package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedDisk;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code --model}, {@code --fs} and {@code --size-mib}: the simulated disk a power-cut command runs its program on. A
 * command adds it as a {@code @Mixin}, so each takes them with the same words and checks them the same way.
 */
final class DiskOptions {

    static final int DEFAULT_SIZE_MIB = 256;

    @Option(names = "--model", paramLabel = "MODEL", converter = PowerCutConverters.Model.class,
            description = "what the disk simulates: block (a filesystem on a drive with a volatile cache; root), file"
                    + " (files durable at their fsync, names as --rules says; no root), or auto (default): block"
                    + " where it can run, file elsewhere")
    DiskModel model = DiskModel.AUTO;

    @Option(names = "--fs", paramLabel = "FS", description = "the filesystem: ext4 (default), or one whose mkfs.FS is installed")
    String fs;

    @Option(names = "--size-mib", paramLabel = "N", converter = PowerCutConverters.SizeMib.class,
            description = "the disk's size in MiB (default " + DEFAULT_SIZE_MIB + ", 512 for xfs; at least 300 for xfs and 109"
                    + " for btrfs, whose mkfs refuses less; only what is written takes space, in files beside the disk,"
                    + " not memory)")
    Integer sizeMib;

    /** The block model's filesystem: {@code --fs}, ext4 when not given. */
    String fs() {
        return fs == null ? "ext4" : fs;
    }

    /** The disk's size: {@code --size-mib}, else the filesystem's default (512 MiB for xfs, 256 MiB otherwise). */
    long sizeBytes() {
        return sizeMib != null ? (long) sizeMib << 20 : SimulatedDisk.defaultSizeBytes(fs());
    }

    /** Refuses an {@code --fs} that is no filesystem's name; {@code command} names the command in the message. */
    void checkFsName(String command) throws UsageException {
        if (fs != null && (fs.isEmpty() || !fs.chars().allMatch(Character::isLetterOrDigit))) {
            throw new UsageException(command + " --fs takes a filesystem's name (ext4, xfs, btrfs), not '" + fs + "'");
        }
    }

    /** Refuses, on the block model, a size the filesystem's mkfs would refuse. */
    void checkSize(String command) throws UsageException {
        if (sizeBytes() < SimulatedDisk.minimumSizeBytes(fs())) {
            throw new UsageException(String.format(Locale.ROOT, "%s --size-mib %d: %s needs a disk of at least %d MiB"
                    + " (its mkfs refuses smaller ones)", command, sizeBytes() >> 20, fs(),
                    (SimulatedDisk.minimumSizeBytes(fs()) + (1 << 20) - 1) >> 20));
        }
    }

    /** What {@code --model auto} chose and why, for a message about an option the chosen model does not take. */
    String autoChoice() {
        return model == DiskModel.AUTO ? " (--model auto chose it here: " + DiskModel.autoReason() + ")" : "";
    }
}
