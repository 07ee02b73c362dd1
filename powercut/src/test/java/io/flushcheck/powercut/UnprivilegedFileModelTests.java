package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.fuse.FuseMount;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Unprivileged;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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

    /**
     * fuse3's fusermount3 and fuse 2's fusermount: users have either. fuse 2's comes from Debian's
     * {@code fuse} package, unpacked beside fuse3 by {@code .ci/run} (the two packages conflict), at the path
     * {@value #FUSE2_VARIABLE} names.
     */
    static Stream<String> fusermounts() {
        return Stream.of("fusermount3", "fuse 2's fusermount");
    }

    static final String FUSE2_VARIABLE = "FLUSHCHECK_TEST_FUSE2_FUSERMOUNT";

    static String binary(String which) {
        if (which.equals("fusermount3")) {
            Path p = Requirements.which("fusermount3");
            Requirements.require(p != null, "fusermount3 (apt-get install fuse3)");
            return p.toString();
        }
        String p = System.getenv(FUSE2_VARIABLE);
        Requirements.require(p != null && Files.isExecutable(Path.of(p)),
                "fuse 2's fusermount, named by " + FUSE2_VARIABLE + " (.ci/run unpacks Debian's fuse package)");
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fusermounts")
    void anUnprivilegedJvmCutsThePowerUnderAStoreAndSeesTheRenameLost(String which) throws Exception {
        Path work = Unprivileged.writableDir(scratch).resolve("disk");
        List<String> cmd = new ArrayList<>(List.of("env", FuseMount.FUSERMOUNT_VARIABLE + "=" + binary(which)));
        cmd.addAll(Unprivileged.command(scratch, FileModelWorkload.class.getName(), List.of(work.toString())));
        ChildJvm.Result r = ChildJvm.run(cmd, 120);
        assertThat(r.exit()).as("%s", r).isZero();
        if (Requirements.isRoot()) {
            assertThat(r.stdout()).as("%s", r).contains("uid " + Unprivileged.UID + "\n");
        }
        assertThat(r.stdout()).as("%s", r).doesNotContain("uid 0\n")
                .contains("mounted true\n", "flushes 3\n", "survived old\n", "left false\n");
        assertThat(r.stderr()).as("what the child said").doesNotContain("not mounted");
        assertThat(mounted(work)).isFalse();
        assertThat(work).doesNotExist();
        // fusermount's watcher is reaped with the mount: none of it outlives the run
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (watchers(work) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(watchers(work)).as("fusermount processes still watching %s", work).isZero();
    }

    /** fusermount processes whose command line names a mount under {@code work}. */
    private static long watchers(Path work) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains("fusermount")
                && p.info().commandLine().orElse("").contains(work.toString())).count();
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
