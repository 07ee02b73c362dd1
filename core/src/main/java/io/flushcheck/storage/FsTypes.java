package io.flushcheck.storage;

import java.util.Set;
import org.apiguardian.api.API;

/** What filesystem types say about durability, before any device is looked at. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FsTypes {

    private static final Set<String> RAM = Set.of("tmpfs", "ramfs", "devtmpfs", "hugetlbfs", "shm");
    private static final Set<String> NETWORK = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "glusterfs",
            "afs", "9p", "virtiofs", "vboxsf", "vmhgfs", "prl_fs", "davfs", "lustre", "gpfs", "beegfs");
    // FUSE subtypes (fuse.NAME) of network and object-store clients.
    private static final Set<String> NETWORK_FUSE = Set.of("sshfs", "s3fs", "gcsfuse", "rclone", "goofys", "juicefs",
            "blobfuse", "blobfuse2", "mount-s3", "glusterfs", "ceph-fuse", "ceph", "davfs", "davfs2", "moosefs", "mfs",
            "lizardfs", "seaweedfs", "cvmfs", "lxcfs", "gvfsd-fuse", "vmhgfs-fuse", "vboxsf");

    private FsTypes() {
    }

    /** Filesystems that live in memory only. */
    public static boolean isRamFs(String fsType) {
        return RAM.contains(fsType);
    }

    /** Network and host-shared filesystems: durability is decided on the other side. */
    public static boolean isNetworkOrShared(String fsType) {
        return NETWORK.contains(fsType) || (fsType.startsWith("fuse.") && NETWORK_FUSE.contains(fsType.substring(5)));
    }

    /**
     * FUSE without a block device of its own ({@code fuse}, {@code fuse.bindfs}, {@code fuse.fuse-overlayfs}),
     * whose daemon is not a known network client: what a sync does is the daemon's choice, and where it
     * passes syncs on to local storage, the local disks' counters show them.
     */
    public static boolean isLocalFuse(String fsType) {
        return isFuse(fsType) && !isNetworkOrShared(fsType);
    }

    private static boolean isFuse(String fsType) {
        return fsType.equals("fuse") || fsType.startsWith("fuse.");
    }

    public static boolean isOverlay(String fsType) {
        return fsType.equals("overlay") || fsType.equals("overlayfs") || fsType.equals("aufs");
    }
}
