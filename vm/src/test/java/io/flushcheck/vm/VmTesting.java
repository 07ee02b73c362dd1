package io.flushcheck.vm;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Shared by the VM tests: the requirement check, a host directory on a disk, leftovers to look for. */
public final class VmTesting {

    private VmTesting() {
    }

    /** Skips on a laptop without QEMU, root or the kernel package; fails with flushcheck.missing-tool=fail. */
    public static void requireVm() {
        String missing = null;
        try {
            VmProbe.requirements();
        } catch (VmUnavailableException e) {
            missing = e.getMessage();
        }
        Requirements.require(missing == null, "QEMU guests: " + missing);
    }

    /** A fresh directory under the build directory: on the machine's disk, never on tmpfs. */
    public static Path hostDir(String name) throws IOException {
        Path d = Path.of("target", "vm-tests", name + "-" + ProcessHandle.current().pid()).toAbsolutePath();
        Files.createDirectories(d);
        return d;
    }

    /** The QEMU processes whose disk is a loop device backed by a file in this directory. */
    public static List<String> qemuProcessesFor(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline"))).replace('\0', ' ');
                    String loop = loopOf(cmd);
                    if (cmd.contains("qemu-system") && loop != null && backingIn(loop, dir)) {
                        out.add(p.getFileName() + ": " + cmd);
                    }
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        }
        return out;
    }

    /** The QEMU processes whose command line contains {@code marker}. */
    static List<String> qemuProcessesWith(String marker) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline"))).replace('\0', ' ');
                    if (cmd.contains("qemu-system") && cmd.contains(marker)) {
                        out.add(p.getFileName() + ": " + cmd);
                    }
                } catch (IOException e) {
                    // not a process, or gone meanwhile
                }
            }
        }
        return out;
    }

    /** The loop devices whose backing file lies in {@code dir}. */
    public static List<String> loopsBackedIn(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> devs = Files.list(Path.of("/sys/block"))) {
            for (Path d : (Iterable<Path>) devs::iterator) {
                String name = d.getFileName().toString();
                if (name.startsWith("loop") && backingIn(name, dir)) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    /** The files flushcheck left in {@code dir}. */
    public static List<String> ownFilesIn(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".flushcheck-")).forEach(out::add);
        }
        return out;
    }

    private static String loopOf(String cmd) {
        int at = cmd.indexOf("file=/dev/loop");
        if (at < 0) {
            return null;
        }
        int end = cmd.indexOf(',', at);
        return cmd.substring(at + "file=/dev/".length(), end < 0 ? cmd.length() : end);
    }

    private static boolean backingIn(String loop, Path dir) {
        try {
            String backing = Files.readString(Path.of("/sys/block", loop, "loop", "backing_file")).trim();
            return backing.startsWith(dir.toString() + "/");
        } catch (IOException e) {
            return false;
        }
    }
}
