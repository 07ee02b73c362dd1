package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.ProbeLeftovers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Under {@code LC_ALL=C} Java 17 encodes file names as ASCII ({@code sun.jnu.encoding} is
 * ANSI_X3.4-1968, and no option changes it): a real directory with a non-ASCII name cannot be named.
 * Every command says so in one line naming the fix, exit 2; under a UTF-8 locale it is probed.
 */
class LocaleTests {

    private static final String HINT = " (see flushcheck --help)\n";
    private static Path dir;

    @BeforeAll
    static void dirs() throws IOException {
        dir = Files.createDirectories(Path.of("target", "cli-locale").toAbsolutePath().resolve("dür"));
    }

    private static ChildJvm.Result run(String locale, Path workDir, String... args) {
        return ChildJvm.run(ChildJvm.command(List.of("env", "LC_ALL=" + locale, "LANG=" + locale),
                List.of("-Dflushcheck.warmup=false"), Main.class.getName(), List.of(args)), 60, workDir);
    }

    @Test
    void underTheCLocaleEveryCommandNamesTheFix() {
        // The child decodes the two bytes of 'ü' as two characters it cannot encode, printed as '?'.
        String shown = dir.getParent() + "/d??r";
        String expected = "cannot represent path '" + shown + "' in this locale's encoding (ANSI_X3.4-1968): run with a"
                + " UTF-8 locale, e.g. LC_ALL=C.UTF-8";
        for (List<String> cmd : List.<List<String>>of(List.of("--quiet"), List.of("sqlite", "--quiet"),
                List.of("sqlite", "--audit"), List.of("guests", "--host-dir"))) {
            List<String> args = new ArrayList<>(cmd);
            args.add(dir.toString());
            ChildJvm.Result r = run("C", Path.of("."), args.toArray(new String[0]));
            assertThat(r.exit()).as("%s: %s", args, r).isEqualTo(ExitCodes.USAGE);
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).as("%s", args).isEqualTo("flushcheck: " + expected + HINT);
        }
    }

    @Test
    void underTheCLocaleAWorkingDirectoryJavaCannotNameIsSaidSo() {
        ChildJvm.Result r = run("C", dir, "--quiet", "--modes", "no-sync", "--rounds", "1");
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.USAGE);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).endsWith("; if its name is not ASCII, this locale's encoding (ANSI_X3.4-1968) cannot"
                + " represent it: run with a UTF-8 locale, e.g. LC_ALL=C.UTF-8" + HINT).hasLineCount(1);
    }

    @Test
    void underAUtf8LocaleTheSameDirectoryIsProbed() {
        ChildJvm.Result r = run("C.UTF-8", Path.of("."), "--quiet", "--always-probe", "--modes", "no-sync", "--rounds", "1",
                dir.toString());
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.stdout()).startsWith("== " + dir + "\n");
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
    }
}
