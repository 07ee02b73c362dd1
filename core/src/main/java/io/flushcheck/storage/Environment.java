package io.flushcheck.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * What the process runs in: a container, a hypervisor, and libraries that intercept syncs.
 *
 * @param container    the container runtime seen ("docker", "podman", "kubernetes", "lxc", ...) or null
 * @param hypervisor   the hypervisor seen ("kvm", "xen", "vmware", ...; "unknown" when only the CPU flag says so) or null
 * @param interposers  libraries mapped in the process that are known to turn syncs into no-ops (eatmydata
 *                     and its kin), each as "name (how it got there)"
 * @param preloaded    everything named in {@code LD_PRELOAD} and {@code /etc/ld.so.preload}, known or not
 * @param hostEdge     what the host running this VM guest measured beyond its virtual disk, or null (see
 *                     {@link HostEdge})
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record Environment(String container, String hypervisor, List<String> interposers, List<String> preloaded,
                          HostEdge hostEdge) {

    /** Library names that make fsync and friends return without syncing. */
    static final List<String> KNOWN_INTERPOSERS = List.of("libeatmydata", "libnosync", "libfakesync", "libnofsync");

    public Environment {
        interposers = List.copyOf(interposers);
        preloaded = List.copyOf(preloaded);
    }

    /** An environment without a host's statement. */
    public Environment(String container, String hypervisor, List<String> interposers, List<String> preloaded) {
        this(container, hypervisor, interposers, preloaded, null);
    }

    public static Environment detect() {
        String ldPreload = System.getenv("LD_PRELOAD");
        // The dynamic linker preloads from LD_PRELOAD and /etc/ld.so.preload; where both are empty no
        // interposer can be mapped, and the process's long maps need not be read.
        // ld.so splits /etc/ld.so.preload on whitespace and colons, LD_PRELOAD on spaces and colons only.
        String systemPreload = readOrEmpty(Path.of("/etc/ld.so.preload")).replace('\n', ' ').replace('\t', ' ').trim();
        String preload = ldPreload == null ? systemPreload : (ldPreload + " " + systemPreload).trim();
        List<String> interposers = preload.isEmpty() ? List.of()
                : detectInterposers(preload, readOrEmpty(Path.of("/proc/self/maps")));
        // The property's name is a constant: reading it loads no class, and only a VM guest's JVM has it set.
        String edge = System.getProperty(HostEdge.PROPERTY);
        return new Environment(detectContainer(), detectHypervisor(), interposers, preloadList(preload),
                edge == null || edge.isBlank() ? null : HostEdge.parse(edge.trim()));
    }

    /**
     * Pure: known interposers mapped into the process (maps text), each described by how it got there.
     * A library only named in LD_PRELOAD does not count: ld.so ignores one it cannot load.
     */
    static List<String> detectInterposers(String ldPreload, String maps) {
        List<String> found = new ArrayList<>();
        // A JVM maps hundreds of files: search the text for each known name rather than split it.
        for (String k : KNOWN_INTERPOSERS) {
            int at = maps.indexOf("/" + k);
            if (at < 0) {
                continue;
            }
            String known = k.substring(3);
            String viaPreload = null;
            for (String lib : preloadList(ldPreload)) {
                if (known.equals(knownName(lib))) {
                    viaPreload = lib;
                }
            }
            int lineStart = maps.lastIndexOf('\n', at) + 1;
            int end = maps.indexOf('\n', at);
            String file = maps.substring(maps.indexOf('/', lineStart), end < 0 ? maps.length() : end);
            found.add(known + (viaPreload != null ? " (LD_PRELOAD=" + viaPreload + ")" : " (mapped: " + file + ")"));
        }
        return found;
    }

    /** The interposer a library file name belongs to ("eatmydata" for libeatmydata.so.1), or null. */
    public static String knownInterposer(String file) {
        return knownName(file);
    }

    private static String knownName(String file) {
        String base = file.substring(file.lastIndexOf('/') + 1);
        for (String k : KNOWN_INTERPOSERS) {
            if (base.startsWith(k)) {
                return k.substring(3);
            }
        }
        return null;
    }

    /** LD_PRELOAD's list: separated by spaces or colons, as ld.so reads it; empty and blank pieces dropped. */
    static List<String> preloadList(String ldPreload) {
        List<String> out = new ArrayList<>();
        if (ldPreload == null) {
            return out;
        }
        // By hand rather than split("[ :]"): no regex on the cold path (docs/architecture.md).
        int start = 0;
        for (int i = 0; i <= ldPreload.length(); i++) {
            char c = i < ldPreload.length() ? ldPreload.charAt(i) : ' ';
            if (c == ' ' || c == ':') {
                String piece = ldPreload.substring(start, i);
                if (!piece.isBlank()) {
                    out.add(piece);
                }
                start = i + 1;
            }
        }
        return out;
    }

    private static String detectContainer() {
        String env = System.getenv("container");
        if (env != null && !env.isBlank()) {
            return env;
        }
        if (Files.exists(Path.of("/.dockerenv"))) {
            return "docker";
        }
        if (Files.exists(Path.of("/run/.containerenv"))) {
            return "podman";
        }
        return containerFromCgroup(readOrEmpty(Path.of("/proc/1/cgroup")));
    }

    static String containerFromCgroup(String cgroup) {
        for (String marker : List.of("kubepods", "docker", "containerd", "libpod", "lxc")) {
            if (cgroup.contains(marker)) {
                return marker.equals("kubepods") ? "kubernetes" : marker.equals("libpod") ? "podman" : marker;
            }
        }
        return null;
    }

    private static String detectHypervisor() {
        String type = readOrEmpty(Path.of("/sys/hypervisor/type")).trim();
        if (!type.isEmpty()) {
            return type;
        }
        String vendor = (readOrEmpty(Path.of("/sys/class/dmi/id/sys_vendor")) + " "
                + readOrEmpty(Path.of("/sys/class/dmi/id/product_name"))).toLowerCase(Locale.ROOT);
        for (String[] v : new String[][] {{"qemu", "kvm"}, {"kvm", "kvm"}, {"vmware", "vmware"},
                {"virtualbox", "virtualbox"}, {"microsoft", "hyper-v"}, {"xen", "xen"}, {"amazon", "kvm"},
                {"google", "kvm"}, {"parallels", "parallels"}, {"apple", "apple"}}) {
            if (vendor.contains(v[0])) {
                return v[1];
            }
        }
        String cpuinfo = readOrEmpty(Path.of("/proc/cpuinfo"));
        int flags = cpuinfo.indexOf("\nflags");
        int end = flags < 0 ? -1 : cpuinfo.indexOf('\n', flags + 1);
        if (flags >= 0 && cpuinfo.substring(flags, end < 0 ? cpuinfo.length() : end).contains(" hypervisor")) {
            return "unknown";
        }
        return null;
    }

    static String readOrEmpty(Path p) {
        if (!p.toFile().canRead()) {
            return ""; // cheaper than the exception, and most of these files are absent on most machines
        }
        try {
            return SysFiles.read(p);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
