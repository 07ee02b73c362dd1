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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        Requirements.requireFileModel();
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

    @ParameterizedTest(name = "each check changing its state: {0}")
    @ValueSource(booleans = {true, false})
    void aStateServedIsTheStateWrittenOutAsAnotherProcessSeesIt(boolean change) throws Exception {
        try (RegularFile recording = recording()) {
            TreeStates.Enumerated all = TreeStates.enumerate(recording, Files.createDirectories(tmp.resolve("e")),
                    Integer.MAX_VALUE);
            assertThat(all.states()).as("states").hasSizeGreaterThan(10);
            List<String> written = seen(recording, all.states(), null, change);
            Path mountPoint = Files.createDirectories(tmp.resolve("served"));
            List<String> served = seen(recording, all.states(), mountPoint, change);
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
     * each look, where {@code change} says, the process changes the state (a file added, one appended to, one's bits
     * changed), which the next state must not show.
     */
    private List<String> seen(RegularFile recording, List<TreeStates.Candidate> states, Path served, boolean change)
            throws Exception {
        List<String> seen = new ArrayList<>();
        Path scratch = Files.createDirectories(tmp.resolve("scratch-" + (served == null ? "written" : "served")));
        Path survivor = tmp.resolve("state-" + (served == null ? "written" : "served"));
        TreeStates.visit(recording, scratch, states, survivor, served, 0, (state, at) -> {
            if (served != null) {
                assertThat(at).isEqualTo(served);
            }
            seen.add(state.state().description() + "\n" + sh(at, "find . -mindepth 1"
                    + " \\( -type d -printf '%P %y %m %n\\n' \\) -o -printf '%P %y %m %n %s\\n' | sort;"
                    + " find . -type f -print0 | sort -z | xargs -0 -r sha256sum"));
            if (change) {
                sh(at, "echo new > added; if [ -f a ]; then echo more >> a; chmod 600 a; fi");
            }
        });
        return seen;
    }

    /**
     * A state's tree made from the one before by what differs holds what one made whole holds, and the second state
     * is made so, not whole.
     */
    @Test
    void aStateIsMadeFromTheOneBeforeByWhatDiffers() throws Exception {
        FileTree t = new FileTree(0, 0, Files.createDirectories(tmp.resolve("store")), Long.MAX_VALUE, true);
        try (ServedTree patched = new ServedTree(Files.createDirectories(tmp.resolve("patched")));
             ServedTree whole = new ServedTree(Files.createDirectories(tmp.resolve("whole")))) {
            long d = t.create(FileTree.ROOT, "d", true, 0755, 0, 0).id();
            for (int i = 0; i < 20; i++) {
                long f = t.create(i % 2 == 0 ? d : FileTree.ROOT, "f" + i, false, 0644, 0, 0).id();
                t.write(f, 0, bytes("file " + i));
                if (i == 3) {
                    t.link(f, d, "f3-too");
                }
            }
            t.sync(FileTree.ROOT);
            t.write(t.lookup(d, "f4").id(), 2, bytes("changed"));
            t.rename(FileTree.ROOT, "f5", d, "f5-moved", false);
            t.remove(d, "f3-too", false);
            t.setAttributes(t.lookup(FileTree.ROOT, "f7").id(), 0600, null, null, null);
            List<StatePick> picks = t.statePicks();
            assertThat(picks).as("states").hasSizeGreaterThan(2);
            patched.make(t, t.layout(picks.get(picks.size() - 1)), false);
            for (StatePick pick : picks) {
                FileTree p = patched.make(t, t.layout(pick), false);
                FileTree w = whole.make(t, t.layout(pick), true);
                assertThat(dump(p, FileTree.ROOT, "")).as("state %s made from the one before", pick)
                        .isEqualTo(dump(w, FileTree.ROOT, ""));
            }
            assertThat(patched.madeWhole()).as("states made whole").isEqualTo(1);
            assertThat(patched.made()).as("states made").isEqualTo(picks.size() + 1);
        } finally {
            t.close();
        }
    }

    /** Each name under directory {@code id} of {@code tree}: kind, bits, links, size and bytes. */
    private static String dump(FileTree tree, long id, String at) throws Exception {
        StringBuilder out = new StringBuilder();
        for (var e : tree.list(id)) {
            TreeNode n = e.getValue();
            out.append(at).append(e.getKey()).append(n.dir() ? " d " : " f ").append(Integer.toOctalString(n.mode()))
                    .append(' ').append(n.links()).append(' ').append(n.size());
            if (n.dir()) {
                out.append('\n').append(dump(tree, n.id(), at + e.getKey() + "/"));
            } else {
                ByteBuffer b = ByteBuffer.allocate((int) n.size());
                tree.read(n.id(), 0, b);
                out.append(' ').append(new String(b.array(), StandardCharsets.ISO_8859_1)).append('\n');
            }
        }
        return out.toString();
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
