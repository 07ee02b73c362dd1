package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.DocumentedCommand;
import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.DiskLeftovers;
import io.flushcheck.testing.MarkedProgram;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Unprivileged;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code flushcheck powercut} against real programs on real simulated disks: a settings store (a Python
 * script) that renames each value into place, honest or skipping a sync, and a verify that checks the
 * last acknowledged value survived.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutCommandTests {

    /** The command's documented exit code for a verify that failed. */
    private static final int VERIFY_FAILED = 1;

    private static final String PYTHON = PythonStore.PYTHON;
    private static final int VALUES = 4;

    @TempDir
    Path tmp;

    private Path store;
    private Path check;
    private Path acks;

    @BeforeEach
    void needs() throws IOException {
        PythonStore python = PythonStore.in(tmp);
        store = python.store();
        check = python.check();
        acks = tmp.resolve("acks");
    }


    private List<String> line(String mode, String... options) {
        List<String> args = new ArrayList<>(List.of("powercut"));
        args.addAll(List.of(options));
        args.addAll(List.of("--verify", PYTHON + " " + check + " {dir} " + acks, "--", PYTHON, store.toString(), "{dir}",
                acks.toString(), mode, String.valueOf(VALUES)));
        return args;
    }

    private static Map<String, Object> json(Run r) {
        return MiniJson.object(MiniJson.parse(r.out()));
    }

    private static List<Map<String, Object>> cuts(Map<String, Object> json) {
        List<Map<String, Object>> cuts = new ArrayList<>();
        for (Object c : MiniJson.array(json.get("cuts"))) {
            cuts.add(MiniJson.object(c));
        }
        return cuts;
    }

    @Test
    void anHonestStoreSurvivesEveryCutAtItsFlushes() {
        Run r = run(DocumentedCommand.of(PowerCutCommandTests.class, "honest-store").with("python3", PYTHON)
                .with("check.py", check).with("store.py", store).with("/tmp/acks", acks).adding("--json", "--seed", "11")
                .args());
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        Map<String, Object> json = json(r);
        assertThat(json.get("mode")).isEqualTo("at-random");
        // fsync of the file and of the directory for each value: at least two flushes each
        assertThat(((Number) json.get("flushesWithPowerOn")).longValue()).isGreaterThanOrEqualTo(2 * VALUES);
        List<Map<String, Object>> cuts = cuts(json);
        assertThat(cuts).hasSize(8).allSatisfy(c -> {
            assertThat(c.get("passed")).as("%s", c).isEqualTo(true);
            assertThat(c.get("verifyExit")).isEqualTo(0L);
        });
        assertThat(cuts.get(0).get("cutAt")).as("the first cut: at the command's exit").isEqualTo("exit");
        assertThat(cuts).as("cuts that fell inside the command, after or during one of its flushes")
                .filteredOn(c -> c.get("cutAt").equals("flush") || c.get("cutAt").equals("during"))
                .hasSizeGreaterThanOrEqualTo(4);
        assertThat(r.err()).contains("flushcheck powercut: [8/8] seed ");
        assertNothingLeft();
    }

    @Test
    void aStoreThatDoesNotSyncTheDirectoryLosesTheValueItAcknowledgedLast() {
        Run r = run(line("nodirsync", "--cuts", "2", "--after-flushes", "1000", "--seed", "5").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        assertThat(r.out()).contains("0 of 2 cuts passed the verify, 2 failed")
                .containsPattern("   1 +5 exit +\\d+ +\\d+ +\\d+  failed \\(exit 1\\): acknowledged value 4, found [3a-z ]+\n")
                .contains("cut 1 again: flushcheck powercut --cuts 1 --after-flushes 1000 --seed 5 --verify ")
                .as("the failing cut's row names the file and the sync that would have kept it, from ext4 itself")
                .containsPattern("   1 +5 exit .*\n       discarded: value is inode \\d+ \\(\\d+ bytes\\) again, not \\d+"
                        + " \\(\\d+ bytes\\): the rename or creation that replaced it not durable, no sync of the top"
                        + " directory completed after it\n");
        assertNothingLeft();
    }

    @Test
    void theFileModelPassesTheHonestStoreCatchesTheOneWithoutTheDirectorysSyncAndSaysWhichModelRan() {
        Run honest = run(line("honest", "--model", "file", "--json", "--cuts", "4", "--seed", "11").toArray(new String[0]));
        assertThat(honest.exit()).as(honest.err()).isEqualTo(0);
        assertThat(json(honest).get("model")).isEqualTo("file");
        assertThat(honest.err()).startsWith("flushcheck powercut: the file model: files over FUSE, journaled rules, as"
                + " ext4, xfs and btrfs: a sync of anything commits every earlier name change and size change, and"
                + " the synced file's data\n");
        Run posix = run(line("honest", "--model", "file", "--rules", "posix", "--cuts", "1", "--seed", "11")
                .toArray(new String[0]));
        assertThat(posix.exit()).as(posix.err()).isEqualTo(0);
        assertThat(posix.err()).startsWith("flushcheck powercut: the file model: files over FUSE, POSIX rules: data"
                + " durable at its file's fsync and names at their directory's\n");
        Run r = run(line("nodirsync", "--model", "file", "--cuts", "2", "--after-flushes", "1000", "--seed", "5")
                .toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        assertThat(r.out()).startsWith("2 cuts on the file model (256 MiB), seed 5, ")
                .contains("0 of 2 cuts passed the verify, 2 failed")
                .contains("cut 1 again: flushcheck powercut --model file --cuts 1 --after-flushes 1000 --seed 5 --verify ")
                .as("the failing cut's row says what it discarded: the rename no sync made durable, no data")
                .containsPattern("  names  verify\n")
                .containsPattern("   1 +5 exit +\\d+ +0 +0 +1  failed .*\n       discarded: rename value\\.tmp -> value, no sync"
                        + " after it\n");
        assertNothingLeft();
    }

    @Test
    void underThePosixRulesTheJsonNamesThemAndACutSaysWhatOnlyThoseRulesLost() {
        Run r = run(line("nodirsync", "--model", "file", "--rules", "posix", "--json", "--cuts", "1", "--after-flushes",
                "1000", "--seed", "5").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        Map<String, Object> json = json(r);
        assertThat(json.get("rules")).isEqualTo("posix");
        assertThat((String) cuts(json).get(0).get("lost")).as("%s", json)
                .contains("the POSIX rules lost", "ext4, xfs and btrfs", "would have kept");
        assertNothingLeft();
    }

    @Test
    void onTheFileModelAStoreThatNeverSyncsSaysWhatEachFailingCutDiscardedInTheTextAndAllOfItInTheJson() {
        Run text = run(line("nosync", "--model", "file", "--cuts", "1", "--after-flushes", "1000", "--seed", "5")
                .toArray(new String[0]));
        assertThat(text.exit()).as(text.err()).isEqualTo(VERIFY_FAILED);
        assertThat(text.out()).as(text.out())
                .containsPattern("   1 +5 exit .*\n       discarded: .*\n       discarded: .*\n       discarded: .*"
                        + " \\(and \\d+ more, listed with --json\\)\n")
                .containsPattern("\n       discarded: create value.tmp, no sync after it[\n ]")
                .contains("\n       discarded: rename value.tmp -> value, no sync after it\n");
        Run r = run(line("nosync", "--model", "file", "--json", "--cuts", "1", "--after-flushes", "1000", "--seed", "5")
                .toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        Map<String, Object> cut = cuts(json(r)).get(0);
        List<Object> discarded = MiniJson.array(cut.get("discarded"));
        // Each value's file made, written and renamed without a sync; the seed keeps some, the last rename is lost.
        assertThat(discarded).as("%s", cut).hasSizeGreaterThan(3)
                .contains("create value.tmp, no sync after it", "8 bytes at offset 0 of value.tmp, file not synced")
                .endsWith("rename value.tmp -> value, no sync after it");
        assertNothingLeft();
    }

    @Test
    void aFailedFlushTellsTheStoreThatStopsFromTheOneThatCarriesOnAcknowledging() {
        for (String model : List.of("block", "file")) {
            Run honest = run(line("honest", "--model", model, "--json", "--fail-flush", "3", "--cuts", "2", "--seed", "9")
                    .toArray(new String[0]));
            assertThat(honest.exit()).as("%s: %s", model, honest.err()).isEqualTo(0);
            Map<String, Object> json = json(honest);
            assertThat(json.get("mode")).isEqualTo("fail-flush");
            assertThat(json.get("failFlush")).isEqualTo(3L);
            assertThat(cuts(json)).allSatisfy(c -> {
                assertThat(c.get("cutAt")).isEqualTo("exit");
                assertThat(c.get("commandExit")).as("the store stopped at the failed fsync").isNotEqualTo(0L);
            });

            Run carriesOn = run(line("carryon", "--model", model, "--fail-flush", "3", "--cuts", "2", "--seed", "9")
                    .toArray(new String[0]));
            assertThat(carriesOn.exit()).as("%s: %s", model, carriesOn.err()).isEqualTo(VERIFY_FAILED);
            assertThat(carriesOn.out()).contains("the command's flush 3 failing with EIO, and every one after it, the power cut at its exit")
                    // it acknowledged a value whose sync failed (on ext4 the aborted journal then stops it at EROFS)
                    .containsPattern("failed \\(exit 1\\): acknowledged value \\d, found ")
                    // (a cut at the exit keeps a seeded part of what was never synced: some cuts may spare it)
                    .contains(" again: flushcheck powercut --model " + model + " --cuts 1 --fail-flush 3 --seed ");
        }
        assertThat(run(line("honest", "--fail-once").toArray(new String[0])).err())
                .contains("--fail-once says how --fail-flush K fails");
        assertNothingLeft();
    }

    @Test
    void theErrnoOfAFailedFlushIsChosenReportedAndRepeated() {
        Run r = run(line("carryon", "--model", "file", "--json", "--fail-flush", "2", "--errno", "ENOSPC", "--cuts", "2",
                "--seed", "4").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        Map<String, Object> json = json(r);
        assertThat(json.get("errno")).isEqualTo("ENOSPC");
        assertThat(cuts(json)).anySatisfy(c -> assertThat(String.valueOf(c.get("repeat")))
                .contains("--cuts 1 --fail-flush 2 --errno ENOSPC --seed "));
        // Once, on the file model: the next sync that works makes the store's changes durable, and it passes.
        Run once = run(line("carryon", "--model", "file", "--fail-flush", "2", "--errno", "ENOSPC", "--fail-once",
                "--cuts", "1", "--seed", "4").toArray(new String[0]));
        assertThat(once.out()).contains("the command's flush 2 failing with ENOSPC once");
        assertThat(run(line("honest", "--errno", "ENOSPC").toArray(new String[0])).err())
                .contains("--errno says how --fail-flush K fails");
        assertThat(run(line("honest", "--fail-flush", "2", "--errno", "EFOO").toArray(new String[0])).err())
                .contains("EFOO");
        assertNothingLeft();
    }

    @Test
    void withoutRootTheCommandTakesTheFileModelAndCatchesTheSameStore() throws IOException {
        Path scratch = Files.createDirectories(tmp.resolve("unprivileged"));
        Path dir = Unprivileged.writableDir(scratch);
        Path storeHere = Files.copy(store, dir.resolve("store.py"));
        Path checkHere = Files.copy(check, dir.resolve("check.py"));
        Path acksHere = dir.resolve("acks");
        List<String> args = List.of("powercut", "--cuts", "2", "--after-flushes", "1000", "--seed", "5", "--verify",
                PYTHON + " " + checkHere + " {dir} " + acksHere, "--", PYTHON, storeHere.toString(), "{dir}",
                acksHere.toString(), "nodirsync", String.valueOf(VALUES));
        ChildJvm.Result r = ChildJvm.run(Unprivileged.command(scratch, "io.flushcheck.cli.Main", args), 300);
        assertThat(r.exit()).as("%s", r).isEqualTo(VERIFY_FAILED);
        if (Requirements.isRoot()) {
            assertThat(r.stderr()).as("%s", r).startsWith("flushcheck powercut: the file model (auto: not root, which the"
                    + " block model needs): ");
        }
        assertThat(r.stdout()).as("%s", r).contains("0 of 2 cuts passed the verify")
                .contains("cut 1 again: flushcheck powercut --model file --cuts 1 ");
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(scratch.toString());
    }

    @Test
    void aStoreThatNeverSyncsIsCaughtAtRandomAndItsRepeatLineFailsAgain() {
        Run r = run(line("nosync", "--json", "--cuts", "3", "--seed", "3").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        Map<String, Object> json = json(r);
        // Nothing it acknowledges is durable: a cut at its exit always loses the last value. (Only a flush
        // of the kernel's own during its run, which a cut could fall on, may spare it.)
        List<Map<String, Object>> failed = cuts(json).stream().filter(c -> c.get("passed").equals(false)).toList();
        assertThat(failed).isNotEmpty();
        assertThat(((Number) json.get("failed")).intValue()).isEqualTo(failed.size());
        Map<String, Object> first = failed.get(0);
        assertThat((String) first.get("verifyOutput")).startsWith("acknowledged value 4, found ");
        String repeat = (String) first.get("repeat");
        assertThat(repeat).startsWith("flushcheck powercut --cuts 1 --after-flushes " + first.get("afterFlushes")
                + " --seed " + first.get("seed") + " ");

        List<String> again = new ArrayList<>(List.of("powercut", "--json", "--cuts", "1", "--after-flushes",
                String.valueOf(first.get("afterFlushes")), "--seed", String.valueOf(first.get("seed"))));
        again.addAll(line("nosync").subList(1, line("nosync").size()));
        Run r2 = run(again.toArray(new String[0]));
        assertThat(r2.exit()).as(r2.err()).isEqualTo(VERIFY_FAILED);
        Map<String, Object> repeated = cuts(json(r2)).get(0);
        for (String field : List.of("seed", "afterFlushes", "cutAt", "passed")) {
            assertThat(repeated.get(field)).as(field).isEqualTo(first.get(field));
        }
        assertNothingLeft();
    }

    @Test
    void theCommandsWholeWorldDiesWithThePower() throws Exception {
        // A child in the background, and a loop that syncs until the power goes: the cut must end both.
        MarkedProgram sleeper = MarkedProgram.copy(Path.of("/bin/sleep"), Files.createDirectory(tmp.resolve("bin")));
        String script = sleeper.path() + " 600 & while :; do echo x >> \"$1\"/log; sync \"$1\"/log; done";
        long t0 = System.nanoTime();
        Run r = run("powercut", "--json", "--cuts", "1", "--after-flushes", "3", "--timeout", "20",
                "--verify", "test -s {dir}/log", "--", "sh", "-c", script, "sh", "{dir}");
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(seconds).as("seconds to the end of a command that syncs until its power goes").isLessThan(15);
        Map<String, Object> cut = cuts(json(r)).get(0);
        assertThat(cut.get("cutAt")).isEqualTo("flush");
        assertThat(cut.get("flushes")).isEqualTo(3L);
        assertThat(sleeper.processes()).as("the background child, not even a zombie").isEmpty();
        assertNothingLeft();
    }

    @Test
    void aRecordOverwrittenInPlaceTearsOnlyWhereTheDriveWritesLessThanFourKibAtomically() {
        // Version a synced, then version b written straight to the drive's cache (O_DIRECT) and the power cut at
        // the exit: the record must come back all a or all b. 512 MiB: mke2fs gives smaller filesystems 1 KiB blocks.
        String command = "head -c 4096 /dev/zero | tr '\\0' a > {dir}/record && sync {dir}/record"
                + " && head -c 4096 /dev/zero | tr '\\0' b | dd of={dir}/record bs=4096 count=1 oflag=direct conv=notrunc 2>/dev/null";
        String verify = "test \"$(tr -d a < {dir}/record | wc -c)\" = 0 || test \"$(tr -d b < {dir}/record | wc -c)\" = 0";
        Run whole = run("powercut", "--json", "--size-mib", "512", "--cuts", "4", "--after-flushes", "1000", "--seed", "3",
                "--verify", verify, "--", "sh", "-c", command);
        assertThat(whole.exit()).as(whole.err()).isZero();
        Run torn = run("powercut", "--json", "--size-mib", "512", "--atomic-write-bytes", "512", "--cuts", "4",
                "--after-flushes", "1000", "--seed", "3", "--verify", verify, "--", "sh", "-c", command);
        assertThat(torn.exit()).as(torn.err()).isEqualTo(VERIFY_FAILED);
        Map<String, Object> json = json(torn);
        assertThat(json.get("atomicWriteBytes")).isEqualTo(512L);
        Map<String, Object> failed = cuts(json).stream().filter(c -> c.get("passed").equals(false)).findFirst().orElseThrow();
        assertThat(failed.get("cutAt")).isEqualTo("exit");
        assertThat((String) failed.get("repeat")).contains("--atomic-write-bytes 512");
        assertThat(run("powercut", "--atomic-write-bytes", "1000", "--verify", verify, "--", "sh", "-c", command).err())
                .contains("--atomic-write-bytes takes 512, 1024, 2048 or 4096, not 1000");
        assertNothingLeft();
    }

    /**
     * A store that acknowledges a value once its log is synced and only then renames it into place, unsynced:
     * the state in which the acknowledgement is out and the next sync has not come lies between two flushes,
     * which a cut after a flush never reaches; the cut at the exit and those during a flush do.
     */
    @Test
    void aStoreThatAcknowledgesBeforeSyncingWhatGoesWithItIsCaughtAtRandomWithinEightCuts() {
        Run r = run(line("ackfirst", "--json", "--cuts", "8", "--seed", "17").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        List<Map<String, Object>> failed = cuts(json(r)).stream().filter(c -> c.get("passed").equals(false)).toList();
        assertThat(failed).as("cuts that lost the value acknowledged last").isNotEmpty()
                .anySatisfy(c -> assertThat(c.get("cutAt")).isIn("exit", "during"))
                .allSatisfy(c -> assertThat((String) c.get("verifyOutput")).matches("acknowledged value \\d, found .*"));
        assertNothingLeft();
    }

    @Test
    void aSweepCutsAtTheExitAndAfterAndDuringEveryFlushAndSaysHowLongItTook() {
        Run r = run(line("ackfirst", "--json", "--sweep", "--seed", "17").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(VERIFY_FAILED);
        Map<String, Object> json = json(r);
        long f = ((Number) json.get("flushesWithPowerOn")).longValue();
        List<Map<String, Object>> cuts = cuts(json);
        assertThat(json.get("mode")).isEqualTo("sweep");
        assertThat(cuts).hasSize((int) (2 * f + 1));
        assertThat(cuts.get(0).get("cutAt")).isEqualTo("exit");
        for (long k = 1; k <= f; k++) {
            assertThat(cuts.get((int) (2 * k - 1))).as("cut %d", 2 * k).containsEntry("cutAt", "flush")
                    .containsEntry("afterFlushes", k);
            assertThat(cuts.get((int) (2 * k)).get("afterFlushes")).as("cut %d", 2 * k + 1).isEqualTo(k);
        }
        assertThat(cuts).filteredOn(c -> c.get("cutAt").equals("during")).isNotEmpty();
        assertThat(r.err()).containsPattern("the sweep makes " + (2 * f + 1) + " cuts \\(the exit, after and during each"
                + " flush\\), about \\d+ s").containsPattern("the sweep's " + (2 * f + 1) + " cuts took \\d+ s");
        assertNothingLeft();
    }

    @Test
    void anXfsDiskIsMadeAtXfssOwnDefaultSize() {
        Requirements.requireCommand("mkfs.xfs", "xfsprogs");
        Run r = run("powercut", "--fs", "xfs", "--json", "--cuts", "1", "--after-flushes", "1", "--verify", "test -d {dir}",
                "--", "sh", "-c", "echo x > \"$1\"/f && sync \"$1\"/f", "sh", "{dir}");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(json(r).get("sizeMiB")).isEqualTo(512L);
        assertNothingLeft();
    }

    /** No world log of this JVM's left in the temporary directory: each goes when its program's run ends. */
    @Test
    void theProgramsLogsAreGoneAfterTheRun() throws IOException {
        Run r = run(line("honest", "--cuts", "1", "--after-flushes", "2").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        try (var s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(s.map(p -> p.getFileName().toString()))
                    .noneMatch(n -> n.startsWith("flushcheck-world-" + ProcessHandle.current().pid() + "-"));
        }
    }

    /** No disk of this JVM's left: its work directory gone, nothing of it mounted. */
    static void assertNothingLeft() {
        // A mount left keeps its work directory, whose marker names this JVM.
        assertThat(DiskLeftovers.ofThisJvm()).as("work directories of this JVM").isEmpty();
    }
}
