package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.cli.common.ExitCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flushcheck powercut}'s bad input: one line naming what is wrong, exit 2, nothing run. */
class PowerCutUsageTests {

    private static final String VERIFY = "test -e {dir}/x";

    private static void assertUsageError(Run r, String message) {
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("flushcheck: " + message + " (see flushcheck --help)\n");
    }

    @Test
    void theCommandGoesAfterDashDash() {
        assertUsageError(run("powercut", "--verify", VERIFY),
                "powercut: put the command after -- (flushcheck powercut --verify 'VERIFY {dir}' -- COMMAND {dir})");
        assertUsageError(run("powercut", "--verify", VERIFY, "touch", "{dir}/x"),
                "powercut: put the command after -- (flushcheck powercut --verify 'VERIFY {dir}' -- COMMAND {dir});"
                        + " got 'touch {dir}/x' without --");
        assertUsageError(run("powercut", "--verify", VERIFY, "touch", "--", "{dir}/x"),
                "powercut: unexpected argument 'touch' before --");
        assertUsageError(run("powercut", "--verify", VERIFY, "--"),
                "powercut: put the command after -- (flushcheck powercut --verify 'VERIFY {dir}' -- COMMAND {dir})");
        // the command's own options meet flushcheck's parser first
        assertUsageError(run("powercut", "--verify", VERIFY, "sh", "-c", "touch {dir}/x"),
                "powercut: unknown option -c: put the command after -- (flushcheck powercut [options] -- COMMAND {dir})");
        assertUsageError(run("powercut", "--bogus", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: unknown option --bogus");
    }

    @Test
    void bothCommandsNameTheirDirectory() {
        assertUsageError(run("powercut", "--verify", VERIFY, "--", "touch", "/tmp/x"),
                "powercut: the command must name its data directory as {dir}, which becomes the simulated disk's"
                        + " path: touch /tmp/x");
        assertUsageError(run("powercut", "--verify", "true", "--", "touch", "{dir}/x"),
                "powercut: --verify must name the survivor's directory as {dir}: true");
        assertUsageError(run("powercut", "--", "touch", "{dir}/x"),
                "powercut: --verify 'VERIFY {dir}' is missing: the command that checks what survived");
    }

    /** An unknown kind with --damage-blocks is answered with the two kinds explore takes, not the damage command's. */
    @Test
    void anUnknownKindOfExploresDamageNamesTheTwoItTakes(@TempDir Path dir) {
        Path ran = dir.resolve("ran");
        Run r = run("powercut", "--model", "file", "--explore", "--damage-blocks", "2", "--kinds", "zeroed,foo",
                "--verify", "true {dir}", "--", "touch", ran.toString(), "{dir}/x");
        assertThat(r.exit()).as("%s", r).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--kinds with --damage-blocks takes bit-rot and zeroed, not 'foo'")
                .doesNotContain("misdirected-write");
        assertThat(ran).as("nothing run").doesNotExist();
    }

    /** A directory the recording would not be saved in is refused before the command runs, not once it has. */
    @Test
    void aRecordDirectoryTheSaveWouldRefuseCostsNoRun(@TempDir Path dir) throws IOException {
        Path ran = dir.resolve("ran");
        Path full = Files.createDirectory(dir.resolve("full"));
        Files.writeString(full.resolve("kept"), "an earlier recording");
        assertUsageError(run("powercut", "--explore", "--record", full.toString(), "--verify", VERIFY, "--", "touch",
                ran.toString(), "{dir}/x"), "powercut --record " + full + ": a recording is not saved there: it is not"
                + " empty");
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertUsageError(run("powercut", "--explore", "--record", open.toString(), "--verify", VERIFY, "--", "touch",
                ran.toString(), "{dir}/x"), "powercut --record " + open + ": a recording is not saved there: other"
                + " users can write it (mode 777), and could replace what is saved in it");
        Path link = Files.createSymbolicLink(dir.resolve("link"), Files.createDirectory(dir.resolve("target")));
        assertUsageError(run("powercut", "--explore", "--record", link.toString(), "--verify", VERIFY, "--", "touch",
                ran.toString(), "{dir}/x"), "powercut --record " + link + ": a recording is not saved there: it is a"
                + " symbolic link");
        assertThat(ran).as("the command ran").doesNotExist();
    }

    @Test
    void theSqliteMatrixPageMustBeWritable() {
        assertUsageError(run("powercut", "sqlite", "--html", "/nonexistent-flushcheck-dir/p.html"),
                "--html: the directory of '/nonexistent-flushcheck-dir/p.html' does not exist");
    }

    @Test
    void oneWayToChooseTheCut() {
        assertUsageError(run("powercut", "--after-flushes", "3", "--at-random", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --after-flushes and --at-random are ways to choose the cut; give one");
        assertUsageError(run("powercut", "--during-flush", "3", "--sweep", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --during-flush and --sweep are ways to choose the cut; give one");
        assertUsageError(run("powercut", "--sweep", "--cuts", "3", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --sweep makes a cut at every point the command shows; it takes no --cuts");
        assertUsageError(run("powercut", "--fail-flush", "2", "--sweep", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --fail-flush cuts the power at the command's exit, after the failed flush; it takes no --sweep");
    }

    @Test
    void numbersOutOfRange() {
        assertUsageError(run("powercut", "--cuts", "0", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--cuts 0 is out of range: use 1 to 100000");
        assertUsageError(run("powercut", "--after-flushes", "0", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--after-flushes 0 is out of range: use 1 to 2147483647");
        assertUsageError(run("powercut", "--fail-flush", "0", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--fail-flush 0 is out of range: use 1 to 2147483647");
        assertUsageError(run("powercut", "--fail-flush", "1", "--errno", "EBOGUS", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--errno takes EIO, ENOSPC, EROFS, ENODATA, ETIMEDOUT, EDQUOT, not 'EBOGUS'");
        assertUsageError(run("powercut", "--seed", "x", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--seed takes a whole number, not 'x'");
        assertUsageError(run("powercut", "--size-mib", "8", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--size-mib 8 is out of range: use 16 to 65536");
        assertUsageError(run("powercut", "--timeout", "0", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--timeout 0 is out of range: use more than 0 to 86400 seconds");
        assertUsageError(run("powercut", "sqlite", "--cuts", "-1"), "--cuts -1 is out of range: use 1 to 100000");
        assertUsageError(run("powercut", "--fs", "ext4;rm", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut --fs takes a filesystem's name (ext4, xfs, btrfs), not 'ext4;rm'");
    }

    @Test
    void optionsOnlyTheBlockModelUsesAreRefusedOnTheFileModel() {
        assertUsageError(run("powercut", "--model", "file", "--fs", "xfs", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --fs applies to the block model, not to the file model; leave it out, or run as root with"
                        + " --model block");
        assertUsageError(run("powercut", "--model", "file", "--atomic-write-bytes", "512", "--fs", "ext4", "--size-mib", "64",
                        "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --atomic-write-bytes and --fs apply to the block model, not to the file model; leave them"
                        + " out, or run as root with --model block");
    }

    @Test
    void theFileModelsRulesAreRefusedOnTheBlockModelAndNamedOnce() {
        assertUsageError(run("powercut", "--model", "block", "--rules", "posix", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --rules applies to the file model, not to the block model, which has its filesystem's rules;"
                        + " leave it out, or add --model file");
        Run r = run("powercut", "--model", "file", "--rules", "ext9", "--verify", VERIFY, "--", "touch", "{dir}/x");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--rules takes journaled or posix, not 'ext9'");
    }

    @Test
    void aModelOtherThanAutoBlockOrFileIsRefusedByName() {
        assertUsageError(run("powercut", "--model", "disk", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--model takes auto, block or file, not 'disk'");
        assertUsageError(run("powercut", "sqlite", "--model", "Blocks"), "--model takes auto, block or file, not 'Blocks'");
        assertUsageError(run("powercut", "sqlite", "--model", " FILE ", "--rules", "ext9"),
                "--rules takes journaled or posix, not 'ext9'");
    }

    @Test
    void theSqliteMatrixTakesTheSameRulesWithTheSameRefusals() {
        assertUsageError(run("powercut", "sqlite", "--model", "block", "--rules", "posix"),
                "powercut sqlite: --rules applies to the file model, not to the block model, which has its filesystem's"
                        + " rules; leave it out, or add --model file");
        assertUsageError(run("powercut", "sqlite", "--model", "file", "--rules", "ext9"),
                "--rules takes journaled or posix, not 'ext9'");
    }

    @Test
    void aSizeTheFilesystemsMkfsRefusesIsRefusedBeforeAnythingRuns() {
        assertUsageError(run("powercut", "--model", "block", "--fs", "btrfs", "--size-mib", "100", "--verify", VERIFY, "--",
                        "touch", "{dir}/x"),
                "powercut --size-mib 100: btrfs needs a disk of at least 109 MiB (its mkfs refuses smaller ones)");
        assertUsageError(run("powercut", "--model", "block", "--fs", "xfs", "--size-mib", "256", "--verify", VERIFY, "--",
                        "touch", "{dir}/x"),
                "powercut --size-mib 256: xfs needs a disk of at least 300 MiB (its mkfs refuses smaller ones)");
    }

    @Test
    void nestedCommandsSayWhoseErrorItIs() {
        assertUsageError(run("powercut", "sqlite", "--bogus"), "powercut sqlite: unknown option --bogus");
        assertUsageError(run("powercut", "sqlite", "--json=yes"), "powercut sqlite: --json takes no value: '--json=yes'");
        assertUsageError(run("powercut", "--cuts", "3", "sqlite"),
                "'sqlite' after --cuts 3: the command's name comes first (flushcheck powercut sqlite [options]);"
                        + " an argument named sqlite goes after --");
    }

    @Test
    void helpDocumentsTheModelAndTheModes() {
        Run r = run("powercut", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("usage: flushcheck powercut [options] --verify 'VERIFY {dir}' -- COMMAND {dir}")
                .contains("--at-random").contains("--after-flushes=K").contains("--sweep cuts at every one of the 2F+1 points")
                .contains("the first cut then\nfalls at the command's exit")
                .contains("not firmware bugs").contains("1 some verify failed").contains("sqlite");
        Run s = run("powercut", "sqlite", "--help");
        assertThat(s.out()).contains("usage: flushcheck powercut sqlite [options]").contains("\"maxLostInOneCut\"");
    }

    @Test
    void exploringTakesEitherModelDrawsOnTheBlockModelOnlyAndTakesNoOptionThatChoosesCuts() {
        assertUsageError(run("powercut", "--model", "file", "--explore", "--draw", "10", "--verify", VERIFY, "--",
                        "touch", "{dir}/x"),
                "powercut: --draw applies to the block model, not to the file model; leave it out, or run as root"
                        + " with --model block");
        assertUsageError(run("powercut", "--model", "file", "--explore", "--max-states", "10", "--atomic-write-bytes",
                        "512", "--draw", "3", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --atomic-write-bytes and --draw apply to the block model, not to the file model; leave them"
                        + " out, or run as root with --model block");
        assertUsageError(run("powercut", "--max-states", "10", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut: --max-states bounds the states --explore checks; give --explore too");
        assertUsageError(run("powercut", "--explore", "--cuts", "3", "--after-flushes", "1", "--verify", VERIFY, "--",
                        "touch", "{dir}/x"),
                "powercut --explore checks every crash state of one run of the command; it takes no --cuts and no"
                        + " --after-flushes");
        assertUsageError(run("powercut", "--explore", "--max-states", "0", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "--max-states 0 is out of range: use 1 to 1000000");
    }

    /** {@code powercut explore} and {@code powercut replay DIR} are listed as commands, and refuse what their options refuse. */
    @Test
    void exploreAndReplayAreSubcommandsThatCheckAsTheirOptionsDo(@TempDir Path dir) {
        Run help = run("powercut", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("\ncommands:\n  explore   check every crash state of one run of a program\n"
                + "  replay    check the crash states of a kept recording\n");
        Run exploreHelp = run("powercut", "explore", "--help");
        assertThat(exploreHelp.out()).startsWith("usage: flushcheck powercut explore ")
                .contains("\n      --max-states=N ", "\n      --record=DIR ")
                .doesNotContainPattern("\n\\s+--(cuts|sweep|explore|replay|shard)=?\\S* ");
        Run replayHelp = run("powercut", "replay", "--help");
        assertThat(replayHelp.out()).startsWith("usage: flushcheck powercut replay DIR ")
                .contains("\n      --shard=I/N ", "\n      --max-states=N ")
                .doesNotContainPattern("\n\\s+--(model|record|cuts|replay)=?\\S* ");

        assertUsageError(run("powercut", "replay", "--verify", VERIFY), "powercut replay: Missing required parameter: 'DIR'");
        assertUsageError(run("powercut", "explore", "--cuts", "3", "--verify", VERIFY, "--", "touch", "{dir}/x"),
                "powercut explore: unknown option --cuts");
        assertUsageError(run("powercut", "replay", dir.toString(), "--fs", "xfs", "--verify", VERIFY),
                "powercut replay: unknown option --fs");
        String none = dir.resolve("none").toString();
        for (String[][] same : new String[][][] {
                {{"powercut", "replay", none, "--verify", VERIFY}, {"powercut", "--replay", none, "--verify", VERIFY}},
                {{"powercut", "explore", "--seed", "3", "--verify", VERIFY, "--", "touch", "{dir}/x"},
                    {"powercut", "--explore", "--seed", "3", "--verify", VERIFY, "--", "touch", "{dir}/x"}},
                {{"powercut", "explore", "--verify", VERIFY, "--", "touch", "/tmp/x"},
                    {"powercut", "--explore", "--verify", VERIFY, "--", "touch", "/tmp/x"}}}) {
            Run bySubcommand = run(same[0]);
            Run byOption = run(same[1]);
            assertThat(byOption.exit()).as("%s", byOption).isEqualTo(ExitCodes.USAGE);
            assertThat(bySubcommand.exit()).isEqualTo(byOption.exit());
            assertThat(bySubcommand.err()).isEqualTo(byOption.err());
        }
        assertUsageError(run("powercut", "--json", "explore"), "'explore' after --json: the command's name comes first"
                + " (flushcheck powercut explore [options]); an argument named explore goes after --");
    }
}
