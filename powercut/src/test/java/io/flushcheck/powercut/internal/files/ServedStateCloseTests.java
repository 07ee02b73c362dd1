package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.fuse.FuseMount;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Unprivileged;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A served crash state's close leaves nothing behind while another process still uses the state, holding one of
 * its files open (a plain unmount fails with EBUSY, a lazy one leaves the connection up) or reading it without
 * pause: no mount, no serving thread, no {@code /dev/fuse} descriptor; as this process's user and, through
 * fusermount3 and fuse 2's fusermount, as a user without privileges.
 */
class ServedStateCloseTests {

    @TempDir
    Path tmp;

    @BeforeEach
    void fuse() {
        Requirements.requireFileModel();
    }

    @ParameterizedTest(name = "the other process {0} a file")
    @ValueSource(strings = {"held", "reading"})
    void closeLeavesNothingWhileAnotherProcessUsesTheState(String use) throws Exception {
        List<String> seen = ServedStateCloseWorkload.run(tmp.resolve("work"), use);
        assertThat(seen).as("the close, and what it left").containsExactly("other using", "other alive true", "closed",
                "mounted false", "serving false", "fuse-descriptors 0");
    }

    static Stream<Arguments> unprivileged() {
        List<Arguments> all = new ArrayList<>();
        for (String fusermount : List.of("fusermount3", "fuse 2's fusermount")) {
            for (String use : List.of("held", "reading")) {
                all.add(Arguments.of(fusermount, use));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "through {0}, the other process {1} a file")
    @MethodSource("unprivileged")
    void closeLeavesNothingAsAnUnprivilegedUser(String fusermount, String use) throws Exception {
        Requirements.require(Requirements.isRoot(), "root, to run a JVM as another user");
        String binary = fusermount.equals("fusermount3") ? String.valueOf(Requirements.which("fusermount3"))
                : System.getenv("FLUSHCHECK_TEST_FUSE2_FUSERMOUNT");
        Requirements.require(binary != null && Files.isExecutable(Path.of(binary)), fusermount
                + (fusermount.equals("fusermount3") ? " (apt-get install fuse3)"
                : ", named by FLUSHCHECK_TEST_FUSE2_FUSERMOUNT (.ci/run unpacks Debian's fuse package)"));
        Path work = Unprivileged.writableDir(tmp).resolve("work");
        List<String> cmd = new ArrayList<>(List.of("env", FuseMount.FUSERMOUNT_VARIABLE + "=" + binary));
        cmd.addAll(Unprivileged.command(tmp, ServedStateCloseWorkload.class.getName(), List.of(work.toString(), use)));
        ChildJvm.Result r = ChildJvm.run(cmd, 120);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.stdout().lines().toList()).as("%s", r).containsExactly("other using", "other alive true", "closed",
                "mounted false", "serving false", "fuse-descriptors 0");
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).as("mounts left").doesNotContain(work.toString());
    }
}
