package io.flushcheck.storage;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Where the kernel says which devices a filesystem uses besides the one mountinfo names. java.io only: ext4's
 * lookup is on the cold path (docs/architecture.md).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FilesystemDevices {

    private FilesystemDevices() {
    }

    /** The kernel name of the block device {@code major:minor} ({@code vda1}), or null. */
    static String nameOf(Path sys, String majorMinor) {
        try {
            String real = new File(sys.resolve("dev/block").resolve(majorMinor).toString()).getCanonicalPath();
            return real.substring(real.lastIndexOf('/') + 1);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The devices of the btrfs that {@code sourceName} belongs to, but that one: btrfs lists each filesystem's
     * devices in {@code /sys/fs/btrfs/UUID/devices/}, and mountinfo names only one of them.
     */
    static List<String> btrfsOthers(Path sys, String sourceName) {
        List<String> out = new ArrayList<>();
        String[] filesystems = sourceName == null ? null : new File(sys.resolve("fs/btrfs").toString()).list();
        if (filesystems == null) {
            return out;
        }
        for (String fs : filesystems) {
            File devices = new File(sys.resolve("fs/btrfs").resolve(fs).resolve("devices").toString());
            String[] names = devices.list();
            if (names == null || !contains(names, sourceName)) {
                continue;
            }
            for (String n : names) {
                if (!n.equals(sourceName)) {
                    out.add(n);
                }
            }
            return out;
        }
        return out;
    }

    /**
     * The device of an ext4's external journal, or null for an internal one or none. jbd2 names its thread
     * ({@code /sys/fs/ext4/DEV/journal_task}, then {@code /proc/PID/comm}) after the journal: {@code jbd2/DEV-8}
     * for the journal inode 8 of DEV itself, {@code jbd2/JOURNALDEV} for a journal on a device of its own.
     */
    static String ext4Journal(Path sys, String fsName) {
        if (fsName == null) {
            return null;
        }
        String task = SysBlock.read(sys.resolve("fs/ext4").resolve(fsName).resolve("journal_task"));
        if (task == null || task.isEmpty() || task.charAt(0) < '1' || task.charAt(0) > '9') {
            return null; // "<none>" without a journal, 0 where its thread is in no PID namespace of ours
        }
        String comm = SysBlock.read(Path.of("/proc", task, "comm"));
        if (comm == null || !comm.startsWith("jbd2/")) {
            return null;
        }
        String journal = comm.substring(5);
        if (journal.startsWith(fsName + "-") || journal.equals(fsName) || comm.length() >= 15 && fsName.startsWith(journal)) {
            return null;
        }
        // comm holds 15 characters: a longer name is cut, and then only a device that exists is named.
        return new File(sys.resolve("class/block").resolve(journal).toString()).exists() ? journal : null;
    }

    private static boolean contains(String[] names, String name) {
        for (String n : names) {
            if (n.equals(name)) {
                return true;
            }
        }
        return false;
    }
}
