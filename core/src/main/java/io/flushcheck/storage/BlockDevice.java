package io.flushcheck.storage;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A node of the block-device chain under a mount: the device the filesystem sits on, and what it
 * sits on in turn (a partition's disk, a loop device's backing file's device, dm/md slaves).
 *
 * @param name        kernel name ({@code vda}, {@code loop0}, {@code dm-1}, {@code zram0})
 * @param kind        what sort of device it is
 * @param writeCache  {@code queue/write_cache}: "write back" (volatile cache, flushes matter),
 *                    "write through" (no volatile cache) or null when unknown
 * @param rotational  {@code queue/rotational}, null when unknown
 * @param driver      the driver bound to the device ({@code virtio_blk}, {@code nvme}), or null
 * @param model       vendor and model where sysfs has them, or null
 * @param backingFile for a loop device, the file it maps, else null
 * @param backingMount for a loop device, the mount holding its backing file, else null
 * @param lower       the devices this one passes its I/O (and flushes) to: for a loop device, every device of
 *                    the filesystem that holds its backing file (a multi-device btrfs has several)
 * @param backingStore for a loop device whose backing file is on overlay, the mount of the overlay's upper
 *                    layer, which stores the file's data; else null
 * @param role        how the filesystem above uses this device when it is not the filesystem's own device:
 *                    "btrfs device", "journal" (ext4's external journal), "log" or "realtime" (xfs); else null
 * @param unseen      what below this device could not be seen, as a sentence: a device the filesystem names that is
 *                    not found here ({@link Kind#UNSEEN}), or a loop device whose backing file's filesystem could not
 *                    be told or followed; else null. Caps the verdict at UNKNOWN ({@link #uncountedReason()})
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record BlockDevice(String name, Kind kind, String writeCache, Boolean rotational, String driver,
                          String model, String backingFile, MountInfo backingMount, List<BlockDevice> lower,
                          MountInfo backingStore, String role, String unseen) {

    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public enum Kind {
        DISK, LOOP, DEVICE_MAPPER, MD_RAID, ZRAM, RAM_DISK, UNKNOWN,
        /** A device the filesystem names that was not found here: nothing of it can be counted or judged. */
        UNSEEN
    }

    public BlockDevice {
        lower = List.copyOf(lower);
    }

    /** A device that is its filesystem's own, with no overlay under its backing file. */
    public BlockDevice(String name, Kind kind, String writeCache, Boolean rotational, String driver, String model,
                       String backingFile, MountInfo backingMount, List<BlockDevice> lower) {
        this(name, kind, writeCache, rotational, driver, model, backingFile, backingMount, lower, null, null, null);
    }

    /** A device with an overlay under its backing file ({@code backingStore}) or in a role, all of it seen. */
    public BlockDevice(String name, Kind kind, String writeCache, Boolean rotational, String driver, String model,
                       String backingFile, MountInfo backingMount, List<BlockDevice> lower, MountInfo backingStore,
                       String role) {
        this(name, kind, writeCache, rotational, driver, model, backingFile, backingMount, lower, backingStore, role, null);
    }

    /** A device named {@code name} (as the filesystem gives it) in {@code role} that was not found here, and why. */
    public static BlockDevice unseen(String name, String role, String why) {
        return new BlockDevice(name, Kind.UNSEEN, null, null, null, null, null, null, List.of(), null, role, why);
    }

    /** The same device in another role ({@link #role()}). */
    public BlockDevice withRole(String newRole) {
        return new BlockDevice(name, kind, writeCache, rotational, driver, model, backingFile, backingMount, lower,
                backingStore, newRole, unseen);
    }

    /** The mount that finally stores a loop device's backing file: the overlay's upper layer, else the backing mount. */
    public MountInfo backingData() {
        return backingStore != null ? backingStore : backingMount;
    }

    /** {@code loop3}, or {@code loop3 (journal)} for a device in a role. */
    public String named() {
        return role == null ? name : name + " (" + role + ")";
    }

    /** How the backing file's filesystem is named in messages: {@code tmpfs at /x}, {@code overlay at /o, upper layer on tmpfs at /u}. */
    private String backingWhere() {
        String where = backingMount.fsType() + " at " + backingMount.mountPoint();
        return backingStore == null ? where
                : where + ", whose upper layer is on " + backingStore.fsType() + " at " + backingStore.mountPoint();
    }

    /**
     * Where a branch of this chain goes where no counter here follows it: a device that was not found or could not
     * be told ({@link #unseen()}), or a loop device's backing file on a filesystem without a block device that is
     * not memory (FUSE, a network filesystem, an overlay whose upper layer is not visible). What the flushes become
     * there no counter shows, so the counts above prove nothing. Null when there is none.
     */
    public String uncountedReason() {
        for (BlockDevice d : levels()) {
            if (d.unseen != null) {
                return d.named() + ": " + d.unseen;
            }
            MountInfo data = d.backingData();
            if (d.kind == Kind.LOOP && data != null && d.lower.isEmpty() && !FsTypes.isRamFs(data.fsType())) {
                return d.named() + " is a loop device whose backing file " + d.backingFile + " is on " + d.backingWhere()
                        + ", a filesystem without a block device here: " + d.name + " counts every flush it receives, "
                        + "whatever becomes of it there";
            }
        }
        return null;
    }
    /** True when this device keeps its data in memory: zram, brd, or a loop file on RAM. */
    public boolean ramBacked() {
        if (kind == Kind.ZRAM || kind == Kind.RAM_DISK) {
            return true;
        }
        if (backingData() != null && FsTypes.isRamFs(backingData().fsType())) {
            return true;
        }
        for (BlockDevice d : lower) {
            if (d.ramBacked()) {
                return true;
            }
        }
        return false;
    }

    /** The reason {@link #ramBacked()} is true, as a sentence fragment, or null. */
    public String ramReason() {
        if (kind == Kind.ZRAM) {
            return named() + " is a zram device (compressed RAM)";
        }
        if (kind == Kind.RAM_DISK) {
            return named() + " is a RAM disk (brd)";
        }
        if (backingData() != null && FsTypes.isRamFs(backingData().fsType())) {
            return named() + " is a loop device whose backing file " + backingFile + " is on " + backingWhere();
        }
        for (BlockDevice d : lower) {
            String r = d.ramReason();
            if (r != null) {
                return role == null ? r : r + ", and " + named() + " sits on it";
            }
        }
        return null;
    }

    /** The devices at the bottom of the chain, where flushes finally land; each once. */
    public List<BlockDevice> terminals() {
        List<BlockDevice> out = new ArrayList<>();
        for (BlockDevice d : levels()) {
            if (d.lower.isEmpty()) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Every device of the chain, this one first, then each level below it (depth first), each once:
     * a flush must pass through all of them, so all are counted.
     */
    public List<BlockDevice> levels() {
        List<BlockDevice> out = new ArrayList<>();
        collect(out, false);
        return out;
    }

    private void collect(List<BlockDevice> out, boolean countedOnly) {
        for (BlockDevice seen : out) {
            if (seen.name.equals(name)) {
                return;
            }
        }
        out.add(this);
        for (BlockDevice d : lower) {
            if (!countedOnly || d.countsEverySync()) {
                d.collect(out, countedOnly);
            }
        }
    }

    /**
     * The levels whose counters every sync must move ({@link #levels()} without the devices that are not
     * {@link #countsEverySync()}): the flush points of a path.
     */
    public List<BlockDevice> countedLevels() {
        List<BlockDevice> out = new ArrayList<>();
        collect(out, true);
        return out;
    }

    /**
     * False for a journal, a log or a realtime device: a filesystem writes to them only for some syncs (an
     * fdatasync that changes no metadata commits no journal), so their counters cannot show every sync; they
     * are judged by what they are. A btrfs flushes every device it has at each commit.
     */
    public boolean countsEverySync() {
        // An unseen device has no counters to read.
        return kind != Kind.UNSEEN && (role == null || role.equals("btrfs device"));
    }

    /**
     * Where a loop device of this chain keeps its backing file on a filesystem mounted with write
     * barriers off: the loop driver turns a flush into an fsync of that file, and such a filesystem
     * sends no cache flush below. Null when there is none.
     */
    public String barrierOffReason() {
        for (BlockDevice d : levels()) {
            if (d.backingMount != null && FsTypes.isOverlay(d.backingMount.fsType()) && d.backingMount.hasOption("volatile")) {
                return d.named() + " is a loop device whose backing file " + d.backingFile + " is on overlay mounted with "
                        + "volatile (" + d.backingMount.mountPoint() + ", mount " + d.backingMount.mountId()
                        + "), which ignores every sync";
            }
            MountInfo m = d.backingData();
            if (m != null && !m.barrierOffOptions().isEmpty()) {
                return d.named() + " is a loop device whose backing file " + d.backingFile + " is on " + m.fsType()
                        + " mounted with " + String.join(",", m.barrierOffOptions()) + " (" + m.mountPoint()
                        + ", mount " + m.mountId() + ")";
            }
        }
        return null;
    }

    /** Driver or model says this is a hypervisor's virtual disk (virtio, xen, vmware, hyper-v, ...). */
    public boolean virtualDisk() {
        if (kind == Kind.UNSEEN) {
            return false;
        }
        String d = driver == null ? "" : driver.toLowerCase();
        String m = model == null ? "" : model.toLowerCase();
        return d.startsWith("virtio") || d.equals("vbd") || d.startsWith("xen") || d.equals("vmw_pvscsi")
                || d.equals("hv_storvsc") || m.contains("qemu") || m.contains("virtual") || m.contains("vbox")
                || m.contains("vmware") || name.startsWith("xvd") || name.startsWith("vd");
    }

    /** True when the device reports a volatile write cache: flushes then matter. */
    public boolean hasVolatileCache() {
        return writeCache == null || !writeCache.trim().equals("write through");
    }

    /** {@code loop0 -> vda} as messages print it. */
    public String describeChain() {
        if (lower.isEmpty()) {
            return named();
        }
        List<String> parts = new ArrayList<>();
        for (BlockDevice d : lower) {
            parts.add(d.describeChain());
        }
        return named() + " -> " + (parts.size() == 1 ? parts.get(0) : "[" + String.join(", ", parts) + "]");
    }
}
