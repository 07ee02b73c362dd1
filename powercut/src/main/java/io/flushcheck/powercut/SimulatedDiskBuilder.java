package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.block.BlockDisk;
import io.flushcheck.powercut.internal.filemodel.FileDisk;
import io.flushcheck.powercut.internal.host.DriveHost;
import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.powercut.internal.kernel.LoopsExhaustedException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * A simulated disk described option by option, made by {@link #create(Path)}; from {@link SimulatedDisk#builder()}.
 *
 * <pre>{@code
 * try (SimulatedDisk disk = SimulatedDisk.builder()
 *         .model(DiskModel.BLOCK).fs("xfs").sizeMiB(512).atomicWriteBytes(512)
 *         .create(work)) {
 *     Files.writeString(disk.path().resolve("a"), "acknowledged");
 *     Path survivor = disk.cutPower();      // what survived, mounted here to read
 * }
 * }</pre>
 *
 * <p>{@link #fs}, {@link #mkfsOptions}, {@link #directIo} and {@link #atomicWriteBytes} are the block model's,
 * {@link #rules} the file model's; {@link #sizeMiB} or {@link #sizeBytes} sizes both. An option the chosen model
 * does not take is refused with an {@link IllegalArgumentException} naming it, never ignored: with
 * {@link DiskModel#AUTO} (the default) the chosen model is AUTO's choice here ({@link DiskModel#resolved()}).
 * Unset options take {@link SimulatedPowerLoss}'s defaults, except the file model's size:
 * {@link SimulatedDisk#DEFAULT_FILES_BYTES}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SimulatedDiskBuilder {

    private DiskModel model = DiskModel.AUTO;
    private long sizeBytes;
    /** The block model's options set so far, by name, for the refusal on the file model. */
    private final Set<String> blockOptions = new LinkedHashSet<>();
    private String fs = "ext4";
    private List<String> mkfsOptions = List.of();
    private boolean directIo;
    private int atomicWriteBytes = 4096;
    private FileRules rules;

    SimulatedDiskBuilder() {
    }

    /** What the disk simulates: {@link DiskModel#BLOCK}, {@link DiskModel#FILE}, or {@link DiskModel#AUTO} (the default). */
    public SimulatedDiskBuilder model(DiskModel model) {
        this.model = Objects.requireNonNull(model, "model");
        return this;
    }

    /** The drive's size in MiB; unset, the filesystem's default (256 MiB, 512 MiB for xfs), or 1 GiB of files. */
    public SimulatedDiskBuilder sizeMiB(int sizeMiB) {
        if (sizeMiB <= 0) {
            throw new IllegalArgumentException("sizeMiB: a disk holds a positive number of MiB, not " + sizeMiB);
        }
        return sizeBytes((long) sizeMiB << 20);
    }

    /** The drive's size in bytes (the block model: a multiple of 4 KiB). */
    public SimulatedDiskBuilder sizeBytes(long sizeBytes) {
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("sizeBytes: a disk holds a positive number of bytes, not " + sizeBytes);
        }
        this.sizeBytes = sizeBytes;
        return this;
    }

    /** The block model's filesystem: {@code ext4} (the default), {@code xfs} or {@code btrfs}. */
    public SimulatedDiskBuilder fs(String fs) {
        this.fs = Objects.requireNonNull(fs, "fs");
        blockOptions.add("fs");
        return this;
    }

    /** The block model's options for mkfs, before the device. */
    public SimulatedDiskBuilder mkfsOptions(String... options) {
        return mkfsOptions(List.of(options));
    }

    /** The block model's options for mkfs, before the device. */
    public SimulatedDiskBuilder mkfsOptions(List<String> options) {
        this.mkfsOptions = List.copyOf(options);
        blockOptions.add("mkfsOptions");
        return this;
    }

    /** Whether the block model's loop device uses direct I/O; the disk is refused if the kernel leaves it off. */
    public SimulatedDiskBuilder directIo(boolean directIo) {
        this.directIo = directIo;
        blockOptions.add("directIo");
        return this;
    }

    /** The bytes the block model's drive writes atomically: 4096 (the default), 2048, 1024 or 512. */
    public SimulatedDiskBuilder atomicWriteBytes(int atomicWriteBytes) {
        if (!SimulatedDisk.validAtomicWriteBytes(atomicWriteBytes)) {
            throw new IllegalArgumentException("atomicWriteBytes: a drive writes 512, 1024, 2048 or 4096 bytes atomically, not "
                    + atomicWriteBytes);
        }
        this.atomicWriteBytes = atomicWriteBytes;
        blockOptions.add("atomicWriteBytes");
        return this;
    }

    /** The file model's rules: {@link FileRules#JOURNALED} (the default) or {@link FileRules#POSIX}. */
    public SimulatedDiskBuilder rules(FileRules rules) {
        this.rules = Objects.requireNonNull(rules, "rules");
        return this;
    }

    /**
     * Makes the disk under {@code work} (created; removed on close) and mounts it at {@link SimulatedDisk#path()}:
     * the block model's drive with a fresh filesystem, or the file model's tree of files served over FUSE. First it
     * removes what disks of killed JVMs left beside {@code work} (mounts, loop devices, directories), and says so
     * on stderr; a JVM looks there at its first disk and then at most once a minute.
     *
     * @throws IllegalArgumentException an option the chosen model does not take, or a size the filesystem's mkfs refuses
     * @throws IOException              the disk could not be made (a tool missing, no free loop device, a mount refused)
     */
    public SimulatedDisk create(Path work) throws IOException {
        Objects.requireNonNull(work, "work");
        DiskModel chosen = model.resolved();
        String why = model == DiskModel.AUTO ? " (AUTO chose it here: " + DiskModel.autoReason() + ")" : "";
        if (chosen == DiskModel.FILE) {
            if (!blockOptions.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", blockOptions) + ": the block model's, not the file model's"
                        + why + ", which has no filesystem or drive below it");
            }
            return new SimulatedDisk(DiskModel.FILE, FileDisk.make(work, sizeBytes == 0 ? SimulatedDisk.DEFAULT_FILES_BYTES
                    : sizeBytes, (rules == null ? FileRules.JOURNALED : rules).word(), SimulatedDiskBuilder::failed));
        }
        if (rules != null) {
            throw new IllegalArgumentException("rules: the file model's, not the block model's" + why
                    + ", which has its filesystem's rules");
        }
        long size = sizeBytes == 0 ? SimulatedDisk.defaultSizeBytes(fs) : sizeBytes;
        if (size < Filesystems.minimumBytes(fs)) {
            throw new IllegalArgumentException(fs + " needs a drive of at least " + mib(Filesystems.minimumBytes(fs)) + " ("
                    + DiskRequirements.mkfs(fs) + " refuses smaller ones), not " + mib(size));
        }
        if (!DiskRequirements.mkfsInstalled(fs)) {
            throw new IOException(DiskRequirements.mkfs(fs) + " is not installed (Debian: apt-get install "
                    + DiskRequirements.mkfsPackage(fs) + ")");
        }
        try {
            return new SimulatedDisk(DiskModel.BLOCK, BlockDisk.make(work, size, fs, mkfsOptions, directIo,
                    atomicWriteBytes, SimulatedDiskBuilder::failed));
        } catch (LoopsExhaustedException e) {
            throw NoFreeLoopDeviceException.of(e);
        }
    }

    /** A failure of the drive's server as the disk's users get it: nothing the disk reports after it can be trusted. */
    private static IOException failed(DriveHost.ServerFailure failure) {
        return new DriveServerFailedException(failure.getMessage(), failure);
    }

    private static String mib(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }
}
