package io.flushcheck.storage;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Follows a device number through sysfs to the devices that finally receive its flushes:
 * partition to disk, dm and md to their slaves, and a loop device to every device of the filesystem that
 * holds its backing file, judged as any mount is ({@link #devicesOf}): its own device, its other devices
 * (btrfs's, an external journal or log), and for an overlay its upper layer's. Where that filesystem has no
 * block device (tmpfs, FUSE, a network filesystem), the loop device is the bottom of its branch and keeps
 * the backing mount, whose kind decides ({@link BlockDevice#ramBacked()}, {@link BlockDevice#uncountedReason()}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SysBlock {

    private static final int MAX_DEPTH = 8;

    private final Path sys;
    private final Path proc;
    private final MountTable mounts;

    public SysBlock(Path sysRoot, MountTable mounts) {
        this(sysRoot, Path.of("/proc"), mounts);
    }

    SysBlock(Path sysRoot, Path procRoot, MountTable mounts) {
        this.sys = sysRoot;
        this.proc = procRoot;
        this.mounts = mounts;
    }

    /** The chain under a mount, or null when no block device backs it (tmpfs, overlay, nfs, ...). */
    public BlockDevice chainOf(MountInfo mount) {
        return chainOf(mount, 0);
    }

    private BlockDevice chainOf(MountInfo mount, int depth) {
        BlockDevice byNumber = mount.major() == 0 ? null : fromDevNumber(mount.device(), depth);
        if (byNumber != null) {
            return byNumber;
        }
        // btrfs and some others report an anonymous device number; the source still names the device.
        String name = kernelName(mount.source());
        return name == null ? null : fromName(name, depth);
    }

    /**
     * Every device a mount's filesystem writes to, its own device first: {@link #chainOf} and
     * {@link #otherDevicesOf}; for an overlay, its upper layer's mount's (when visible). Empty where the
     * filesystem has no block device.
     */
    public List<BlockDevice> devicesOf(MountInfo mount) {
        return devicesOf(mount, 0);
    }

    private List<BlockDevice> devicesOf(MountInfo mount, int depth) {
        List<BlockDevice> out = new ArrayList<>();
        if (depth > MAX_DEPTH) {
            return out;
        }
        MountInfo data = storeOf(mount);
        BlockDevice own = chainOf(data, depth);
        if (own != null) {
            out.add(own);
            out.addAll(otherDevicesOf(data, depth));
        }
        return out;
    }

    /** The mount that stores an overlay's files (its upper layer's, when visible here), else the mount itself. */
    MountInfo storeOf(MountInfo mount) {
        if (!FsTypes.isOverlay(mount.fsType())) {
            return mount;
        }
        String upperDir = mount.superOption("upperdir");
        if (upperDir == null || !new java.io.File(upperDir).isDirectory()) {
            return mount;
        }
        try {
            return mounts.mountOf(new java.io.File(upperDir).getCanonicalPath());
        } catch (IOException e) {
            return mount;
        }
    }

    /**
     * The devices a filesystem writes to besides the one mountinfo names, each in its role:
     * every other device of a btrfs ({@code /sys/fs/btrfs/UUID/devices}), ext4's external journal (its jbd2
     * thread is named after the journal's device, {@code /sys/fs/ext4/DEV/journal_task}), xfs's external log and
     * realtime device (the {@code logdev=} and {@code rtdev=} options). Read only for those filesystems: a quiet
     * disk's ext4 costs one small sysfs read.
     */
    public List<BlockDevice> otherDevicesOf(MountInfo mount) {
        return otherDevicesOf(mount, 0);
    }

    private List<BlockDevice> otherDevicesOf(MountInfo mount, int depth) {
        List<BlockDevice> out = new ArrayList<>();
        String fs = mount.fsType();
        // A device named but not found is not dropped: it caps the verdict (BlockDevice.UNSEEN).
        if (fs.equals("btrfs")) {
            String source = kernelName(mount.source());
            List<String> others = FilesystemDevices.btrfsOthers(sys, source);
            if (others == null) {
                out.add(BlockDevice.unseen(mount.source(), "btrfs device", "no list in " + sys.resolve("fs/btrfs")
                        + "/*/devices names " + (source == null ? "this device" : source) + ", so which other devices"
                        + " the btrfs at " + mount.mountPoint() + " writes to is not known"));
            } else {
                for (String name : others) {
                    add(out, name, name, "btrfs device", depth);
                }
            }
        } else if (fs.equals("ext4") || fs.equals("ext3")) {
            FilesystemDevices.Journal journal = FilesystemDevices.ext4Journal(sys, proc,
                    FilesystemDevices.nameOf(sys, mount.device()));
            if (journal.device() != null) {
                add(out, journal.device(), journal.device(), "journal", depth);
            } else if (journal.why() != null) {
                out.add(BlockDevice.unseen("external", "journal", journal.why()));
            }
        } else if (fs.equals("xfs")) {
            addNamed(out, mount.superOption("logdev"), "log", depth);
            addNamed(out, mount.superOption("rtdev"), "realtime", depth);
        }
        return out;
    }

    /** The device an option names by path ({@code logdev=/dev/disk/by-id/x}), if the option is given. */
    private void addNamed(List<BlockDevice> out, String devPath, String role, int depth) {
        if (devPath != null) {
            add(out, kernelName(devPath), devPath, role, depth);
        }
    }

    private void add(List<BlockDevice> out, String name, String as, String role, int depth) {
        BlockDevice d = null;
        try {
            d = name == null ? null : fromSysDir(sys.resolve("class/block").resolve(name).toRealPath(), depth + 1);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            // not a block device here: told below
        }
        out.add(d != null ? d.withRole(role) : BlockDevice.unseen(as, role, "the filesystem writes to " + as
                + ", which is no block device found here"));
    }

    /**
     * The kernel name ({@code dm-0}) of the block device a path names, however it is named: {@code /dev/mapper},
     * {@code /dev/disk/by-*}, a symbolic link, or a node of another name; by the device number of the node the
     * path leads to. Null where no block device of that number is in sysfs, or nothing is at that path here and
     * its last name is no kernel name either.
     */
    String kernelName(String devPath) {
        if (devPath == null || !devPath.startsWith("/")) {
            return null;
        }
        try {
            Path p = Path.of(devPath);
            int mode = ((Number) Files.getAttribute(p, "unix:mode")).intValue();
            if ((mode & 0170000) == 0060000) {
                String name = FilesystemDevices.nameOf(sys, LoopStatus.majorMinor(((Number) Files.getAttribute(p, "unix:rdev")).longValue()));
                return name != null && Files.isDirectory(sys.resolve("class/block").resolve(name)) ? name : null;
            }
            return null;
        } catch (IOException | RuntimeException e) {
            // Not here to stat (a device path of another namespace's /dev): its last name, if the kernel's.
            String last = devPath.substring(devPath.lastIndexOf('/') + 1);
            try {
                return devPath.equals("/dev/" + last) && !last.isEmpty() && !last.equals("..")
                        && Files.isDirectory(sys.resolve("class/block").resolve(last)) ? last : null;
            } catch (RuntimeException unnamed) {
                return null; // a name this JVM's charset cannot hold (LC_ALL=C)
            }
        }
    }

    private BlockDevice fromDevNumber(String majorMinor, int depth) {
        Path link = sys.resolve("dev/block").resolve(majorMinor);
        if (!Files.exists(link)) {
            return null;
        }
        try {
            return fromSysDir(link.toRealPath(), depth);
        } catch (IOException e) {
            return null;
        }
    }

    /** The chain of a device by its kernel name ({@code vda}), or null. */
    public BlockDevice chainOfName(String name) {
        return fromName(name, 0);
    }

    private BlockDevice fromName(String name, int depth) {
        try {
            return fromSysDir(sys.resolve("class/block").resolve(name).toRealPath(), depth);
        } catch (IOException e) {
            return null;
        }
    }

    private BlockDevice fromSysDir(Path dir, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            return BlockDevice.unseen(dir.getFileName().toString(), null, TOO_DEEP);
        }
        if (Files.exists(dir.resolve("partition"))) {
            // Flushes are accounted on the whole disk, and the queue settings live there.
            return fromSysDir(dir.getParent(), depth);
        }
        String name = dir.getFileName().toString();
        BlockDevice.Kind kind = kindOf(name, dir);
        List<BlockDevice> lower = new ArrayList<>();
        String backingFile = null;
        MountInfo backingMount = null;
        MountInfo backingStore = null;
        String unseen = null;
        if (kind == BlockDevice.Kind.LOOP) {
            backingFile = read(dir.resolve("loop/backing_file"));
            if (backingFile != null) {
                LoopBacking.Found found = LoopBacking.of(dir, name, backingFile, mounts);
                backingMount = found.mount();
                unseen = found.unseen();
            }
            if (backingMount != null) {
                MountInfo store = storeOf(backingMount);
                backingStore = store == backingMount ? null : store;
                // The backing file's filesystem, judged as any mount: all its devices (a btrfs's several, a
                // journal's), or none where it has no block device, whose kind then decides.
                lower.addAll(devicesOf(backingMount, depth + 1));
                if (lower.isEmpty()) {
                    unseen = whyNoDevice(store, depth + 1);
                }
            }
        } else if (kind == BlockDevice.Kind.DEVICE_MAPPER || kind == BlockDevice.Kind.MD_RAID) {
            Path slaves = dir.resolve("slaves");
            if (Files.isDirectory(slaves)) {
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(slaves)) {
                    for (Path s : ds) {
                        if (kind == BlockDevice.Kind.MD_RAID && idleMember(dir, s.getFileName().toString())) {
                            continue;
                        }
                        BlockDevice d = fromSysDir(s.toRealPath(), depth + 1);
                        if (d != null) {
                            lower.add(d);
                        }
                    }
                }
            }
        }
        String rot = read(dir.resolve("queue/rotational"));
        return new BlockDevice(name, kind, read(dir.resolve("queue/write_cache")),
                rot == null ? null : rot.equals("1"), driverOf(dir), modelOf(dir), backingFile, backingMount, lower,
                backingStore, null, unseen);
    }

    /**
     * An md member that receives no writes: a spare, or one marked faulty ({@code md/dev-NAME/state}). Its
     * counters show no flushes for the array's syncs, which says nothing of them.
     */
    private static boolean idleMember(Path md, String member) {
        String state = read(md.resolve("md").resolve("dev-" + member).resolve("state"));
        return state != null && (state.contains("spare") || state.contains("faulty"));
    }

    private static final String TOO_DEEP = "the device graph goes deeper than " + MAX_DEPTH
            + " levels here, and is not followed further";

    /**
     * Why a loop device's backing file's filesystem gave no device, where that is not its kind ({@code store}'s:
     * memory decides, and FUSE, network and overlay filesystems have none, {@link BlockDevice#uncountedReason()}):
     * the graph too deep, or a device the mount names but that is not found here. Null otherwise.
     */
    private String whyNoDevice(MountInfo store, int depth) {
        if (depth > MAX_DEPTH) {
            return TOO_DEEP;
        }
        if (store.fsType().equals("zfs")) {
            return "its backing file is on zfs at " + store.mountPoint() + " (" + store.source() + "), whose pool's disks"
                    + " no device number of the mount names, so which disks take the loop device's flushes was not seen";
        }
        if (store.source().startsWith("/dev/") || store.major() != 0) {
            return "its backing file is on " + store.fsType() + " at " + store.mountPoint() + ", whose device ("
                    + store.source() + ", " + store.device() + ") is not found here, so what that filesystem does with"
                    + " the loop device's flushes was not seen";
        }
        return null;
    }

    private static BlockDevice.Kind kindOf(String name, Path dir) {
        if (name.startsWith("loop")) {
            return BlockDevice.Kind.LOOP;
        }
        if (name.startsWith("dm-")) {
            return BlockDevice.Kind.DEVICE_MAPPER;
        }
        if (name.startsWith("md")) {
            return BlockDevice.Kind.MD_RAID;
        }
        if (name.startsWith("zram")) {
            return BlockDevice.Kind.ZRAM;
        }
        if (isRamDisk(name)) {
            return BlockDevice.Kind.RAM_DISK;
        }
        return Files.exists(dir.resolve("device")) ? BlockDevice.Kind.DISK : BlockDevice.Kind.UNKNOWN;
    }

    /** brd's disks: ram0, ram1, ... (not "ramoops" or other names that merely start with ram). */
    static boolean isRamDisk(String name) {
        if (name.length() <= 3 || !name.startsWith("ram")) {
            return false;
        }
        for (int i = 3; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String driverOf(Path dir) {
        Path link = dir.resolve("device/driver");
        try {
            if (Files.exists(link)) {
                return link.toRealPath().getFileName().toString();
            }
            // nvme namespaces: the driver sits one level up, on the controller.
            Path up = dir.resolve("device/device/driver");
            return Files.exists(up) ? up.toRealPath().getFileName().toString() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String modelOf(Path dir) {
        String vendor = read(dir.resolve("device/vendor"));
        String model = read(dir.resolve("device/model"));
        if (vendor == null && model == null) {
            return null;
        }
        return ((vendor == null ? "" : vendor) + " " + (model == null ? "" : model)).trim();
    }

    static String read(Path file) {
        try {
            return SysFiles.read(file).trim();
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }
}
