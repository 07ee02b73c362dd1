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
    private final MountTable mounts;

    public SysBlock(Path sysRoot, MountTable mounts) {
        this.sys = sysRoot;
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
        if (mount.source().startsWith("/dev/")) {
            String name = Path.of(mount.source()).getFileName().toString();
            if (Files.isDirectory(sys.resolve("class/block").resolve(name))) {
                return fromName(name, depth);
            }
        }
        return null;
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
        if (fs.equals("btrfs")) {
            for (String name : FilesystemDevices.btrfsOthers(sys, mountSourceName(mount))) {
                add(out, name, "btrfs device", depth);
            }
        } else if (fs.equals("ext4") || fs.equals("ext3")) {
            String journal = FilesystemDevices.ext4Journal(sys, FilesystemDevices.nameOf(sys, mount.device()));
            if (journal != null) {
                add(out, journal, "journal", depth);
            }
        } else if (fs.equals("xfs")) {
            add(out, devName(mount.superOption("logdev")), "log", depth);
            add(out, devName(mount.superOption("rtdev")), "realtime", depth);
        }
        return out;
    }

    private void add(List<BlockDevice> out, String name, String role, int depth) {
        if (name == null) {
            return;
        }
        try {
            BlockDevice d = fromSysDir(sys.resolve("class/block").resolve(name).toRealPath(), depth + 1);
            if (d != null) {
                out.add(d.withRole(role));
            }
        } catch (IOException e) {
            // not a block device here: nothing to follow
        }
    }

    private static String mountSourceName(MountInfo mount) {
        return mount.source().startsWith("/dev/") ? devName(mount.source()) : null;
    }

    /** {@code loop3} for {@code /dev/loop3}, or null. */
    private static String devName(String devPath) {
        if (devPath == null || !devPath.startsWith("/dev/")) {
            return null;
        }
        return devPath.substring(devPath.lastIndexOf('/') + 1);
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
            return null;
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
        if (kind == BlockDevice.Kind.LOOP) {
            backingFile = read(dir.resolve("loop/backing_file"));
            if (backingFile != null) {
                String file = backingFile.endsWith(" (deleted)")
                        ? backingFile.substring(0, backingFile.length() - " (deleted)".length()) : backingFile;
                backingMount = mounts.mountOf(file);
                MountInfo store = storeOf(backingMount);
                backingStore = store == backingMount ? null : store;
                // The backing file's filesystem, judged as any mount: all its devices (a btrfs's several, a
                // journal's), or none where it has no block device, whose kind then decides.
                lower.addAll(devicesOf(backingMount, depth + 1));
            }
        } else if (kind == BlockDevice.Kind.DEVICE_MAPPER || kind == BlockDevice.Kind.MD_RAID) {
            Path slaves = dir.resolve("slaves");
            if (Files.isDirectory(slaves)) {
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(slaves)) {
                    for (Path s : ds) {
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
                backingStore, null);
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
