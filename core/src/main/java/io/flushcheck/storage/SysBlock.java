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
 * partition to disk, loop device to its backing file's storage, dm and md to their slaves.
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
        BlockDevice byNumber = mount.major() == 0 ? null : fromDevNumber(mount.device(), 0);
        if (byNumber != null) {
            return byNumber;
        }
        // btrfs and some others report an anonymous device number; the source still names the device.
        if (mount.source().startsWith("/dev/")) {
            String name = Path.of(mount.source()).getFileName().toString();
            if (Files.isDirectory(sys.resolve("class/block").resolve(name))) {
                return fromName(name, 0);
            }
        }
        return null;
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
        if (kind == BlockDevice.Kind.LOOP) {
            backingFile = read(dir.resolve("loop/backing_file"));
            if (backingFile != null) {
                String file = backingFile.endsWith(" (deleted)")
                        ? backingFile.substring(0, backingFile.length() - " (deleted)".length()) : backingFile;
                backingMount = mounts.mountOf(file);
                BlockDevice under = chainOfMount(backingMount, depth + 1);
                if (under != null) {
                    lower.add(under);
                }
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
                rot == null ? null : rot.equals("1"), driverOf(dir), modelOf(dir), backingFile, backingMount, lower);
    }

    private BlockDevice chainOfMount(MountInfo m, int depth) throws IOException {
        if (m.major() == 0) {
            return null;
        }
        Path link = sys.resolve("dev/block").resolve(m.device());
        return Files.exists(link) ? fromSysDir(link.toRealPath(), depth) : null;
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
