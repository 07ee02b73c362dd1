package io.flushcheck.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One line of {@code /proc/<pid>/mountinfo} (see proc(5)).
 *
 * @param mountId      unique id of the mount
 * @param parentId     id of the parent mount
 * @param device       {@code major:minor} of the filesystem's device ({@code 0:NN} for anonymous ones)
 * @param root         the directory of the filesystem that forms this mount's root (bind mounts)
 * @param mountPoint   where it is mounted, octal escapes decoded
 * @param mountOptions per-mount options
 * @param fsType       filesystem type, with subtype for fuse ({@code fuse.sshfs})
 * @param source       mount source ({@code /dev/vda1}, {@code tmpfs}, {@code overlay}, ...)
 * @param superOptions per-superblock options ({@code nobarrier}, {@code upperdir=...})
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record MountInfo(int mountId, int parentId, String device, String root, String mountPoint,
                        List<String> mountOptions, String fsType, String source, List<String> superOptions) {

    public MountInfo {
        mountOptions = List.copyOf(mountOptions);
        superOptions = List.copyOf(superOptions);
    }

    /** Parses a whole mountinfo text; malformed lines are rejected with their line number. */
    public static List<MountInfo> parseAll(String text) {
        List<MountInfo> mounts = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            try {
                mounts.add(parse(lines[i]));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("mountinfo line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return Collections.unmodifiableList(mounts);
    }

    /** Parses one line: {@code 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue}. */
    public static MountInfo parse(String line) {
        String[] f = line.trim().split(" ");
        int separator = -1;
        for (int i = 6; i < f.length; i++) {
            if (f[i].equals("-")) {
                separator = i;
                break;
            }
        }
        if (separator < 0 || separator + 2 >= f.length) {
            throw new IllegalArgumentException("not a mountinfo line: '" + line + "'");
        }
        try {
            return new MountInfo(
                    Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[2],
                    unescape(f[3]), unescape(f[4]), List.of(f[5].split(",")),
                    f[separator + 1], unescape(f[separator + 2]),
                    separator + 3 < f.length ? splitOptions(f[separator + 3]) : List.of());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad mount id in '" + line + "'", e);
        }
    }

    private static List<String> splitOptions(String options) {
        List<String> out = new ArrayList<>();
        for (String o : options.split(",")) {
            out.add(unescape(o));
        }
        return out;
    }

    /** The kernel escapes space, tab, newline and backslash as {@code \ooo}. */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && isOctal(s, i + 1)) {
                sb.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean isOctal(String s, int from) {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '7') {
                return false;
            }
        }
        return true;
    }

    /** True when an option (either list) is present, e.g. {@code nobarrier}. */
    public boolean hasOption(String option) {
        return mountOptions.contains(option) || superOptions.contains(option);
    }

    /** The value of a {@code key=value} super option such as {@code upperdir}, or null. */
    public String superOption(String key) {
        String prefix = key + "=";
        for (String o : superOptions) {
            if (o.startsWith(prefix)) {
                return o.substring(prefix.length());
            }
        }
        return null;
    }

    /** Options that switch write barriers (and with them cache flushes) off. */
    public List<String> barrierOffOptions() {
        List<String> found = new ArrayList<>();
        for (String o : superOptions) {
            if (BARRIER_OFF.contains(o)) {
                found.add(o);
            }
        }
        return found;
    }

    // ext4 and (old) xfs spell it nobarrier, ext3/ext4 also barrier=0; btrfs nobarrier too.
    private static final Set<String> BARRIER_OFF = Set.of("nobarrier", "barrier=0");

    public int major() {
        return Integer.parseInt(device.substring(0, device.indexOf(':')));
    }

    public int minor() {
        return Integer.parseInt(device.substring(device.indexOf(':') + 1));
    }

    /** Describes the mount the way messages quote it: {@code /tmp is tmpfs (mount 25)}. */
    public String describe() {
        return mountPoint + " (" + fsType + " from " + source + ", mount " + mountId + ")";
    }
}
