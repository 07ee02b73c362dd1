package io.flushcheck.storage;

import java.util.Set;

/** What filesystem types say about durability, before any device is looked at. */
public final class FsTypes {

    private static final Set<String> RAM = Set.of("tmpfs", "ramfs", "devtmpfs", "hugetlbfs", "shm");
    private static final Set<String> NETWORK = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "glusterfs",
            "afs", "9p", "virtiofs", "vboxsf", "vmhgfs", "prl_fs", "davfs", "lustre", "gpfs", "beegfs");

    private FsTypes() {
    }

    /** Filesystems that live in memory only. */
    public static boolean isRamFs(String fsType) {
        return RAM.contains(fsType);
    }

    /** Network and host-shared filesystems: durability is decided on the other side. */
    public static boolean isNetworkOrShared(String fsType) {
        return NETWORK.contains(fsType) || fsType.equals("fuse") || fsType.startsWith("fuse.")
               ;
    }

    public static boolean isOverlay(String fsType) {
        return fsType.equals("overlay") || fsType.equals("overlayfs") || fsType.equals("aufs");
    }
}
