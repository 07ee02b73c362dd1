package io.flushcheck.vm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The guest's kernel: the one Debian's {@code linux-image-amd64} depends on, found through dpkg, never by a
 * version written down here.
 *
 * @param packageName    the kernel's own package, {@code linux-image-6.1.0-57-amd64}
 * @param packageVersion its version, {@code 6.1.192-3}
 * @param release        the kernel release, {@code 6.1.0-57-amd64}
 * @param image          its compressed image, {@code /boot/vmlinuz-<release>}
 * @param modules        its module tree, {@code /lib/modules/<release>}
 */
record GuestKernel(String packageName, String packageVersion, String release, Path image, Path modules) {

    static final String META_PACKAGE = "linux-image-amd64";

    static GuestKernel resolve() {
        Exec.require("dpkg-query", "dpkg");
        Exec.Result meta = Exec.exec(null, List.of("dpkg-query", "-W", "-f=${db:Status-Status}\t${Depends}", META_PACKAGE), null);
        if (meta.exit() != 0 || !meta.out().startsWith("installed\t")) {
            throw new VmUnavailableException("the guest kernel package " + META_PACKAGE + " is not installed (apt-get install "
                    + META_PACKAGE + ")");
        }
        String name = kernelPackage(meta.out().substring("installed\t".length()));
        if (name == null) {
            throw new VmUnavailableException(META_PACKAGE + " depends on no linux-image package: '" + meta.out().trim() + "'");
        }
        String version = Exec.run(List.of("dpkg-query", "-W", "-f=${Version}", name)).trim();
        Path image = null;
        for (String line : Exec.run(List.of("dpkg-query", "-L", name)).split("\n")) {
            if (line.startsWith("/boot/vmlinuz-")) {
                image = Path.of(line.trim());
            }
        }
        if (image == null || !Files.isReadable(image)) {
            throw new VmUnavailableException(name + " lists no readable /boot/vmlinuz-* (reinstall it: apt-get install --reinstall "
                    + name + ")");
        }
        String release = image.getFileName().toString().substring("vmlinuz-".length());
        Path modules = Path.of("/lib/modules", release);
        if (!Files.isRegularFile(modules.resolve("modules.dep"))) {
            modules = Path.of("/usr/lib/modules", release);
        }
        if (!Files.isRegularFile(modules.resolve("modules.dep"))) {
            throw new VmUnavailableException("no modules.dep for kernel " + release + " in /lib/modules (reinstall " + name + ")");
        }
        return new GuestKernel(name, version, release, image, modules);
    }

    /**
     * The first linux-image package of a Depends field: {@code linux-image-6.1.0-57-amd64 (= 6.1.192-3)}, or
     * the first alternative of {@code a | b}. Null when there is none.
     */
    static String kernelPackage(String depends) {
        for (String dep : depends.split(",")) {
            for (String alt : dep.split("\\|")) {
                String n = alt.trim();
                int sp = n.indexOf(' ');
                n = sp < 0 ? n : n.substring(0, sp);
                int colon = n.indexOf(':');
                n = colon < 0 ? n : n.substring(0, colon);
                if (n.startsWith("linux-image-") && !n.equals(META_PACKAGE)) {
                    return n;
                }
            }
        }
        return null;
    }
}
