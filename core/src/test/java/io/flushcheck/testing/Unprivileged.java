package io.flushcheck.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A child JVM that runs as a user without privileges: as root, as {@code nobody} (uid and gid 65534, no
 * supplementary groups, through {@code setpriv}) on a copy of the test classpath it can read; otherwise as
 * this user, who has none already.
 */
public final class Unprivileged {

    public static final int UID = 65534;

    private Unprivileged() {
    }

    /**
     * The command that runs {@code mainClass} with {@code args} unprivileged. {@code scratch} is a new
     * directory for the classpath's copy and the child's temporary files, which the child may write.
     */
    public static List<String> command(Path scratch, String mainClass, List<String> args) throws IOException {
        if (!Requirements.isRoot()) {
            return ChildJvm.command(List.of(), mainClass, args);
        }
        Requirements.requireCommand("setpriv", "util-linux");
        Path cp = Files.createDirectories(scratch.resolve("cp"));
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (String e : ChildJvm.classpath().split(java.io.File.pathSeparator)) {
            Path from = Path.of(e);
            if (!Files.exists(from)) {
                continue;
            }
            Path to = cp.resolve(String.valueOf(i++) + (Files.isDirectory(from) ? "" : ".jar"));
            copy(from, to);
            entries.add(to.toString());
        }
        Shell.run("chmod", "-R", "a+rX", scratch.toString());
        Path tmp = writableDir(scratch);
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=" + UID, "--regid=" + UID, "--clear-groups", "--",
                ChildJvm.javaBinary(), "-Djava.io.tmpdir=" + tmp, "-Djna.tmpdir=" + tmp, "-cp",
                String.join(java.io.File.pathSeparator, entries), mainClass));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * A directory the unprivileged child may make things in: {@code scratch/tmp}; the directories above it
     * under {@code java.io.tmpdir} (a JUnit temporary directory is private) are made traversable.
     */
    public static Path writableDir(Path scratch) throws IOException {
        Path tmp = Files.createDirectories(scratch.resolve("tmp"));
        if (Requirements.isRoot()) {
            Shell.run("chown", UID + ":" + UID, tmp.toString());
            Path top = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
            for (Path p = scratch.toAbsolutePath(); p != null && p.startsWith(top) && !p.equals(top); p = p.getParent()) {
                Shell.run("chmod", "a+x", p.toString());
            }
        }
        return tmp;
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
