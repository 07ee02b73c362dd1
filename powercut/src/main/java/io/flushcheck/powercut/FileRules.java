package io.flushcheck.powercut;

import org.apiguardian.api.API;

/**
 * What the file model ({@link DiskModel#FILE}) makes durable at a sync.
 *
 * <p>Under both, what a cut keeps of a file's data not yet synced follows page-cache writeback: each 4 KiB page
 * reaches the disk as it was at one moment between its last sync and the cut, so of the writes that touched a
 * page a prefix in time survives, never a later write without an earlier one; pages go independently of each
 * other. Of a file's truncations (and sizes set) a prefix survives (under {@link #JOURNALED}, at least those made
 * before the last sync of anything), and a page a truncation cut goes with it.
 * The size is the filesystem's: an extending write's size goes with its data, page by page; a size set beyond
 * the end gives a hole of zeros.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum FileRules {

    /**
     * The default, the rules of a journaled Linux filesystem (ext4, xfs, btrfs): the namespace (create, mkdir,
     * rename, link, unlink, rmdir, and permission bits) is one ordered log across directories, and a sync of any
     * file or directory makes every change made before it durable, in order, with the synced file's data. The
     * journal holds every file's size changes too: a sync of anything makes each earlier truncation or size set
     * of any file durable, with the zeros of the page it cut. Other files' unsynced data stays volatile, page by
     * page: a new file whose name survived may come back empty, as on ext4. A cut keeps a prefix of the log since
     * the last sync.
     */
    JOURNALED,

    /**
     * The POSIX floor: a file's data and size become durable at its own sync, a name only at its directory's sync. A
     * cut keeps a prefix of each directory's changes since that directory's sync. Stricter than any Linux
     * filesystem: it finds what a program gets on every POSIX filesystem.
     */
    POSIX;

    /** The rules in a few words, for the report entry and the first progress line. */
    public String describe() {
        return this == JOURNALED
                ? "journaled rules, as ext4, xfs and btrfs: a sync of anything commits every earlier name change and"
                        + " size change, and the synced file's data"
                : "POSIX rules: data durable at its file's fsync and names at their directory's";
    }

    /** {@code journaled} or {@code posix}: the word the drives' server and the command line take. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The rules {@code word} names, any case. */
    public static FileRules of(String word) {
        return valueOf(word.toUpperCase(java.util.Locale.ROOT));
    }
}
