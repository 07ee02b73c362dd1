package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.sys.RegularFile;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash states served over FUSE ({@link ServedState}) are the states written out ({@link StateDirectory}): seen from
 * another process, the same names, kinds, permission bits, links, files' sizes and bytes, state by state, where each
 * check changes what it was handed; and nothing stays mounted. (A directory's size is its filesystem's way of
 * counting its names: the host's says 4096, the file model's 0.)
 */
class ServedStateTests {

    @TempDir
    Path tmp;

    @BeforeEach
    void fuse() {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Requirements.which("fusermount3") != null || Requirements.which("fusermount") != null
                || Requirements.isRoot(), "fusermount3 or fusermount (apt-get install fuse3)");
    }

    /**
     * Directories, files written at offsets inside and past a page and past a slot of the store, truncations that
     * shrink and grow, a hard link, permission bits, renames, syncs between, and changes never synced.
     */
    private RegularFile recording() throws Exception {
        Path file = tmp.resolve("recording");
        FileTree t = new FileTree(0, 0, Files.createDirectories(tmp.resolve("store")), Long.MAX_VALUE, true);
        try {
            t.record(file);
            long d = t.create(FileTree.ROOT, "d", true, 0750, 0, 0).id();
            long e = t.create(d, "e", true, 0755, 0, 0).id();
            long a = t.create(FileTree.ROOT, "a", false, 0644, 0, 0).id();
            t.write(a, 0, bytes("first of a"));
            long big = t.create(e, "big", false, 0600, 0, 0).id();
            t.write(big, 0, ByteBuffer.wrap(new byte[9000]).put(0, (byte) 7).put(8999, (byte) 9));
            t.sync(a);
            t.write(a, 6000, bytes("past a page"));
            t.truncate(big, 5000);
            t.link(big, FileTree.ROOT, "big-too");
            t.setAttributes(a, 0640, null, null, null);
            long b = t.create(d, "b", false, 0644, 0, 0).id();
            t.write(b, 0, bytes("b, made after the sync"));
            t.sync(b);
            t.truncate(a, 7000);
            t.write(b, 3, bytes("written over"));
            t.rename(d, "b", FileTree.ROOT, "b-moved", false);
            long c = t.create(e, "c", false, 0444, 0, 0).id();
            t.write(c, 100, bytes("c with a hole first"));
            t.stopRecording();
        } finally {
            t.close();
        }
        return RegularFile.open(file);
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aStateServedIsTheStateWrittenOutAsAnotherProcessSeesIt() throws Exception {
        try (RegularFile recording = recording()) {
            TreeStates.Enumerated all = TreeStates.enumerate(recording, Files.createDirectories(tmp.resolve("e")),
                    Integer.MAX_VALUE);
            assertThat(all.states()).as("states").hasSizeGreaterThan(10);
            List<String> written = seen(recording, all.states(), null);
            Path mountPoint = Files.createDirectories(tmp.resolve("served"));
            List<String> served = seen(recording, all.states(), mountPoint);
            assertThat(served).as("the states served, as seen from another process").isEqualTo(written);
            assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).as("mounts left")
                    .doesNotContain(mountPoint.toString());
            try (var left = Files.list(mountPoint)) {
                assertThat(left).as("what is left where the states were served").isEmpty();
            }
        }
    }

    /**
     * What another process sees of each state in turn, written out ({@code served} null) or each served there; after
     * each look, the process changes the state (a file added, one appended to, one's bits changed), which the next
     * state must not show.
     */
    private List<String> seen(RegularFile recording, List<TreeStates.Candidate> states, Path served) throws Exception {
        List<String> seen = new ArrayList<>();
        Path scratch = Files.createDirectories(tmp.resolve("scratch-" + (served == null ? "written" : "served")));
        Path survivor = tmp.resolve("state-" + (served == null ? "written" : "served"));
        TreeStates.visit(recording, scratch, states, survivor, served, 0, (state, at) -> {
            if (served != null) {
                assertThat(at).isEqualTo(served);
            }
            seen.add(state.state().description() + "\n" + sh(at, "find . -mindepth 1 \\( -type d -printf '%P %y %m %n\\n' \\)"
                    + " -o -printf '%P %y %m %n %s\\n' | sort;"
                    + " find . -type f -print0 | sort -z | xargs -0 -r sha256sum"));
            sh(at, "echo new > added; if [ -f a ]; then echo more >> a; chmod 600 a; fi");
        });
        return seen;
    }

    /** What {@code script} prints run by {@code sh} in {@code dir}, a process of its own; it must exit 0. */
    private static String sh(Path dir, String script) throws IOException {
        Process p = new ProcessBuilder("sh", "-c", script).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("sh ended").isTrue();
            assertThat(p.exitValue()).as("sh -c %s: %s", script, out).isZero();
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
