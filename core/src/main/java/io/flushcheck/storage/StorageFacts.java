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
 * @param otherDevices the devices the filesystem writes to besides {@code device}, each in its role
 *                     ({@link BlockDevice#role()}): btrfs's other devices, an external journal or log
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record StorageFacts(String path, String resolved, MountInfo mount, BlockDevice device, MountInfo upperMount,
                           List<BlockDevice> flushPoints, String flushPointsNote, Environment environment,
                           List<BlockDevice> otherDevices) {

    public StorageFacts {
        flushPoints = List.copyOf(flushPoints);
        otherDevices = List.copyOf(otherDevices);
    }

    /** Facts of a filesystem on one device. */
    public StorageFacts(String path, String resolved, MountInfo mount, BlockDevice device, MountInfo upperMount,
                        List<BlockDevice> flushPoints, String flushPointsNote, Environment environment) {
        this(path, resolved, mount, device, upperMount, flushPoints, flushPointsNote, environment, List.of());
    }

    /** {@code device} and {@link #otherDevices()}: every device the filesystem writes to; empty when it has none. */
    public List<BlockDevice> devices() {
        if (device == null) {
            return List.of();
        }
        List<BlockDevice> all = new java.util.ArrayList<>(1 + otherDevices.size());
        all.add(device);
        all.addAll(otherDevices);
        return all;
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
        for (BlockDevice d : devices()) {
            if (d.ramBacked()) {
                return resolved + " is on " + deviceDescription() + ": " + d.ramReason();
            }
        }
        return null;
    }

    /**
     * Non-null where a branch of the device graph ends in a filesystem without a block device that is not
     * memory (FUSE, network, an overlay whose upper layer is not visible), with the reason: the loop device
     * above it counts every flush, whatever becomes of it below ({@link BlockDevice#uncountedReason()}).
     */
    public String uncountedReason() {
        for (BlockDevice d : devices()) {
            String r = d.uncountedReason();
            if (r != null) {
                return resolved + " is on " + deviceDescription() + ": " + r;
            }
        }
        return null;
    }

    /** Where a loop device anywhere in the graph keeps its backing file with barriers (or syncs) off, or null. */
    public String chainBarrierOffReason() {
        for (BlockDevice d : devices()) {
            String r = d.barrierOffReason();
            if (r != null) {
                return r;
            }
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

    /**
     * The device names messages use: {@code vda}, {@code loop0 -> vda}, {@code loop0 -> vda and loop1 (btrfs device)
     * -> vda}, or the mount source.
     */
    public String deviceDescription() {
        if (device == null) {
            return mount.source();
        }
        if (otherDevices.isEmpty()) {
            return device.describeChain();
        }
        StringBuilder b = new StringBuilder(device.describeChain());
        for (BlockDevice d : otherDevices) {
            b.append(" and ").append(d.describeChain());
        }
        return b.toString();
    }
}
