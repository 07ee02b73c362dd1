package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.DocumentedCommand;
import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flushcheck powercut damage} on the file model, with real programs: a shell store that appends records to a
 * synced log, with a CRC on each line or without, read back by a shell verify that checks the CRCs or not; and sqlite3
 * in WAL mode, killed with its WAL not checkpointed, read back by sqlite3. Each check's outcome is told apart from
 * what VERIFY wrote to $FLUSHCHECK_READ and what the command wrote to $FLUSHCHECK_ACKS.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
class PowerCutDamageTests {

    private static final Pattern CHECK = Pattern.compile("check (\\d+): ([^:]+): ([a-z ,]+): ");

    @TempDir
    Path tmp;

    private Path store;
    private Path read;

    @BeforeEach
    void needs() throws IOException {
        Requirements.requireFileModel();
        for (String tool : new String[] {"setsid", "setpriv", "unshare", "cksum"}) {
            Requirements.requireCommand(tool, "util-linux, coreutils");
        }
        store = copy("records.sh");
        read = copy("records-read.sh");
    }

    private Path copy(String name) throws IOException {
        try (InputStream in = PowerCutDamageTests.class.getResourceAsStream(name)) {
            Path p = tmp.resolve(name);
            Files.write(p, in.readAllBytes());
            return p;
        }
    }

    /** Each check's line: its number, block and outcome. */
    private record Line(int number, String block, String outcome) {
    }

    private static List<Line> lines(String out) {
        List<Line> lines = new ArrayList<>();
        for (String l : out.split("\n")) {
            Matcher m = CHECK.matcher(l);
            if (m.lookingAt()) {
                lines.add(new Line(Integer.parseInt(m.group(1)), m.group(2), m.group(3)));
            }
        }
        return lines;
    }

    @Test
    void aStoreWithACrcOnEachRecordDetectsEveryDamagedBlockOfItsLog() {
        Run r = run(DocumentedCommand.of(PowerCutDamageTests.class, "checksummed")
                .with("records.sh", store).with("records-read.sh", read).args());
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        List<Line> lines = lines(r.out());
        assertThat(lines).hasSize(13);
        assertThat(lines.get(0)).isEqualTo(new Line(0, "nothing damaged", "intact"));
        assertThat(lines.subList(1, 13)).allSatisfy(l -> {
            assertThat(l.block()).matches("(bit rot|zeroed) in log bytes \\d+\\+512(, seed -?\\d+)?");
            assertThat(l.outcome()).isEqualTo("detected");
        });
        assertThat(lines.subList(1, 13)).extracting(Line::block).anyMatch(b -> b.startsWith("bit rot"))
                .anyMatch(b -> b.startsWith("zeroed")).doesNotHaveDuplicates();
        assertThat(r.out()).contains("the reader returned 20 records, 20 were acknowledged, all of them intact")
                .containsPattern("(bit \\d of byte \\d+ of log flipped|bytes \\d+\\+\\d+ of log zeroed): VERIFY exited 1"
                        + " \\(20 records were acknowledged\\): line \\d+ of the log fails its CRC\n")
                .contains("13 checks: 1 intact, 12 detected\n")
                .doesNotContain(" again: ");
        assertThat(r.err()).startsWith("flushcheck powercut damage: the file model: files over FUSE")
                .contains("flushcheck powercut damage: check 12/12: ");
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void aStoreWithoutChecksReturnsEachDamagedBlockAsSilentCorruptionAndOneRepeatsAlone() throws Exception {
        Path page = tmp.resolve("damage.html");
        Run r = run("powercut", "damage", "--model", "file", "--json", "--html", page.toString(), "--blocks", "6",
                "--block-bytes", "512", "--verify", "sh " + read + " {dir} plain", "--", "sh", store.toString(), "{dir}",
                "plain", "20");
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        String html = Files.readString(page);
        assertThat(html).contains("Damaged blocks after a power cut").contains("<p class=\"note\">1 intact, 6 silent"
                + " corruption: silent corruption and silent loss fail the run</p>")
                .contains("<tr class=\"intact\"><td>0</td><td>nothing damaged</td><td>intact</td>");
        assertThat(html.split("<tr class=\"silent-corruption\">", -1)).hasSize(7);
        Map<String, Object> doc = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(doc.get("model")).isEqualTo("file");
        assertThat(number(doc, "blocks")).isEqualTo(6);
        assertThat(number(doc, "silent")).isEqualTo(6);
        assertThat(doc.get("outcomes")).isEqualTo(Map.of("intact", 1L, "silent-corruption", 6L));
        List<Map<String, Object>> checks = checks(doc);
        assertThat(checks).hasSize(7);
        assertThat(checks.get(0).get("block")).isNull();
        assertThat(number(checks.get(0), "returned")).isEqualTo(20);
        Map<String, Object> one = null;
        for (Map<String, Object> c : checks.subList(1, 7)) {
            assertThat(c.get("outcome")).isEqualTo("silent-corruption");
            assertThat(c.get("file")).isEqualTo("log");
            assertThat(number(c, "length")).isEqualTo(512);
            assertThat((String) c.get("explanation")).startsWith(c.get("done") + ": the reader returned ")
                    .contains(" returned never acknowledged (").endsWith("; no error");
            assertThat((String) c.get("repeat")).contains(" --block '" + c.get("block") + "' ");
            if (c.get("kind").equals("bit-rot")) {
                one = c;
            }
        }
        assertThat(one).as("a bit rot check among %s", checks).isNotNull();

        String block = (String) one.get("block");
        String verify = "sh " + read + " {dir} plain";
        assertThat(one.get("repeat")).isEqualTo("flushcheck powercut damage --model file --seed 0 --block '" + block
                + "' --verify '" + verify + "' -- sh " + store + " '{dir}' plain 20");
        Run again = run("powercut", "damage", "--model", "file", "--seed", "0", "--block", block, "--verify", verify, "--",
                "sh", store.toString(), "{dir}", "plain", "20");
        assertThat(again.exit()).as(again.err()).isEqualTo(1);
        List<Line> lines = lines(again.out());
        assertThat(lines).containsExactly(new Line(1, block, "silent corruption"));
        assertThat(again.out()).contains(one.get("done") + ": the reader returned ")
                .contains("1 checks: 1 silent corruption\ncheck 1 again: " + one.get("repeat") + "\n");
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void aStoreWithACrcOnEachRecordDetectsEveryLostAndMisdirectedWriteArmedBeforeItRuns() throws Exception {
        Run r = run(DocumentedCommand.of(PowerCutDamageTests.class, "lying-writes").adding("--json")
                .with("records.sh", store).with("records-read.sh", read).args());
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        Map<String, Object> doc = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(doc.get("kinds")).isEqualTo(List.of("lost-write", "misdirected-write"));
        List<Map<String, Object>> checks = checks(doc);
        assertThat(checks).hasSize(7);
        for (Map<String, Object> c : checks.subList(1, 7)) {
            String block = (String) c.get("block");
            assertThat(block).matches("lost write in log bytes \\d+\\+512|misdirected write in log bytes \\d+\\+512 to bytes"
                    + " \\d+");
            assertThat(c.get("kind")).isEqualTo(block.startsWith("lost") ? "lost-write" : "misdirected-write");
            if (block.startsWith("misdirected")) {
                assertThat(number(c, "target")).isEqualTo(Long.parseLong(block.replaceFirst(".* to bytes ", "")));
            } else {
                assertThat(c).doesNotContainKey("target");
            }
            assertThat((String) c.get("done")).as(c.toString()).matches("\\d+ writes? to log bytes " + c.get("offset")
                    + "\\+512 acknowledged and (lost|made at bytes \\d+\\+512 of log instead)");
            assertThat(c.get("outcome")).as(c.toString()).isEqualTo("detected");
        }
        assertThat(checks.subList(1, 7)).extracting(c -> c.get("kind")).contains("lost-write", "misdirected-write");
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void aLostWriteToAStoreWithoutChecksIsSilentAndABlockNoWriteReachesIsNotDone() {
        String verify = "sh " + read + " {dir} plain";
        List<String> store = List.of("--", "sh", this.store.toString(), "{dir}", "plain", "20");
        Run lost = run(args("--block", "lost write in log bytes 512+512", "--verify", verify, store));
        assertThat(lost.exit()).as(lost.err()).isEqualTo(1);
        assertThat(lost.out()).containsPattern("check 1: lost write in log bytes 512\\+512: silent (corruption|loss): \\d+"
                + " writes to log bytes 512\\+512 acknowledged and lost: the reader returned ");
        Run none = run(args("--block", "lost write in log bytes 65536+512", "--verify", verify, store));
        assertThat(none.exit()).as(none.err()).isEqualTo(0);
        assertThat(none.out()).contains("check 1: lost write in log bytes 65536+512: not done: no write reached log bytes"
                + " 65536+512 in this run: nothing damaged, VERIFY not run\n");
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * A bad sector fails VERIFY's read of the log. A transient error fails one read, the kernel's read-ahead, which
     * Linux reads again page by page: VERIFY reads every record, and the check says one read failed.
     */
    @Test
    void aBadSectorOnTheSurvivorIsDetectedByAStoreThatReadsItsLogAndATransientErrorIsReadAgainByTheKernel() {
        Run r = run(args("--json", "--kinds", "bad-sector,transient-read", "--block-bytes", "512", "--blocks", "4",
                "--verify", "sh " + read + " {dir} checksummed", List.of("--", "sh", store.toString(), "{dir}",
                        "checksummed", "20")));
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        List<Map<String, Object>> checks = checks(MiniJson.object(MiniJson.parse(r.out())));
        assertThat(checks).hasSize(5);
        assertThat(checks.subList(1, 5)).extracting(c -> c.get("kind")).contains("bad-sector", "transient-read");
        for (Map<String, Object> c : checks.subList(1, 5)) {
            String bytes = "log bytes " + c.get("offset") + "+512";
            if ("bad-sector".equals(c.get("kind"))) {
                assertThat((String) c.get("done")).as(c.toString()).matches("every read of " + bytes.replace("+", "\\+")
                        + " fails with EIO until rewritten; [1-9]\\d* reads? failed");
                assertThat(c.get("outcome")).as(c.toString()).isEqualTo("detected");
            } else {
                assertThat(c.get("done")).as(c.toString()).isEqualTo("the first read of " + bytes + " that reaches the"
                        + " drive fails with EIO; 1 read failed");
                assertThat(c.get("outcome")).as(c.toString()).isEqualTo("intact");
            }
        }
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void sqliteInWalModeLosesTheCommitOfADamagedFrameAndEveryLaterOneWithoutAnError() throws Exception {
        Requirements.requireCommand("sqlite3", "sqlite3");
        Path wal = copy("sqlite-wal.sh");
        Path select = copy("sqlite-read.sh");
        Run r = run("powercut", "damage", "--model", "file", "--json", "--blocks", "10", "--verify", "sh " + select + " {dir}",
                "--", "sh", wal.toString(), "{dir}", "30");
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        List<Map<String, Object>> checks = checks(MiniJson.object(MiniJson.parse(r.out())));
        assertThat(checks.get(0).get("outcome")).as(r.out()).isEqualTo("intact");
        assertThat(number(checks.get(0), "acknowledged")).isEqualTo(30);
        Pattern flipped = Pattern.compile("bit \\d of byte (\\d+) of db-wal flipped");
        Pattern zeroed = Pattern.compile("bytes (\\d+)\\+\\d+ of db-wal zeroed");
        int wals = 0;
        for (Map<String, Object> c : checks) {
            if (!"db-wal".equals(c.get("file"))) {
                continue;
            }
            wals++;
            Matcher m = flipped.matcher((String) c.get("done"));
            Matcher z = zeroed.matcher((String) c.get("done"));
            assertThat(m.matches() || z.matches()).as(c.toString()).isTrue();
            long first = Long.parseLong(m.matches() ? m.group(1) : z.group(1));
            // The WAL's 32-byte header, then a frame of 24 + 4096 bytes per commit: the frame the damage starts in
            // ends the log, and the commits before it are what SQLite returns.
            long kept = first < 32 ? 0 : (first - 32) / (24 + 4096);
            assertThat(c.get("outcome")).as(c.toString()).isEqualTo("silent-loss");
            assertThat(number(c, "returned")).as(c.toString()).isEqualTo(kept);
            assertThat((String) c.get("explanation")).as(c.toString()).contains("the reader returned " + kept
                    + " records, 30 were acknowledged; " + (30 - kept) + " acknowledged missing (\"row " + (kept + 1) + "\"");
        }
        assertThat(wals).as("checks of db-wal among %s", checks).isGreaterThanOrEqualTo(3);
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void aVerifyThatReadsNothingBackPassedOneASignalEndsCrashedOneThatSleepsHungAndAnAbsentFileIsNotDone() {
        String block = "zeroed in log bytes 0+512";
        List<String> store = List.of("--", "sh", this.store.toString(), "{dir}", "plain", "4");
        Run passed = run(args("--block", block, "--verify", "sh " + read + " {dir} ignore", store));
        assertThat(passed.exit()).as(passed.err()).isEqualTo(0);
        assertThat(passed.out()).contains("check 1: zeroed in log bytes 0+512: passed, nothing read back: bytes 0+512 of log"
                + " zeroed: VERIFY exited 0 and wrote nothing to $FLUSHCHECK_READ (4 records were acknowledged): without"
                + " the records it read, intact and silent loss or corruption cannot be told apart\n");
        Run crashed = run(args("--block", block, "--verify", "sh " + read + " {dir} crash", store));
        assertThat(crashed.exit()).as(crashed.err()).isEqualTo(0);
        assertThat(crashed.out()).contains("check 1: zeroed in log bytes 0+512: crashed: bytes 0+512 of log zeroed: VERIFY"
                + " was ended by signal 11 (SIGSEGV) (exit 139; 4 records were acknowledged)").contains("check 1 again: ");
        Run hung = run(args("--timeout", "3", "--block", block, "--verify", "sh " + read + " {dir} hang", store));
        assertThat(hung.exit()).as(hung.err()).isEqualTo(0);
        assertThat(hung.out()).contains("check 1: zeroed in log bytes 0+512: hung: bytes 0+512 of log zeroed: VERIFY did not"
                + " end in 3 s (4 records were acknowledged)").contains("1 checks: 1 hung\n");
        Run failing = run(args("--block", block, "--verify", "sh " + read + " {dir} plain", "--", "sh", "-c",
                "sh \"$1\" \"$2\" plain 4; echo giving up; exit 3", "store", this.store.toString(), "{dir}"));
        assertThat(failing.exit()).as(failing.err()).isEqualTo(1);
        assertThat(failing.out()).containsPattern("check 1: zeroed in log bytes 0\\+512: silent corruption: bytes 0\\+512 of"
                + " log zeroed: [^\n]*; no error \\(the command exited 3 in this check's run: giving up\\)\n");
        Run absent = run(args("--block", "bit rot in journal bytes 0+512, seed 3", "--verify", "sh " + read + " {dir} plain",
                store));
        assertThat(absent.exit()).as(absent.err()).isEqualTo(0);
        assertThat(absent.out()).contains("check 1: bit rot in journal bytes 0+512, seed 3: not done: journal is not a file"
                + " on this survivor: nothing damaged, VERIFY not run\n");
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void onTheBlockModelBtrfsFailsTheReadOfEachDamagedBlockWhereExt4ReturnsItWrong() {
        Mounts.requireMountTools();
        Requirements.requireCommand("mkfs.btrfs", "btrfs-progs");
        String[] store400 = {"--verify", "sh " + read + " {dir} plain", "--", "sh", store.toString(), "{dir}", "plain", "400"};
        Run btrfs = run(concat(new String[] {"powercut", "damage", "--model", "block", "--fs", "btrfs", "--blocks", "4"},
                store400));
        assertThat(btrfs.exit()).as(btrfs.out() + btrfs.err()).isEqualTo(0);
        List<Line> checked = lines(btrfs.out());
        assertThat(checked).hasSize(5);
        assertThat(checked.subList(1, 5)).extracting(Line::outcome).containsOnly("detected");
        assertThat(btrfs.out()).containsPattern("of log flipped \\(drive byte \\d+\\): VERIFY exited");
        Run ext4 = run(concat(new String[] {"powercut", "damage", "--model", "block", "--fs", "ext4", "--blocks", "4"},
                store400));
        assertThat(ext4.exit()).as(ext4.out() + ext4.err()).isEqualTo(1);
        assertThat(lines(ext4.out()).subList(1, 5)).extracting(Line::outcome).containsOnly("silent corruption");
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * On ext4 each lost write is armed where the listing run left the block on the drive (every run placing a file's
     * blocks alike), and the store's CRCs detect it.
     */
    @Test
    void onExt4ALostWriteIsArmedWhereTheListingRunLeftTheBlockAndAStoreWithACrcDetectsIt() {
        Mounts.requireMountTools();
        Run r = run("powercut", "damage", "--model", "block", "--json", "--kinds", "lost-write", "--block-bytes", "512",
                "--blocks", "3", "--verify", "sh " + read + " {dir} checksummed", "--", "sh", store.toString(), "{dir}",
                "checksummed", "20");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        List<Map<String, Object>> checks = checks(MiniJson.object(MiniJson.parse(r.out())));
        assertThat(checks).hasSize(4);
        for (Map<String, Object> c : checks.subList(1, 4)) {
            assertThat((String) c.get("done")).as(c.toString()).matches("\\d+ writes? to log bytes " + c.get("offset")
                    + "\\+512 acknowledged and lost \\(drive bytes [\\d+, ]+\\)");
            assertThat(c.get("outcome")).as(c.toString()).isEqualTo("detected");
        }
        PowerCutCommandTests.assertNothingLeft();
    }

    /** A block named alone on the block model: a listing run first finds its place; without checks the loss is silent. */
    @Test
    void onExt4ALostWriteToAStoreWithoutChecksIsSilentLoss() {
        Mounts.requireMountTools();
        Run r = run("powercut", "damage", "--model", "block", "--block", "lost write in log bytes 512+512", "--verify",
                "sh " + read + " {dir} plain", "--", "sh", store.toString(), "{dir}", "plain", "20");
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).containsPattern("check 1: lost write in log bytes 512\\+512: silent (corruption|loss): \\d+"
                + " writes? to log bytes 512\\+512 acknowledged and lost \\(drive bytes \\d+\\+512\\): the reader returned ");
        PowerCutCommandTests.assertNothingLeft();
    }

    /** A block named alone whose listing run fails: the check is not done, saying why the listing run failed. */
    @Test
    void aLyingWriteWhoseListingRunFailsIsNotDoneAndSaysWhy() {
        Mounts.requireMountTools();
        Run r = run("powercut", "damage", "--model", "block", "--block", "lost write in log bytes 0+512", "--verify",
                "true {dir}", "--", "sh", "-c", "echo 1 > \"$1\"/log; rm \"$FLUSHCHECK_ACKS\"", "sh", "{dir}");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("check 1: lost write in log bytes 0+512: not done: not armed: the listing run, cut"
                + " at COMMAND's exit to find where the block lies on the drive, failed: the command removed its"
                + " $FLUSHCHECK_ACKS file ");
        PowerCutCommandTests.assertNothingLeft();
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void aBlockReachedThroughASymbolicLinkOnTheSurvivorIsNotDamaged() {
        // The file model keeps no symbolic links: a filesystem's survivor, on the block model, does.
        Mounts.requireMountTools();
        Run linked = run("powercut", "damage", "--model", "block", "--block", "zeroed in up/log bytes 0+512", "--verify",
                "sh " + read + " {dir} plain", "--", "sh", "-c", "sh \"$1\" \"$2\" plain 4 && ln -s . \"$2/up\" && sync",
                "store", store.toString(), "{dir}");
        assertThat(linked.exit()).as(linked.err()).isEqualTo(0);
        assertThat(linked.out()).contains("check 1: zeroed in up/log bytes 0+512: not done: up/log is reached through the"
                + " symbolic link up on this survivor, which is not followed: nothing damaged, VERIFY not run\n");
        PowerCutCommandTests.assertNothingLeft();
    }

    private static long number(Map<String, Object> json, String key) {
        return ((Number) json.get(key)).longValue();
    }

    private static List<Map<String, Object>> checks(Map<String, Object> doc) {
        List<Map<String, Object>> checks = new ArrayList<>();
        for (Object c : MiniJson.array(doc.get("checks"))) {
            checks.add(MiniJson.object(c));
        }
        return checks;
    }

    private static String[] args(Object... parts) {
        List<String> args = new ArrayList<>(List.of("powercut", "damage", "--model", "file"));
        for (Object p : parts) {
            if (p instanceof List<?> l) {
                l.forEach(o -> args.add(o.toString()));
            } else {
                args.add(p.toString());
            }
        }
        return args.toArray(String[]::new);
    }

    @Test
    void badUsageIsRefusedBeforeAnythingRuns() {
        String verify = "sh " + read + " {dir} plain";
        Run help = run("powercut", "damage", "--help");
        assertThat(help.exit()).as(help.err()).isEqualTo(0);
        assertThat(help.out()).startsWith("usage: flushcheck powercut damage [--blocks N]")
                .contains("$FLUSHCHECK_READ").contains("--block-bytes=B").contains("exit codes: 0 no check was silent");
        assertThat(run("powercut", "damage", "--model", "file", "--verify", verify, "sh", "x", "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("powercut damage: put the command after --"))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--verify", "true", "--", "sh", "x", "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("--verify must name the survivor's directory as {dir}"))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--verify", verify, "--", "sh", "x"))
                .satisfies(r -> assertThat(r.err()).contains("the command must name its data directory as {dir}"))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--block", "zeroed in log bytes 0+512", "--blocks", "3",
                "--verify", verify, "--", "sh", "x", "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("--block runs the one check it names; it takes no --blocks"))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--block", "rotten in log", "--verify", verify, "--", "sh",
                "x", "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("--block: not a damaged block: \"rotten in log\""))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--kinds", "zeroed,zeroed", "--verify", verify, "--", "sh",
                "x", "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("--kinds names a kind twice"))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--kinds", "rot", "--verify", verify, "--", "sh", "x",
                "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("--kinds takes kinds separated by a comma, each one of bit-rot,"
                        + " zeroed, lost-write, misdirected-write, bad-sector, transient-read, not 'rot'"))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--verify", "python3 check.py {dir} {acks}", "--", "sh",
                "x", "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("write the records it read to $FLUSHCHECK_READ, a line each,"
                        + " instead of comparing them with {acks}"))
                .extracting(Run::exit).isEqualTo(2);
        assertThat(run("powercut", "damage", "--model", "file", "--fs", "xfs", "--verify", verify, "--", "sh", "x", "{dir}"))
                .satisfies(r -> assertThat(r.err()).contains("--fs applies to the block model, not to the file model"))
                .extracting(Run::exit).isEqualTo(2);
        PowerCutCommandTests.assertNothingLeft();
    }
}
