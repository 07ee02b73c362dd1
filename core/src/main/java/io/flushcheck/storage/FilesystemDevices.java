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
     * devices in {@code /sys/fs/btrfs/UUID/devices/}, and mountinfo names only one of them. Null where no list
     * names it: then which devices the filesystem has is not known.
     */
    static List<String> btrfsOthers(Path sys, String sourceName) {
        String[] filesystems = sourceName == null ? null : new File(sys.resolve("fs/btrfs").toString()).list();
        if (filesystems == null) {
            return null;
        }
        for (String fs : filesystems) {
            File devices = new File(sys.resolve("fs/btrfs").resolve(fs).resolve("devices").toString());
            String[] names = devices.list();
            if (names == null || !contains(names, sourceName)) {
                continue;
            }
            List<String> out = new ArrayList<>();
            for (String n : names) {
                if (!n.equals(sourceName)) {
                    out.add(n);
                }
            }
            return out;
        }
        return null;
    }

    /**
     * Where an ext4's journal is: {@link #INTERNAL} (in the filesystem, or none), on {@code device}, or not placed,
     * and {@code why}.
     */
    /** The class an ext4's judgement loads besides this one, for a warm-up that loads them ahead. */
    public static Class<?> journalClass() {
        return Journal.class;
    }

    record Journal(String device, String why) {
    }

    static final Journal INTERNAL = new Journal(null, null);

    /**
     * Where the journal of the ext4 on {@code fsName} is. jbd2 lists each journal in {@code /proc/fs/jbd2}, an
     * internal one as {@code DEV-INODE} ({@code vda1-8}), one on a device of its own by that device's name
     * ({@code loop0}), and names its thread the same way ({@code /sys/fs/ext4/DEV/journal_task}, then
     * {@code /proc/PID/comm}, cut to 15 characters). Which external entry is this filesystem's only the thread
     * tells; where it cannot (a kernel without journal_task, the thread in another PID namespace, hidepid, a cut
     * name that fits several), the journal is not placed: never taken for internal.
     */
    static Journal ext4Journal(Path sys, Path proc, String fsName) {
        if (fsName == null) {
            return INTERNAL; // the mount's device is not in sysfs: nothing of it is counted anyway
        }
        Path jbd2 = proc.resolve("fs/jbd2");
        // The cold path: a journal inode of its own (8 unless moved) is one stat.
        if (new File(jbd2.resolve(fsName + "-8").toString()).isDirectory()) {
            return INTERNAL;
        }
        Path ext4 = sys.resolve("fs/ext4").resolve(fsName);
        String task = SysBlock.read(ext4.resolve("journal_task"));
        if ("<none>".equals(task)) {
            return INTERNAL; // no journal at all
        }
        String[] entries = new File(jbd2.toString()).list();
        List<String> external = new ArrayList<>();
        if (entries != null) {
            for (String e : entries) {
                int dash = e.lastIndexOf('-');
                if (dash > 0 && digits(e.substring(dash + 1))) {
                    if (e.substring(0, dash).equals(fsName)) {
                        return INTERNAL;
                    }
                } else {
                    external.add(e);
                }
            }
        }
        if (task == null) {
            String options = SysBlock.read(proc.resolve("fs/ext4").resolve(fsName).resolve("options"));
            if (options != null && !options.contains("data=")) {
                return INTERNAL; // a kernel without journal_task: no data= mode shown, no journal
            }
        }
        String comm = task == null || task.isEmpty() || !digits(task) || task.equals("0") ? null
                : SysBlock.read(proc.resolve(task).resolve("comm"));
        String why;
        if (comm != null && comm.startsWith("jbd2/")) {
            String named = comm.substring(5);
            List<String> fits = new ArrayList<>();
            for (String e : external) {
                // comm holds 15 characters: a longer name is cut.
                if (e.equals(named) || comm.length() >= 15 && e.startsWith(named)) {
                    fits.add(e);
                }
            }
            if (fits.size() == 1 && !fits.get(0).equals(fsName)
                    && new File(sys.resolve("class/block").resolve(fits.get(0)).toString()).exists()) {
                return new Journal(fits.get(0), null);
            }
            why = "its journal thread is " + comm + ", which " + (fits.isEmpty() ? "names no journal device listed in "
                    + jbd2 : "fits " + String.join(" and ", fits) + " in " + jbd2);
        } else {
            why = task == null ? "this kernel has no " + ext4.resolve("journal_task") + " to tell which"
                    : comm == null ? "its journal thread (" + ext4.resolve("journal_task") + ": " + task
                    + ") cannot be read here (another PID namespace, or hidepid)"
                    : "its journal thread is " + comm + ", not jbd2's";
        }
        return new Journal(null, "ext4 on " + fsName + " has no journal of its own (" + jbd2 + " lists no " + fsName
                + "-INODE), and which device holds it is not known: " + why);
    }

    private static boolean digits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
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
