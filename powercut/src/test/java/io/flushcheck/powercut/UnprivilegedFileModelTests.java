package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Unprivileged;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file model without root: a JVM running as {@code nobody} mounts it through fusermount, runs the
 * write-then-rename store on it, cuts the power and finds the rename lost; killed, it leaves nothing mounted.
 */
class UnprivilegedFileModelTests {

    @TempDir
    Path scratch;

    @BeforeEach
    void needs() {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Requirements.which("fusermount3") != null || Requirements.which("fusermount") != null,
                "fusermount3 or fusermount (apt-get install fuse3)");
    }

    @Test
    void anUnprivilegedJvmCutsThePowerUnderAStoreAndSeesTheRenameLost() throws IOException {
        Path work = Unprivileged.writableDir(scratch).resolve("disk");
        List<String> cmd = Unprivileged.command(scratch, FileModelWorkload.class.getName(), List.of(work.toString()));
        ChildJvm.Result r = ChildJvm.run(cmd, 120);
        assertThat(r.exit()).as("%s", r).isZero();
        if (Requirements.isRoot()) {
            assertThat(r.stdout()).as("%s", r).contains("uid " + Unprivileged.UID + "\n");
        }
        assertThat(r.stdout()).as("%s", r).doesNotContain("uid 0\n")
                .contains("mounted true\n", "flushes 3\n", "survived old\n", "left false\n");
        assertThat(mounted(work)).isFalse();
    }

    /** The JVM serves its file model itself: fusermount, watching it, unmounts when it dies. */
    @Test
    void aKilledJvmLeavesNothingMounted() throws Exception {
        Path work = Unprivileged.writableDir(scratch).resolve("disk");
        Process jvm = new ProcessBuilder(Unprivileged.command(scratch, FileModelWorkload.class.getName(),
                List.of(work.toString(), "hold"))).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            String holding = null;
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("holding ")) {
                    holding = line;
                    break;
                }
            }
            assertThat(holding).as("the child's mount").isNotNull();
            String[] w = holding.split(" ");
            Path mount = Path.of(w[1]);
            assertThat(mounted(mount)).isTrue();
            jvm.destroyForcibly().waitFor();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (mounted(mount) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(mounted(mount)).as("%s still mounted after its JVM was killed", mount).isFalse();
        } finally {
            jvm.destroyForcibly().waitFor();
        }
    }

    private static boolean mounted(Path p) throws IOException {
        return Files.readString(Path.of("/proc/self/mountinfo")).contains(" " + p + " ");
    }
}
