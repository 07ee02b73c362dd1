package io.flushcheck.vm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * KVM where the CPU can run a stock guest kernel with it, else QEMU's software emulation (TCG).
 * {@code /dev/kvm} alone proves nothing: kvm_pvm (a software hypervisor in some cloud sandboxes) makes
 * one that a stock Debian kernel cannot boot on.
 *
 * @param name   QEMU's accelerator name, {@code kvm} or {@code tcg}
 * @param reason why, in one sentence
 */
record Accelerator(String name, String reason) {

    static Accelerator choose() {
        return choose(Path.of("/"));
    }

    /** As {@link #choose()}, reading {@code /proc}, {@code /sys} and {@code /dev} under {@code root} (tests). */
    static Accelerator choose(Path root) {
        if (Files.isDirectory(root.resolve("sys/module/kvm_pvm"))) {
            return new Accelerator("tcg", "/dev/kvm is kvm_pvm, which a stock guest kernel cannot use: software emulation (TCG)");
        }
        String flags = cpuFlags(root.resolve("proc/cpuinfo"));
        if (!(flags.contains(" vmx ") || flags.contains(" svm "))) {
            return new Accelerator("tcg", "the CPU shows no vmx or svm flag: software emulation (TCG)");
        }
        Path kvm = root.resolve("dev/kvm");
        try (RandomAccessFile f = new RandomAccessFile(kvm.toFile(), "rw")) {
            return new Accelerator("kvm", "the CPU has hardware virtualization and " + kvm + " opens: KVM");
        } catch (IOException | SecurityException e) {
            return new Accelerator("tcg", kvm + " cannot be opened (" + e.getMessage() + "): software emulation (TCG)");
        }
    }

    private static String cpuFlags(Path cpuinfo) {
        try {
            for (String line : Files.readAllLines(cpuinfo)) {
                if (line.startsWith("flags")) {
                    return " " + line.substring(line.indexOf(':') + 1).trim() + " ";
                }
            }
        } catch (IOException e) {
            // no cpuinfo: no flags
        }
        return "";
    }
}
