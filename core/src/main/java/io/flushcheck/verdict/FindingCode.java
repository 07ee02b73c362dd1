package io.flushcheck.verdict;

import org.apiguardian.api.API;

/**
 * Stable codes of findings; tools may match on them. Each says which way it pushes the verdict:
 * any {@link Verdict#NO_REAL_FLUSH} finding decides the verdict, else any {@link Verdict#UNKNOWN} finding
 * (nothing here can show syncs kept), else any {@link Verdict#REAL_FLUSH} finding, else it is UNKNOWN.
 * Findings with a null effect only inform.
 */
@API(status = API.Status.STABLE, since = "0.1")
public enum FindingCode {
    RAM_FILESYSTEM(Verdict.NO_REAL_FLUSH),
    RAM_BLOCK_DEVICE(Verdict.NO_REAL_FLUSH),
    SYNC_INTERPOSER(Verdict.NO_REAL_FLUSH),
    BARRIERS_OFF(Verdict.NO_REAL_FLUSH),
    FLUSHES_MISSING(Verdict.NO_REAL_FLUSH),
    /**
     * Syncs returned with no flush completed at every level of the chain while they ran: a sync that waits
     * for a cache flush always sees one complete, so these did not reach the disk.
     */
    SYNCS_WITHOUT_FLUSH(Verdict.NO_REAL_FLUSH),
    WRITES_MISSING(Verdict.NO_REAL_FLUSH),
    SYNC_TOO_FAST(Verdict.NO_REAL_FLUSH),
    FLUSHES_REACHED(Verdict.REAL_FLUSH),
    WRITES_REACHED_WRITE_THROUGH(Verdict.REAL_FLUSH),
    /** Some deciding modes' syncs reached the device, others' did not show: no verdict from them. */
    FLUSHES_REACHED_IN_SOME_MODES(null),
    /**
     * A loop device somewhere under the path keeps its backing file on a filesystem without a block device that
     * is not memory (FUSE, a network filesystem, an overlay whose upper layer is not visible): the loop device
     * counts every flush it receives, whatever becomes of it there. Caps the verdict at UNKNOWN.
     */
    UNCOUNTED_LEVEL(Verdict.UNKNOWN),
    /**
     * The directory opened for the probe is not on the mount its storage facts were judged on: it was renamed,
     * replaced or mounted over between inspection and probe. No probe runs; caps the verdict at UNKNOWN.
     */
    DIRECTORY_CHANGED(Verdict.UNKNOWN),
    NETWORK_FILESYSTEM(null),
    FUSE_DAEMON(null),
    NO_LOCAL_FLUSHES(null),
    OTHER_DEVICE_WORK(null),
    VIRTUAL_DISK(null),
    CONTAINER(null),
    OVERLAY(null),
    PRELOADED_LIBRARY(null),
    SYNC_SYMBOL_INTERPOSED(null),
    SUSPICIOUSLY_FAST(null),
    NO_DEVICE_COUNTERS(null),
    NOT_PROBED(null),
    NO_DECIDING_MODE(null),
    PROBE_FAILED(null),
    NATIVE_UNAVAILABLE(null),
    UNSUPPORTED_OS(null),
    /** Files left by flushcheck processes that no longer run were removed before the probe. */
    STALE_FILES_REMOVED(null),
    /** A VM guest's flushes reached the host's disk under its virtual disk (counted on the host's side). */
    HOST_FLUSHES_REACHED(Verdict.REAL_FLUSH),
    /** A VM guest's disk is write-through, and the host's disk under it completed a flush for its writes. */
    HOST_WRITES_SYNCED(Verdict.REAL_FLUSH),
    /**
     * A VM guest's syncs completed while the host's disk under its virtual disk received no flushes for them: found
     * by the host that ran the guest, or, inside a guest, stated by that host ({@link io.flushcheck.storage.HostEdge}).
     */
    HOST_FLUSHES_MISSING(Verdict.NO_REAL_FLUSH),
    /** The host directory that holds a VM guest's disk image is itself NO_REAL_FLUSH. */
    HOST_STORAGE_NO_REAL_FLUSH(Verdict.NO_REAL_FLUSH),
    /** The host directory that holds a VM guest's disk image, and its verdict. */
    HOST_STORAGE(null);

    private final Verdict effect;

    FindingCode(Verdict effect) {
        this.effect = effect;
    }

    /** The verdict this finding argues for, or null when it only informs. */
    public Verdict effect() {
        return effect;
    }
}
