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
     * A tree of files served over FUSE with the durability POSIX promises and no more: a file's data is
     * durable at its fsync or fdatasync, a name at its directory's fsync. Stricter than ext4, which makes
     * some names durable on its own. Needs no root: {@code fusermount3} mounts it.
     */
    FILE
}
