package io.flushcheck.powercut;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Gives each test a fresh {@link SimulatedDisk} parameter: a disk whose power the test cuts. Each cut is published as a
 * report entry, and a failing test's message names the cuts it made and the call that repeats each. Which {@link
 * #model()} it simulates is published too ({@code flushcheck.powercut.model}): the block model (a real filesystem on a
 * simulated drive; root, {@code /dev/fuse} and a free loop device) where it can run, the file model (a tree of files
 * over FUSE, mounted by {@code fusermount3}; no root) elsewhere. Without what the model needs, the test is skipped with
 * the reason, or fails with {@code flushcheck.missing-tool=fail}. Tests using it run one at a time (resource lock
 * {@value #LOCK}). Usable on a class, a method, or another annotation. It also configures the disks of a {@link
 * RepeatedPowerCut} test in its scope.
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(SimulatedPowerLossExtension.class)
@ResourceLock(SimulatedPowerLoss.LOCK)
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public @interface SimulatedPowerLoss {

    /** The resource lock every simulated disk holds: loop devices and mounts are few. */
    String LOCK = "io.flushcheck.powercut";

    /**
     * What the disk simulates: {@link DiskModel#BLOCK} (the filesystem below, its journal included, on a
     * drive with a volatile cache; needs root), {@link DiskModel#FILE} (files whose data is durable at their
     * fsync, and names as {@link #rules()} says; needs no root), or {@link DiskModel#AUTO}
     * (the default): the block model where the test can have one, the file model elsewhere. {@link #fs()},
     * {@link #mkfsOptions()}, {@link #directIo()} and {@link #atomicWriteBytes()} are the block model's,
     * {@link #rules()} the file model's; {@link #sizeMiB()} sizes both.
     */
    DiskModel model() default DiskModel.AUTO;

    /**
     * The filesystem made on the drive: {@code ext4}, {@code xfs} or {@code btrfs}. Without its mkfs
     * (e2fsprogs, xfsprogs, btrfs-progs) the test is skipped, or fails with {@code flushcheck.missing-tool=fail}.
     */
    String fs() default "ext4";

    /**
     * The drive's size in MiB; 0 picks the filesystem's default: 256 MiB, or 512 MiB for xfs, whose mkfs
     * refuses 300 MiB or less (btrfs needs at least 109 MiB, the others 16); on the file model, 0 picks 256
     * MiB, and a write past the size fails with ENOSPC. The drive lives in sparse files under its work
     * directory, not in memory, and what was never written takes nothing, so a large drive costs little.
     */
    int sizeMiB() default 0;

    /** Options for mkfs, before the device. */
    String[] mkfsOptions() default {};

    /**
     * Whether the loop device reads and writes the drive with direct I/O ({@code losetup --direct-io=on}),
     * as a VM's virtual disk often does; the disk is refused if the kernel leaves it off.
     */
    boolean directIo() default false;

    /**
     * The bytes the drive writes atomically. 4096 (the default): a cut keeping a seeded subset of what was
     * written since the last flush keeps each 4 KiB sector whole or not at all. 512 (or 1024, 2048): it
     * keeps each such unit on its own, so a 4 KiB write may survive torn, part new and part old, as on a
     * drive whose atomic write unit is a 512-byte sector.
     */
    int atomicWriteBytes() default 4096;

    /**
     * The file model's rules: {@link FileRules#JOURNALED} (the default, as ext4, xfs and btrfs: a sync of any
     * file or directory makes every earlier create, rename, link, unlink and mkdir durable, with the synced file's
     * data) or {@link FileRules#POSIX} (a name is durable only at its directory's fsync: what every POSIX
     * filesystem promises). The block model has the rules of its filesystem.
     */
    FileRules rules() default FileRules.JOURNALED;
}
