package io.flushcheck.vm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What a QEMU guest boots, built offline from what Debian's packages installed on this machine: the kernel of
 * {@code linux-image-amd64} (uncompressed where it can be, see {@link KernelExtractor}) and an initramfs with
 * busybox (busybox-static), the disk's modules in load order, a small init and the probe, compiled here
 * with gcc as a static binary.
 *
 * <p>Reproducible: every entry dated 0 and owned by 0:0, in sorted order, {@code cpio --reproducible},
 * {@code gzip -n}. Cached under {@code <cache>/<key>}, where the key is a SHA-256 over every input's bytes
 * (kernel, modules, busybox, the probe's source, the init, the compiler's version), so it is built again
 * only when one of them changes.
 *
 * @param key       the inputs' digest (16 hex digits)
 * @param kernel    the kernel QEMU boots
 * @param initramfs the gzip'd newc cpio archive
 * @param built     true when this call built it, false when it came from the cache
 */
record BootImage(String key, Path kernel, Path initramfs, boolean built) {

    static final String PROBE_SOURCE = "guest/probe.c";
    static final String INIT_SOURCE = "guest/init";

    /** What goes into the image, each input by content. */
    record Inputs(GuestKernel kernel, List<Path> modules, Path busybox, byte[] probeSource, byte[] init, String compiler) {

        static Inputs ofThisMachine() {
            GuestKernel k = GuestKernel.resolve();
            List<Path> modules = new ArrayList<>();
            for (String f : KernelModules.read(k.modules()).loadOrder(KernelModules.GUEST)) {
                modules.add(k.modules().resolve(f));
            }
            Path busybox = Exec.require("busybox", "busybox-static");
            try {
                if (!isStatic(busybox)) {
                    throw new VmUnavailableException(busybox + " is linked dynamically and cannot run alone in the guest "
                            + "(apt-get install busybox-static)");
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + busybox + ": " + e.getMessage(), e);
            }
            Exec.require("gcc", "gcc");
            String compiler = Exec.run(List.of("gcc", "--version")).lines().findFirst().orElse("gcc")
                    + " " + Exec.run(List.of("gcc", "-dumpmachine")).trim();
            return new Inputs(k, modules, busybox, resource(PROBE_SOURCE), resource(INIT_SOURCE), compiler);
        }

        Inputs withInit(byte[] other) {
            return new Inputs(kernel, modules, busybox, probeSource, other, compiler);
        }

        String key() {
            try {
                MessageDigest d = MessageDigest.getInstance("SHA-256");
                part(d, kernel.packageName() + " " + kernel.packageVersion());
                part(d, Files.readAllBytes(kernel.image()));
                for (Path m : modules) {
                    part(d, m.getFileName().toString());
                    part(d, Files.readAllBytes(m));
                }
                part(d, Files.readAllBytes(busybox));
                part(d, probeSource);
                part(d, init);
                part(d, compiler);
                part(d, FORMAT);
                return HexFormat.of().formatHex(d.digest()).substring(0, 16);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the guest image's inputs: " + e.getMessage(), e);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        private static void part(MessageDigest d, String s) {
            part(d, s.getBytes(StandardCharsets.UTF_8));
        }

        private static void part(MessageDigest d, byte[] b) {
            d.update(Long.toString(b.length).getBytes(StandardCharsets.US_ASCII));
            d.update((byte) 0);
            d.update(b);
        }
    }

    /** Changes when the way the image is assembled changes, so that a cached image of another layout is not used. */
    private static final String FORMAT = "flushcheck-vm-image-2";

    /** The user's cache: {@code flushcheck.vm.cache}, else {@code $XDG_CACHE_HOME/flushcheck/vm}, else {@code ~/.cache/flushcheck/vm}. */
    static Path defaultCache() {
        String prop = System.getProperty("flushcheck.vm.cache");
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "flushcheck", "vm");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "flushcheck", "vm");
    }

    /** The cached image for these inputs, built first when there is none. */
    static BootImage obtain(Path cache, Inputs inputs, Consumer<String> progress) {
        String key = inputs.key();
        Path dir = cache.resolve(key);
        if (Files.isRegularFile(dir.resolve("initramfs.cpio.gz")) && Files.isRegularFile(dir.resolve("kernel"))) {
            return new BootImage(key, dir.resolve("kernel"), dir.resolve("initramfs.cpio.gz"), false);
        }
        progress.accept("building the guest image " + key + " in " + cache + " (kernel " + inputs.kernel().release() + ")");
        Path tmp = null;
        try {
            Files.createDirectories(cache);
            tmp = Files.createTempDirectory(cache, ".build-" + key + "-");
            build(inputs, tmp);
            try {
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
                tmp = null;
            } catch (IOException e) {
                // Another process built the same key meanwhile: same inputs, same image, and theirs is used.
                if (!Files.isRegularFile(dir.resolve("initramfs.cpio.gz"))) {
                    throw e;
                }
            }
            return new BootImage(key, dir.resolve("kernel"), dir.resolve("initramfs.cpio.gz"), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the guest image in " + cache + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                deleteTree(tmp);
            }
        }
    }

    private static void build(Inputs in, Path out) throws IOException {
        Path root = out.resolve("root");
        for (String d : List.of("bin", "dev", "proc", "sys", "data", "host", "lib/modules")) {
            Files.createDirectories(root.resolve(d));
        }
        Files.write(root.resolve("init"), in.init());
        Files.setPosixFilePermissions(root.resolve("init"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.copy(in.busybox(), root.resolve("bin/busybox"));
        Files.setPosixFilePermissions(root.resolve("bin/busybox"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Path source = out.resolve("probe.c");
        Files.write(source, in.probeSource());
        Exec.run(out, List.of("gcc", "-static", "-O2", "-Wall", "-o", root.resolve("probe").toString(), source.toString()));
        StringBuilder order = new StringBuilder();
        for (Path m : in.modules()) {
            String name = KernelModules.name(m.getFileName().toString()) + ".ko";
            decompressModule(m, root.resolve("lib/modules").resolve(name));
            order.append(name).append('\n');
        }
        Files.writeString(root.resolve("modules"), order.toString());
        List<String> entries = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.setLastModifiedTime(p, FileTime.fromMillis(0));
                if (!p.equals(root)) {
                    entries.add(root.relativize(p).toString());
                }
            }
        }
        // Byte order, as LC_ALL=C sort gives: the archive's order does not depend on the locale or the walk.
        entries.sort(Comparator.naturalOrder());
        StringBuilder list = new StringBuilder();
        for (String e : entries) {
            list.append(e).append('\n');
        }
        Path cpio = out.resolve("initramfs.cpio");
        Exec.Result r = Exec.exec(root, List.of(Exec.require("cpio", "cpio").toString(), "--quiet", "--reproducible",
                "-R", "0:0", "-o", "-H", "newc"), list.toString().getBytes(StandardCharsets.UTF_8), cpio);
        if (r.exit() != 0) {
            throw new IllegalStateException("cpio exited " + r.exit() + ": " + r.err().trim());
        }
        Exec.Result z = Exec.exec(out, List.of("gzip", "-n", "-9", "-c", cpio.toString()), null, out.resolve("initramfs.cpio.gz"));
        if (z.exit() != 0) {
            throw new IllegalStateException("gzip exited " + z.exit() + ": " + z.err().trim());
        }
        if (!KernelExtractor.extract(in.kernel().image(), out.resolve("kernel"))) {
            Files.copy(in.kernel().image(), out.resolve("kernel"));
        }
        Files.delete(cpio);
        Files.delete(source);
        deleteTree(root);
        Files.writeString(out.resolve("inputs.txt"), describe(in));
    }

    private static String describe(Inputs in) {
        StringBuilder sb = new StringBuilder();
        sb.append("kernel ").append(in.kernel().packageName()).append(' ').append(in.kernel().packageVersion())
                .append(' ').append(in.kernel().image()).append('\n');
        for (Path m : in.modules()) {
            sb.append("module ").append(m).append('\n');
        }
        sb.append("busybox ").append(in.busybox()).append('\n');
        sb.append("compiler ").append(in.compiler()).append('\n');
        return sb.toString();
    }

    /** busybox's insmod takes plain ELF modules: Debian compresses them in newer releases. */
    private static void decompressModule(Path module, Path out) throws IOException {
        String n = module.getFileName().toString();
        String tool = n.endsWith(".xz") ? "xz" : n.endsWith(".zst") ? "zstd" : n.endsWith(".gz") ? "gzip" : null;
        if (tool == null) {
            Files.copy(module, out);
            return;
        }
        Exec.require(tool, tool.equals("xz") ? "xz-utils" : tool);
        Exec.Result r = Exec.exec(null, List.of(tool, "-dc", module.toString()), null, out);
        if (r.exit() != 0) {
            throw new IllegalStateException(tool + " could not decompress " + module + ": " + r.err().trim());
        }
    }

    /** An ELF executable without a program interpreter (PT_INTERP) runs without a dynamic loader. */
    static boolean isStatic(Path elf) throws IOException {
        byte[] b;
        try (InputStream in = Files.newInputStream(elf)) {
            b = in.readNBytes(64 * 1024);
        }
        if (b.length < 64 || b[0] != 0x7F || b[1] != 'E' || b[2] != 'L' || b[3] != 'F' || b[4] != 2) {
            return false;
        }
        long phoff = le(b, 0x20, 8);
        int phentsize = (int) le(b, 0x36, 2);
        int phnum = (int) le(b, 0x38, 2);
        for (int i = 0; i < phnum; i++) {
            long at = phoff + (long) i * phentsize;
            if (at + 4 > b.length) {
                return false;
            }
            if (le(b, (int) at, 4) == 3) {
                return false;
            }
        }
        return true;
    }

    private static long le(byte[] b, int at, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    static byte[] resource(String name) {
        try (InputStream in = BootImage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " beside " + BootImage.class.getName());
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            List<Path> all = new ArrayList<>();
            s.forEach(all::add);
            for (int i = all.size() - 1; i >= 0; i--) {
                Files.deleteIfExists(all.get(i));
            }
        } catch (IOException e) {
            // best effort: a temporary directory of ours under the cache
        }
    }
}
