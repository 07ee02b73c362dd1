package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.Libc;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A crash state served ({@link ServedState}) and closed while another process uses it, as a program of its own for
 * a run as another user: prints how the close ended and what it left ({@code mounted}, {@code serving},
 * {@code fuse-descriptors}). Usage: {@code ServedStateCloseWorkload WORK held|reading}: with {@code held}, the other
 * process holds a file of the state open and sleeps; with {@code reading}, it reads the file over and over.
 */
public final class ServedStateCloseWorkload {

    private ServedStateCloseWorkload() {
    }

    public static void main(String[] args) throws Exception {
        run(Path.of(args[0]), args[1]).forEach(System.out::println);
    }

    /** The lines {@link #main} prints, for {@code work} (a directory to make) and the other process's {@code use}. */
    static List<String> run(Path work, String use) throws Exception {
        List<String> out = new ArrayList<>();
        Path mountPoint = Files.createDirectories(work.resolve("served"));
        long descriptors = fuseDescriptors();
        FileTree tree = new FileTree(Libc.C.geteuid(), Libc.C.getegid(), Files.createDirectories(work.resolve("store")),
                Long.MAX_VALUE, true);
        Process other = null;
        try {
            long a = tree.create(FileTree.ROOT, "a", false, 0644, Libc.C.geteuid(), Libc.C.getegid()).id();
            tree.write(a, 0, ByteBuffer.wrap("the state's file".getBytes(StandardCharsets.UTF_8)));
            ServedState state = ServedState.mount(tree, mountPoint);
            String script = use.equals("held") ? "exec 3< a; echo using; exec sleep 600"
                    : "cat a > /dev/null; echo using; while :; do cat a > /dev/null 2>&1; done";
            other = new ProcessBuilder("sh", "-c", script).directory(mountPoint.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String line = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            out.add("other " + line);
            out.add("other alive " + other.isAlive());
            try {
                state.close();
                out.add("closed");
            } catch (IOException e) {
                out.add("close failed: " + e.getMessage());
            }
            out.add("mounted " + Files.readString(Path.of("/proc/self/mountinfo")).contains(" " + mountPoint + " "));
            out.add("serving " + Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().equals("flushcheck-state-server") && t.isAlive()));
            out.add("fuse-descriptors " + (fuseDescriptors() - descriptors));
        } finally {
            if (other != null) {
                other.destroyForcibly().waitFor();
            }
            tree.close();
        }
        return out;
    }

    /** This process's descriptors open on {@code /dev/fuse}. */
    static long fuseDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().equals("/dev/fuse");
                } catch (IOException e) {
                    return false; // closed meanwhile (the listing's own)
                }
            }).count();
        }
    }
}
