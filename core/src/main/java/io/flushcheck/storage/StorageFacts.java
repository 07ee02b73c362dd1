package io.flushcheck.storage;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What a path is, found without any I/O on its data path.
 *
 * @param path         the path as asked
 * @param resolved     the real path (symlinks resolved)
 * @param mount        the mount holding it
 * @param device       the block-device chain under the mount, or null when there is none
 * @param upperMount   for overlay mounts whose upper directory is visible here, the mount holding it
 * @param flushPoints  the devices whose counters show whether syncs arrived: every level of the
 *                     chain, the mount's own device first ({@link BlockDevice#levels()}), or where
 *                     no device backs the mount, the disks counted in its place
 * @param flushPointsNote how {@code flushPoints} were chosen, when it was a fallback; else null
 * @param environment  container, hypervisor and sync interposers of this process
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record StorageFacts(String path, String resolved, MountInfo mount, BlockDevice device, MountInfo upperMount,
                           List<BlockDevice> flushPoints, String flushPointsNote, Environment environment) {

    public StorageFacts {
        flushPoints = List.copyOf(flushPoints);
    }

    public String fsType() {
        return mount.fsType();
    }

    /** The mount whose filesystem finally stores the data: the upper layer's for overlay. */
    public MountInfo dataMount() {
        return upperMount != null ? upperMount : mount;
    }

    /** Non-null when the data lives in memory, with the reason. */
    public String ramReason() {
        MountInfo data = dataMount();
        if (FsTypes.isRamFs(mount.fsType())) {
            return resolved + " is on " + mount.fsType() + " (" + mount.mountPoint() + ", mount " + mount.mountId() + ")";
        }
        if (data != mount && FsTypes.isRamFs(data.fsType())) {
            return resolved + " is on overlay whose upper layer is on " + data.fsType() + " (" + data.mountPoint()
                    + ", mount " + data.mountId() + ")";
        }
        if (device != null && device.ramBacked()) {
            return resolved + " is on " + device.describeChain() + ": " + device.ramReason();
        }
        return null;
    }

    /** Mount options of the data's filesystem that switch write barriers off. */
    public List<String> barrierOffOptions() {
        return dataMount().barrierOffOptions();
    }

    /** True when a FUSE daemon with no block device serves the data ({@link FsTypes#isLocalFuse}). */
    public boolean localFuse() {
        return device == null && FsTypes.isLocalFuse(dataMount().fsType());
    }

    public boolean networkOrShared() {
        return FsTypes.isNetworkOrShared(dataMount().fsType());
    }

    /** The device name messages use: {@code vda}, {@code loop0 -> vda}, or the mount source. */
    public String deviceDescription() {
        return device != null ? device.describeChain() : mount.source();
    }
}
