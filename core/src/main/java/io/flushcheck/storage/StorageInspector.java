package io.flushcheck.storage;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/** Builds {@link StorageFacts} for a path from /proc and /sys, with no I/O on the path's data. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StorageInspector {

    private final Path sys;

    public StorageInspector() {
        this(Path.of("/sys"));
    }

    public StorageInspector(Path sysRoot) {
        this.sys = sysRoot;
    }

    /**
     * Inspects an existing directory or file.
     *
     * @throws IOException when the path does not exist or cannot be resolved
     */
    public StorageFacts inspect(Path path) throws IOException {
        java.io.File file = path.toFile();
        if (!file.exists()) {
            throw new java.nio.file.NoSuchFileException(path.toString());
        }
        String resolved = KernelPath.resolve(file);
        // A path into another mount namespace is served by that namespace's mounts; the devices under them,
        // and the backing files of loop devices (which sysfs names as this process sees them), are global.
        boolean elsewhere = KernelPath.namespacePid(resolved) > 0;
        MountTable table = MountTable.live();
        MountInfo mount = elsewhere ? KernelPath.mountTable(resolved).mountOf(KernelPath.inner(resolved))
                : table.mountOf(resolved);
        SysBlock sysBlock = new SysBlock(sys, table);
        BlockDevice device = sysBlock.chainOf(mount);
        MountInfo upper = null;
        MountInfo data = mount;
        String note = null;
        if (device == null && FsTypes.isOverlay(mount.fsType())) {
            String upperDir = mount.superOption("upperdir");
            // An overlay of another namespace's table names its upper layer in its mounter's namespace, which
            // may not be this one: the name is held to the directory it reaches there (OverlayUpper).
            OverlayUpper.Found found = upperDir == null || !elsewhere ? null
                    : OverlayUpper.inNamespace(upperDir, KernelPath.namespacePid(resolved), table);
            if (found != null && found.unseen() != null) {
                device = BlockDevice.unseen(upperDir, "overlay upper layer", found.unseen());
            } else if (found != null && found.mount() != null) {
                upper = found.mount();
                data = upper;
                device = sysBlock.chainOf(upper);
            } else if (found == null && upperDir != null && Files.isDirectory(Path.of(upperDir))) {
                upper = table.mountOf(Path.of(upperDir).toRealPath().toString());
                data = upper;
                device = sysBlock.chainOf(upper);
            } else {
                note = upperDir == null ? "the overlay names no upper layer"
                        : "the overlay's upper layer (" + upperDir + ") is not visible here";
            }
        }
        List<BlockDevice> others = device == null ? List.of() : sysBlock.otherDevicesOf(data);
        List<BlockDevice> points = new ArrayList<>();
        if (device != null) {
            points.addAll(device.countedLevels());
            for (BlockDevice o : others) {
                if (o.countsEverySync()) {
                    for (BlockDevice level : o.countedLevels()) {
                        if (!containsName(points, level.name())) {
                            points.add(level);
                        }
                    }
                }
            }
        } else if (!FsTypes.isRamFs(mount.fsType()) && !FsTypes.isNetworkOrShared(mount.fsType())) {
            // A container's overlay root, or a FUSE daemon's mount: the disks are still counted in
            // /sys/block, and what reaches any of them beyond its other work is evidence.
            points.addAll(allDisks(sysBlock));
            if (!points.isEmpty()) {
                String why = FsTypes.isLocalFuse(mount.fsType()) ? "a FUSE daemon serves " + mount.fsType()
                        + ", and wherever it passes syncs on, a local disk counts them"
                        : "no device backs " + mount.fsType() + " here";
                note = (note == null ? why : note) + "; counting flushes on every disk (" + names(points) + ")";
            }
        }
        return new StorageFacts(path.toString(), resolved, mount, device, upper, points, note, Environment.detect(), others);
    }

    private static boolean containsName(List<BlockDevice> devices, String name) {
        for (BlockDevice d : devices) {
            if (d.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private List<BlockDevice> allDisks(SysBlock sysBlock) {
        List<BlockDevice> disks = new ArrayList<>();
        Path block = sys.resolve("block");
        if (!Files.isDirectory(block)) {
            return disks;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(block)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.startsWith("loop") || name.startsWith("ram") || name.startsWith("zram")
                        || name.startsWith("dm-") || name.startsWith("md") || name.startsWith("sr")) {
                    continue;
                }
                BlockDevice d = sysBlock.chainOfName(name);
                if (d != null && d.kind() == BlockDevice.Kind.DISK) {
                    disks.add(d);
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return disks;
    }

    private static String names(List<BlockDevice> devices) {
        List<String> n = new ArrayList<>();
        for (BlockDevice d : devices) {
            n.add(d.name());
        }
        return String.join(", ", n);
    }

    /** The counters file of a device. */
    public Path statFile(BlockDevice device) {
        return sys.resolve("class/block").resolve(device.name()).resolve("stat");
    }
}
