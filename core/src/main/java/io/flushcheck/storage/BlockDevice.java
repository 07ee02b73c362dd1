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
 * @param lower       the devices this one passes its I/O (and flushes) to
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record BlockDevice(String name, Kind kind, String writeCache, Boolean rotational, String driver,
                          String model, String backingFile, MountInfo backingMount, List<BlockDevice> lower) {

    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public enum Kind {
        DISK, LOOP, DEVICE_MAPPER, MD_RAID, ZRAM, RAM_DISK, UNKNOWN
    }

    public BlockDevice {
        lower = List.copyOf(lower);
    }

    /** True when this device keeps its data in memory: zram, brd, or a loop file on RAM. */
    public boolean ramBacked() {
        if (kind == Kind.ZRAM || kind == Kind.RAM_DISK) {
            return true;
        }
        if (backingMount != null && FsTypes.isRamFs(backingMount.fsType())) {
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
            return name + " is a zram device (compressed RAM)";
        }
        if (kind == Kind.RAM_DISK) {
            return name + " is a RAM disk (brd)";
        }
        if (backingMount != null && FsTypes.isRamFs(backingMount.fsType())) {
            return name + " is a loop device whose backing file " + backingFile + " is on "
                    + backingMount.fsType() + " at " + backingMount.mountPoint();
        }
        for (BlockDevice d : lower) {
            String r = d.ramReason();
            if (r != null) {
                return r;
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
        collect(out);
        return out;
    }

    private void collect(List<BlockDevice> out) {
        for (BlockDevice seen : out) {
            if (seen.name.equals(name)) {
                return;
            }
        }
        out.add(this);
        for (BlockDevice d : lower) {
            d.collect(out);
        }
    }

    /**
     * Where a loop device of this chain keeps its backing file on a filesystem mounted with write
     * barriers off: the loop driver turns a flush into an fsync of that file, and such a filesystem
     * sends no cache flush below. Null when there is none.
     */
    public String barrierOffReason() {
        for (BlockDevice d : levels()) {
            if (d.backingMount != null && !d.backingMount.barrierOffOptions().isEmpty()) {
                MountInfo m = d.backingMount;
                return d.name + " is a loop device whose backing file " + d.backingFile + " is on " + m.fsType()
                        + " mounted with " + String.join(",", m.barrierOffOptions()) + " (" + m.mountPoint()
                        + ", mount " + m.mountId() + ")";
            }
        }
        return null;
    }

    /** Driver or model says this is a hypervisor's virtual disk (virtio, xen, vmware, hyper-v, ...). */
    public boolean virtualDisk() {
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
            return name;
        }
        List<String> parts = new ArrayList<>();
        for (BlockDevice d : lower) {
            parts.add(d.describeChain());
        }
        return name + " -> " + (parts.size() == 1 ? parts.get(0) : "[" + String.join(", ", parts) + "]");
    }
}
