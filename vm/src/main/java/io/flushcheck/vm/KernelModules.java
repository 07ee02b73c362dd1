package io.flushcheck.vm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The modules the guest loads itself, without modprobe, in an order that satisfies their dependencies
 * (every module after the ones it needs), read from the kernel's {@code modules.dep}.
 */
final class KernelModules {

    /**
     * The virtio PCI transport and block driver, then ext4. crc32c_generic is named because ext4 and jbd2 need
     * the "crc32c" algorithm only through a soft dependency (modules.softdep), which modules.dep does not list.
     */
    static final List<String> GUEST_DISK = List.of("virtio_pci", "virtio_blk", "crc32c_generic", "ext4");

    /** 9p over virtio, through which a guest that runs a JVM sees the host's files (read only). */
    static final List<String> HOST_SHARE = List.of("9pnet_virtio", "9p");

    /** Everything the guest loads. */
    static final List<String> GUEST = java.util.stream.Stream.concat(GUEST_DISK.stream(), HOST_SHARE.stream()).toList();

    private final Map<String, String> fileByName = new HashMap<>();
    private final Map<String, List<String>> depsByFile = new HashMap<>();
    private final Set<String> builtin = new HashSet<>();

    private KernelModules() {
    }

    static KernelModules read(Path moduleDir) {
        KernelModules m = new KernelModules();
        try {
            for (String line : Files.readAllLines(moduleDir.resolve("modules.dep"))) {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String file = line.substring(0, colon).trim();
                List<String> deps = new ArrayList<>();
                for (String d : line.substring(colon + 1).trim().split(" ")) {
                    if (!d.isEmpty()) {
                        deps.add(d);
                    }
                }
                m.fileByName.put(name(file), file);
                m.depsByFile.put(file, deps);
            }
            Path builtin = moduleDir.resolve("modules.builtin");
            if (Files.isRegularFile(builtin)) {
                for (String line : Files.readAllLines(builtin)) {
                    if (!line.isBlank()) {
                        m.builtin.add(name(line.trim()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + moduleDir.resolve("modules.dep") + ": " + e.getMessage(), e);
        }
        return m;
    }

    /**
     * The module files (relative to the module directory) to load for {@code names}, dependencies first,
     * each once; a module built into the kernel needs none.
     *
     * @throws VmUnavailableException when a module is neither a file nor built in
     */
    List<String> loadOrder(List<String> names) {
        Set<String> out = new LinkedHashSet<>();
        for (String n : names) {
            String canonical = n.replace('-', '_');
            String file = fileByName.get(canonical);
            if (file == null) {
                if (builtin.contains(canonical)) {
                    continue;
                }
                throw new VmUnavailableException("the guest kernel has no module " + n + " (neither in modules.dep nor built in)");
            }
            visit(file, out, new HashSet<>());
        }
        return new ArrayList<>(out);
    }

    private void visit(String file, Set<String> out, Set<String> path) {
        if (out.contains(file) || !path.add(file)) {
            return; // already placed, or a cycle modules.dep should never have
        }
        for (String d : depsByFile.getOrDefault(file, List.of())) {
            visit(d, out, path);
        }
        out.add(file);
    }

    /** {@code kernel/fs/ext4/ext4.ko.xz} is {@code ext4}; '-' and '_' are the same in module names. */
    static String name(String file) {
        String base = file.substring(file.lastIndexOf('/') + 1);
        int ko = base.indexOf(".ko");
        return (ko < 0 ? base : base.substring(0, ko)).replace('-', '_');
    }
}
