package io.flushcheck.powercut;

import org.apiguardian.api.API;

/** What a simulated disk models, and so what it needs to run. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum DiskModel {
    /**
     * {@link #BLOCK} where it can run (root, {@code /dev/fuse} and a free loop device), {@link #FILE}
     * elsewhere.
     */
    AUTO,
    /**
     * A drive with a volatile write cache under a real kernel filesystem (ext4, xfs, btrfs) on a loop
     * device: the filesystem's own journal and ordering decide what survives. Needs root.
     */
    BLOCK,
    /**
     * A tree of files served over FUSE: a file's data is durable at its fsync or fdatasync, and names as its
     * {@link FileRules} say (by default a journaled filesystem's: a sync of anything commits every earlier name
     * change; or POSIX's floor: a name at its directory's fsync). Needs no root: {@code fusermount3} mounts it.
     */
    FILE;

    /** The model a disk made now in this process simulates: AUTO's choice here, or this model itself. */
    public DiskModel resolved() {
        return this != AUTO ? this : blockModelMissing() == null ? BLOCK : FILE;
    }

    /** Why AUTO chooses as it does here: {@code root}, or what the block model misses ({@code not root}). */
    public static String autoReason() {
        String missing = blockModelMissing();
        return missing == null ? "root" : missing + ", which the block model needs";
    }

    /** What this process lacks to run the block model ({@code not root}, {@code no /dev/fuse}), or null. */
    static String blockModelMissing() {
        DiskRequirements.Lack lack = DiskRequirements.lacking(BLOCK, null);
        return lack == null ? null : lack == DiskRequirements.Lack.ROOT ? "not root" : "no /dev/fuse";
    }

    /** Whether this process is root ({@link DiskRequirements#root()}). */
    static boolean root() {
        return DiskRequirements.root();
    }
}
