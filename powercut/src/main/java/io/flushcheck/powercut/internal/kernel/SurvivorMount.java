package io.flushcheck.powercut.internal.kernel;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.sys.Commands;
import io.flushcheck.powercut.internal.sys.Libc;
import io.flushcheck.powercut.internal.sys.PageCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/** Mounts what survived a power cut, or a crash state, where a test reads it. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SurvivorMount {

    private SurvivorMount() {
    }

    /**
     * Mounts the survivor's image on {@code device}, of {@code fsType}, at {@code survivor}. btrfs refuses a clone
     * of a filesystem whose teardown is still under way (the original's, unmounted in the background, or a crash
     * state's before it: its sysfs entry is there, EEXIST) and mounts it once that is done, so a refusal for that
     * reason is tried again for a while. btrfs has also refused a clone with EINVAL, rarely, in runs that mount many
     * clones of one filesystem, for a reason not known (btrfs says EINVAL of a superblock it cannot read as its own,
     * which a page the device's cache kept from an image it mapped before would be): such a refusal is tried again
     * nine times, the device forgotten and its cached pages dropped before each, before it is reported. {@code flags}:
     * {@link Mounts#DATA} or {@link Mounts#FOREIGN_DATA}, what is mounted being data to look at.
     */
    public static void mount(String device, Path survivor, String fsType, long flags) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Mounts.mount(device, survivor, fsType, Filesystems.mountOptions(fsType), flags);
                return;
            } catch (IOException e) {
                String why = String.valueOf(e.getMessage());
                boolean tearingDown = why.contains("File exists") && attempt < 100;
                boolean refused = why.contains("Invalid argument") && attempt < 10;
                if (!fsType.equals("btrfs") || !tearingDown && !refused) {
                    if (fsType.equals("btrfs") && why.contains("Invalid argument")) {
                        throw new IOException(why + kernelSaid(device), e);
                    }
                    throw e;
                }
                if (refused || attempt % 10 == 1) {
                    forget(device);
                }
                if (refused) {
                    dropCachedPages(device);
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while mounting the survivor", e);
            }
        }
    }

    /** Drops the clean pages of {@code device} from the page cache, so that the next mount reads the image. */
    private static void dropCachedPages(String device) {
        try {
            PageCache.drop(Path.of(device), 0, 0);
        } catch (IOException e) {
            // the mount is tried again as it is
        }
    }

    /** What the kernel's log says last of btrfs or {@code device}: "; the kernel's log: ..." (up to 6 lines), or "". */
    private static String kernelSaid(String device) {
        String name = Path.of(device).getFileName().toString();
        try {
            List<String> lines = new ArrayList<>();
            for (String line : Commands.run("dmesg").split("\n")) {
                if (line.contains("BTRFS") && !line.contains("BTRFS info") || line.contains(name + ")")) {
                    lines.add(line.strip());
                }
            }
            return lines.isEmpty() ? "" : "; the kernel's log: " + String.join(" | ", lines.subList(Math.max(0,
                    lines.size() - 6), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** {@code BTRFS_IOC_FORGET_DEV}: _IOW(0x94, 5, struct btrfs_ioctl_vol_args), 4,096 bytes. */
    private static final long BTRFS_IOC_FORGET_DEV = 0x50009405L;
    private static final int VOL_ARGS = 4096;
    private static final int VOL_NAME = 8;

    /**
     * Asks btrfs to forget what it registered of {@code device} when no mounted filesystem uses it. btrfs keeps
     * every device it scanned in its list, by path, after the filesystem on it is unmounted; a loop device that
     * held another clone of the same filesystem (every crash state and survivor is one) can then be taken for a
     * member of the mounted original's device set, and the mount is refused with EEXIST for as long as the entry
     * stays. Forgetting the device's own entry (as {@code btrfs device scan --forget DEVICE} does) lets the next
     * mount scan it afresh; other devices' entries are left alone. Best effort: without the control device, or
     * with nothing to forget, nothing changes.
     */
    private static void forget(String device) {
        byte[] name = device.getBytes(StandardCharsets.UTF_8);
        if (name.length >= VOL_ARGS - VOL_NAME) {
            return;
        }
        int fd;
        try {
            fd = Libc.C.open("/dev/btrfs-control", Libc.O_RDWR | Libc.O_CLOEXEC);
        } catch (RuntimeException e) {
            return;
        }
        if (fd < 0) {
            return;
        }
        try (Memory args = new Memory(VOL_ARGS)) {
            args.clear();
            args.write(VOL_NAME, name, 0, name.length);
            Libc.C.ioctl(fd, BTRFS_IOC_FORGET_DEV, args);
        } catch (RuntimeException e) {
            // ENOENT (nothing registered), EBUSY (mounted): the mount's retry says the rest
        } finally {
            Libc.C.close(fd);
        }
    }
}
