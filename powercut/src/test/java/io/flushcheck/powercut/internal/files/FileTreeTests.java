package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.model.PowerLossModel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** The file model's rules, called directly: what each kind of sync makes durable, and what cuts keep. */
class FileTreeTests {

    private static final long ROOT = FileTree.ROOT;

    @TempDir
    Path tmp;

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private Path survivor(FileTree t, PowerLossModel.CutMode mode, long seed) throws IOException {
        t.cut(mode, seed);
        Path to = Files.createDirectories(tmp.resolve("survivor-" + mode + "-" + seed));
        t.save(to);
        return to;
    }

    @Test
    void underPosixRulesDataIsDurableAtTheFilesSyncAndItsNameAtTheDirectorys() throws Exception {
        FileTree t = new FileTree(0, 0, false);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        t.write(a, 0, bytes("one"));
        t.sync(a);
        t.sync(ROOT);
        t.write(a, 3, bytes(" two"));
        long b = t.create(ROOT, "b", false, 0600, 0, 0).id();
        t.write(b, 0, bytes("synced data, unsynced name"));
        t.sync(b);
        assertThat(t.flushes()).isEqualTo(3);
        assertThat(t.unflushedBytes()).isEqualTo(4);
        Path s = survivor(t, PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(Files.readString(s.resolve("a"))).isEqualTo("one");
        assertThat(s.resolve("b")).doesNotExist();
        assertThat(Files.getPosixFilePermissions(s.resolve("a"))).hasSize(4); // rw-r--r--
    }

    @Test
    void aNameSyncedBeforeItsFileWasSurvivesEmpty() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        t.sync(ROOT);
        t.write(a, 0, bytes("never synced"));
        Path s = survivor(t, PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(Files.size(s.resolve("a"))).isZero();
    }

    @Test
    void aTruncateIsDurableAtTheFilesSync() throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        t.write(a, 0, bytes("0123456789"));
        t.sync(a);
        t.sync(ROOT);
        t.truncate(a, 4);
        assertThat(t.node(a).size()).isEqualTo(4);
        t.sync(a);
        assertThat(Files.readString(survivor(t, PowerLossModel.CutMode.FLUSHED, 0).resolve("a"))).isEqualTo("0123");
    }

    @Test
    void underPosixRulesARenameBetweenDirectoriesIsDurableOnlyWhereTheirSyncsMadeIt() throws Exception {
        FileTree t = new FileTree(0, 0, false);
        long d1 = t.create(ROOT, "d1", true, 0755, 0, 0).id();
        long d2 = t.create(ROOT, "d2", true, 0755, 0, 0).id();
        long f = t.create(d1, "f", false, 0644, 0, 0).id();
        t.write(f, 0, bytes("data"));
        t.sync(f);
        t.sync(d1);
        t.sync(d2);
        t.sync(ROOT);
        t.rename(d1, "f", d2, "g", false);
        t.sync(d2); // the new name, but not the old name's removal
        Path s = survivor(t, PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(Files.readString(s.resolve("d1/f"))).isEqualTo("data");
        assertThat(Files.readString(s.resolve("d2/g"))).isEqualTo("data");
        assertThat(Files.isSameFile(s.resolve("d1/f"), s.resolve("d2/g"))).as("one file, two names").isTrue();
    }

    @Test
    void underJournaledRulesAnySyncMakesEveryEarlierNameChangeDurableButOnlyTheSyncedFilesData() throws Exception {
        FileTree t = new FileTree(0, 0);
        assertThat(t.journaled()).isTrue();
        long d = t.create(ROOT, "store", true, 0755, 0, 0).id();
        long f = t.create(d, "log", false, 0644, 0, 0).id();
        long other = t.create(ROOT, "other", false, 0644, 0, 0).id();
        t.write(other, 0, bytes("never synced"));
        t.setAttributes(other, 0600, null, null, null);
        t.write(f, 0, bytes("record"));
        t.sync(f); // no directory is ever synced
        t.create(ROOT, "after", false, 0644, 0, 0);
        Path s = survivor(t, PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(Files.readString(s.resolve("store/log"))).isEqualTo("record");
        assertThat(Files.size(s.resolve("other"))).as("its name committed, its data not: empty, as on ext4").isZero();
        assertThat(Files.getPosixFilePermissions(s.resolve("other"))).as("the mode in the journal").hasSize(2);
        assertThat(s.resolve("after")).as("made after the last sync").doesNotExist();
        assertThat(t.cutNote()).doesNotContain("POSIX").contains("no syncfs(2) or sync(2)");
    }

    @Test
    void underJournaledRulesARenameIsDurableAtTheNextSyncOfAnything() throws Exception {
        FileTree t = new FileTree(0, 0);
        long store = t.create(ROOT, "store", false, 0644, 0, 0).id();
        t.write(store, 0, bytes("old"));
        t.sync(store);
        long tmpFile = t.create(ROOT, "store.tmp", false, 0644, 0, 0).id();
        t.write(tmpFile, 0, bytes("new"));
        t.sync(tmpFile);
        t.rename(ROOT, "store.tmp", ROOT, "store", false);
        FileTree later = new FileTree(0, 0);
        // The same, the rename followed by the sync of another file.
        long s2 = later.create(ROOT, "store", false, 0644, 0, 0).id();
        later.write(s2, 0, bytes("old"));
        later.sync(s2);
        long t2 = later.create(ROOT, "store.tmp", false, 0644, 0, 0).id();
        later.write(t2, 0, bytes("new"));
        later.sync(t2);
        later.rename(ROOT, "store.tmp", ROOT, "store", false);
        long next = later.create(ROOT, "next", false, 0644, 0, 0).id();
        later.sync(next);
        assertThat(Files.readString(survivor(t, PowerLossModel.CutMode.FLUSHED, 1).resolve("store")))
                .as("no sync after the rename").isEqualTo("old");
        Path s = survivor(later, PowerLossModel.CutMode.FLUSHED, 2);
        assertThat(Files.readString(s.resolve("store"))).isEqualTo("new");
        assertThat(s.resolve("store.tmp")).doesNotExist();
    }

    @Test
    void underJournaledRulesASubsetCutKeepsAPrefixOfTheOneLogAcrossDirectories() throws Exception {
        Set<String> seen = new HashSet<>();
        for (long seed = 0; seed < 24; seed++) {
            FileTree t = new FileTree(0, 0);
            long d1 = t.create(ROOT, "d1", true, 0755, 0, 0).id();
            long d2 = t.create(ROOT, "d2", true, 0755, 0, 0).id();
            t.sync(d1);
            t.create(d1, "a", false, 0644, 0, 0);
            t.create(d2, "b", false, 0644, 0, 0);
            t.create(d1, "c", false, 0644, 0, 0);
            Path s = survivor(t, PowerLossModel.CutMode.SUBSET, seed);
            String kept = (Files.exists(s.resolve("d1/a")) ? "a" : "") + (Files.exists(s.resolve("d2/b")) ? "b" : "")
                    + (Files.exists(s.resolve("d1/c")) ? "c" : "");
            assertThat(kept).as("seed %d: a prefix of a, b, c", seed).isIn("", "a", "ab", "abc");
            seen.add(kept);
        }
        assertThat(seen).hasSizeGreaterThan(2);
    }

    /**
     * A rename is one operation on every Linux filesystem: a cut keeps the file under its old name or its new one,
     * never under neither (the old name's removal kept, the new name lost) nor both.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aSubsetCutNeverSplitsARenameWithinADirectory(boolean journaled) throws Exception {
        Set<String> seen = new HashSet<>();
        for (long seed = 0; seed < 64; seed++) {
            FileTree t = new FileTree(0, 0, journaled);
            long d = t.create(ROOT, "d", true, 0755, 0, 0).id();
            long a = t.create(d, "a", false, 0644, 0, 0).id();
            t.write(a, 0, bytes("value"));
            t.sync(a);
            t.sync(d);
            t.sync(ROOT); // d's own name, durable under POSIX's rules at its directory's sync
            t.create(d, "before", false, 0644, 0, 0);
            t.rename(d, "a", d, "b", false);
            t.create(d, "after", false, 0644, 0, 0);
            Path s = survivor(t, PowerLossModel.CutMode.SUBSET, seed);
            boolean old = Files.exists(s.resolve("d/a"));
            boolean renamed = Files.exists(s.resolve("d/b"));
            assertThat(old != renamed).as("seed %d (journaled %s): a %s, b %s", seed, journaled, old, renamed).isTrue();
            seen.add((Files.exists(s.resolve("d/before")) ? "before " : "") + (renamed ? "b" : "a")
                    + (Files.exists(s.resolve("d/after")) ? " after" : ""));
        }
        assertThat(seen).as("every prefix of the directory's log, the rename whole")
                .containsExactlyInAnyOrder("a", "before a", "before b", "before b after");
    }

    @Test
    void underPosixRulesTheCutSaysWhichNamesAJournaledFilesystemWouldHaveKept() throws Exception {
        FileTree t = new FileTree(0, 0, false);
        long d = t.create(ROOT, "store", true, 0755, 0, 0).id();
        long f = t.create(d, "log", false, 0644, 0, 0).id();
        t.write(f, 0, bytes("record"));
        t.sync(f);
        t.create(ROOT, "after", false, 0644, 0, 0);
        Path s = survivor(t, PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(s.resolve("store")).doesNotExist();
        assertThat(t.cutNote()).contains("POSIX rules lost 2 name changes", "directory /store", "/store/log",
                "ext4, xfs and btrfs").doesNotContain("/after");
    }

    @Test
    void underPosixRulesTheCutListsWhatItDiscardedByFileWithTheMissingSync() throws Exception {
        FileTree t = new FileTree(0, 0, false);
        long d = t.create(ROOT, "data", true, 0755, 0, 0).id();
        t.sync(ROOT);
        t.sync(d);
        long f = t.create(d, "config.tmp", false, 0644, 0, 0).id();
        t.write(f, 0, bytes("a".repeat(4096)));
        t.write(f, 4096, bytes("b".repeat(4096)));
        t.write(f, 100, bytes("c"));
        t.rename(d, "config.tmp", d, "config", false);
        t.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(t.discarded()).containsExactly(
                "create data/config.tmp, directory not synced",
                "8192 bytes at offset 0 of data/config.tmp, file not synced",
                "1 bytes at offset 100 of data/config.tmp, file not synced",
                "rename config.tmp -> config in data, directory not synced");
    }

    @Test
    void underJournaledRulesTheCutListsWhatCameAfterTheLastSync() throws Exception {
        FileTree t = new FileTree(0, 0);
        long d = t.create(ROOT, "db", true, 0755, 0, 0).id();
        long f = t.create(d, "t.log", false, 0644, 0, 0).id();
        t.write(f, 0, bytes("x".repeat(8192)));
        t.sync(f);
        t.write(f, 8192, bytes("y".repeat(4096)));
        t.rename(d, "t.log", ROOT, "moved", false);
        assertThat(t.discarded()).as("nothing before a cut").isEmpty();
        t.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(t.discarded()).containsExactly(
                "4096 bytes at offset 8192 of db/t.log, file not synced",
                "rename db/t.log -> moved, no sync after it");
    }

    @Test
    void theCallsFailAsAFilesystemsDo() throws Exception {
        FileTree t = new FileTree(0, 0);
        long d = t.create(ROOT, "d", true, 0755, 0, 0).id();
        t.create(d, "x", false, 0644, 0, 0);
        assertThat(errno(() -> t.create(ROOT, "d", false, 0644, 0, 0))).isEqualTo(FileTree.Errno.EEXIST);
        assertThat(errno(() -> t.remove(ROOT, "d", true))).isEqualTo(FileTree.Errno.ENOTEMPTY);
        assertThat(errno(() -> t.remove(ROOT, "d", false))).isEqualTo(FileTree.Errno.EISDIR);
        assertThat(errno(() -> t.lookup(ROOT, "nothing"))).isEqualTo(FileTree.Errno.ENOENT);
        assertThat(errno(() -> t.rename(ROOT, "d", d, "inside", false))).isEqualTo(FileTree.Errno.EINVAL);
        t.create(ROOT, "y", false, 0644, 0, 0);
        assertThat(errno(() -> t.rename(d, "x", ROOT, "y", true))).isEqualTo(FileTree.Errno.EEXIST);
        t.rename(d, "x", ROOT, "y", false);
        assertThat(t.list(ROOT)).extracting(e -> e.getKey()).containsExactly("d", "y");
    }

    /**
     * A directory removed while a program held it takes no new name (the kernel refuses with ENOENT): a tree, and a
     * recording played again, never holds a name no path reaches.
     */
    @Test
    void aRemovedDirectoryTakesNoNewName() throws Exception {
        FileTree t = new FileTree(0, 0);
        long d = t.create(ROOT, "d", true, 0755, 0, 0).id();
        long f = t.create(ROOT, "f", false, 0644, 0, 0).id();
        t.remove(ROOT, "d", true);
        assertThat(errno(() -> t.create(d, "x", false, 0644, 0, 0))).isEqualTo(FileTree.Errno.ENOENT);
        assertThat(errno(() -> t.create(d, "x", true, 0755, 0, 0))).isEqualTo(FileTree.Errno.ENOENT);
        assertThat(errno(() -> t.link(f, d, "x"))).isEqualTo(FileTree.Errno.ENOENT);
        assertThat(errno(() -> t.rename(ROOT, "f", d, "x", false))).isEqualTo(FileTree.Errno.ENOENT);
        assertThat(t.list(d)).isEmpty();
        assertThat(t.list(ROOT)).extracting(e -> e.getKey()).containsExactly("f");
    }

    private interface Call {
        void run() throws FileTree.Errno;
    }

    private static int errno(Call c) {
        try {
            c.run();
            return 0;
        } catch (FileTree.Errno e) {
            return e.errno();
        }
    }

    /** A file of the program: a header at 0, then a heartbeat at 8, in its first page, never synced. */
    private static long headerThenHeartbeat(FileTree t) throws FileTree.Errno {
        long lock = t.create(ROOT, "lock", false, 0644, 0, 0).id();
        long data = t.create(ROOT, "data", false, 0644, 0, 0).id();
        t.write(lock, 0, bytes("MAGICMAG"));
        t.write(lock, 8, bytes("HEARTBT1"));
        t.write(data, 0, bytes("record"));
        t.sync(data);
        t.sync(ROOT);
        return lock;
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file).replace('\0', '.') : "(none)";
    }

    /**
     * Under the journaled rules a sync of another file commits every earlier truncation and size set of a file (its
     * journal's metadata), as ext4's does: every state and every cut keeps the sizes, while a write after them to a
     * page below the size still follows the page rule; under POSIX's, the file's own sync alone makes them durable.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aSyncOfAnotherFileCommitsATruncationOnlyUnderTheJournaledRules(boolean journaled) throws Exception {
        Set<String> states = new HashSet<>();
        FileTree t = truncatedThenAnotherSynced(journaled);
        int i = 0;
        for (StatePick pick : t.statePicks()) {
            Path to = Files.createDirectories(tmp.resolve("state-" + i++));
            t.save(pick, to);
            states.add(sized(to.resolve("a")));
        }
        Set<String> cuts = new HashSet<>();
        for (long seed = 0; seed < 32; seed++) {
            cuts.add(sized(survivor(truncatedThenAnotherSynced(journaled), PowerLossModel.CutMode.SUBSET, seed)
                    .resolve("a")));
        }
        if (journaled) {
            assertThat(states).as("a in each state").containsExactlyInAnyOrder("12288 bytes: aaa, then zeros",
                    "12288 bytes: new, then zeros");
            assertThat(cuts).as("a after each seeded cut").isEqualTo(states);
        } else {
            assertThat(states).as("a in each state").contains("8192 bytes: aaa, then a", "12288 bytes: aaa, then zeros",
                    "12288 bytes: new, then zeros");
            assertThat(cuts).as("a after each seeded cut").contains("8192 bytes: aaa, then a");
        }
    }

    /** File a, 8 KiB synced, truncated to 100 bytes, written at 0, set to 12 KiB; then file b written and synced. */
    private static FileTree truncatedThenAnotherSynced(boolean journaled) throws FileTree.Errno {
        FileTree t = new FileTree(0, 0, journaled);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        long b = t.create(ROOT, "b", false, 0644, 0, 0).id();
        t.write(a, 0, bytes("a".repeat(8192)));
        t.sync(a);
        t.sync(ROOT);
        t.truncate(a, 100);
        t.write(a, 0, bytes("new"));
        t.truncate(a, 12288);
        t.write(b, 0, bytes("record"));
        t.sync(b);
        return t;
    }

    /** A file's size, its first three bytes, and what its bytes from 100 on are: "zeros", "a" when all 'a'. */
    private static String sized(Path file) throws IOException {
        String s = read(file);
        String rest = s.length() <= 100 ? "" : s.substring(100);
        return s.length() + " bytes: " + s.substring(0, 3) + ", then " + (rest.isEmpty() ? "nothing"
                : rest.matches("\\.+") ? "zeros" : rest.matches("a+") ? "a" : rest);
    }

    /**
     * A page reaches the disk as it was at one moment: no crash state and no cut keeps the heartbeat without the
     * header written before it in the same page, under either rule; each moment's page is a state.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void noStateOrCutKeepsALaterWriteToAPageWithoutAnEarlierOne(boolean journaled) throws Exception {
        FileTree t = new FileTree(0, 0, journaled);
        headerThenHeartbeat(t);
        Set<String> states = new HashSet<>();
        List<String> described = new ArrayList<>();
        for (StatePick pick : t.statePicks()) {
            Path to = Files.createDirectories(tmp.resolve("state-" + states.size() + "-" + described.size()));
            t.save(pick, to);
            states.add(read(to.resolve("lock")));
            described.add(t.state(pick, null).description());
        }
        assertThat(states).as("lock in each state").containsExactlyInAnyOrder("", "MAGICMAG", "MAGICMAGHEARTBT1");
        assertThat(described).contains("page 0 of lock as it was after write 1 of 2, 1 operation lost (8 bytes at"
                + " offset 8 of lock, file not synced)");
        Set<String> cuts = new HashSet<>();
        for (long seed = 0; seed < 32; seed++) {
            FileTree c = new FileTree(0, 0, journaled);
            headerThenHeartbeat(c);
            cuts.add(read(survivor(c, PowerLossModel.CutMode.SUBSET, seed).resolve("lock")));
        }
        assertThat(cuts).as("lock after each seeded cut").containsExactlyInAnyOrder("", "MAGICMAG", "MAGICMAGHEARTBT1");
    }

    /**
     * A size set is journaled, and a page written back after it grows the file only within the size it had then:
     * a file extended by a truncation and then written keeps the size set or none of it, its pages zeros or
     * their writes; a truncation that cut a page goes with that page's later writes.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aSizeSetIsKeptWholeAndATruncatedPageNeverShowsItsBytesFromBefore(boolean journaled) throws Exception {
        FileTree t = new FileTree(0, 0, journaled);
        long f = t.create(ROOT, "f", false, 0644, 0, 0).id();
        long g = t.create(ROOT, "g", false, 0644, 0, 0).id();
        t.write(g, 0, bytes("a".repeat(8192)));
        t.sync(g);
        t.sync(ROOT);
        t.truncate(f, 8192);
        t.write(f, 0, bytes("head"));
        t.write(f, 4096, bytes("rec"));
        t.truncate(g, 0);
        t.write(g, 0, bytes("b".repeat(8192)));
        Set<String> fs = new HashSet<>();
        Set<String> gs = new HashSet<>();
        int i = 0;
        for (StatePick pick : t.statePicks()) {
            Path to = Files.createDirectories(tmp.resolve("state-" + i++));
            t.save(pick, to);
            String fb = read(to.resolve("f"));
            fs.add(fb.length() + ":" + fb.replace(".", ""));
            gs.add(read(to.resolve("g")).replaceAll("(.)\\1*", "$1"));
        }
        assertThat(fs).as("f's size and bytes in each state").containsExactlyInAnyOrder("0:", "8192:head", "8192:rec",
                "8192:headrec");
        assertThat(gs).as("g's bytes in each state, runs of one byte said once").containsExactlyInAnyOrder("a", "",
                "b");
    }

    /**
     * A write over two pages is kept on one and lost on the other when a later write touched only the second:
     * the state says which pages it keeps as of which write, and what part of the first write it lost.
     */
    @Test
    void aStateKeepsEachPageAsOfOneWriteAndSaysWhatPartOfAWriteItLost() throws Exception {
        FileTree t = new FileTree(0, 0);
        long f = t.create(ROOT, "f", false, 0644, 0, 0).id();
        t.sync(f);
        t.write(f, 0, bytes("a".repeat(8192)));
        t.write(f, 4096, bytes("b".repeat(4096)));
        Set<String> files = new HashSet<>();
        List<String> described = new ArrayList<>();
        int i = 0;
        for (StatePick pick : t.statePicks()) {
            Path to = Files.createDirectories(tmp.resolve("state-" + i++));
            t.save(pick, to);
            files.add(read(to.resolve("f")).replaceAll("(.)\\1*", "$1"));
            described.add(t.state(pick, null).description());
        }
        assertThat(files).as("f in each state, runs of one byte said once").containsExactlyInAnyOrder("", "a", "ab",
                ".b");
        assertThat(described).contains("page 1 of f as it was before write 1 of 2, 2 operations lost (the first: 4096"
                + " of the 8192 bytes at offset 0 of f (page 1), file not synced)", "page 0 of f as it was before write"
                + " 1 of 1, 1 operation lost (4096 of the 8192 bytes at offset 0 of f (page 0), file not synced)");
    }

    @Test
    void aSubsetCutKeepsEachUnsyncedWriteOnItsOwnTheSameWayForTheSameSeed() throws Exception {
        Set<String> seen = new HashSet<>();
        for (long seed = 0; seed < 16; seed++) {
            String first = subsetOnce(seed, "a" + seed);
            assertThat(subsetOnce(seed, "b" + seed)).as("seed %d again", seed).isEqualTo(first);
            seen.add(first);
        }
        assertThat(seen).as("writes kept and lost in different combinations").hasSizeGreaterThan(2)
                .allMatch(s -> s.startsWith("base"));
    }

    private String subsetOnce(long seed, String name) throws Exception {
        FileTree t = new FileTree(0, 0);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        t.write(a, 0, bytes("base"));
        t.sync(a);
        t.sync(ROOT);
        t.write(a, 4, bytes("-1"));
        t.write(a, 6, bytes("-2"));
        t.write(a, 8, bytes("-3"));
        t.cut(PowerLossModel.CutMode.SUBSET, seed);
        Path to = Files.createDirectories(tmp.resolve(name));
        t.save(to);
        return Files.readString(to.resolve("a")).replace('\0', '.');
    }

    @Test
    void anArmedCutFreezesTheTreeAtItsSyncAndFailsEverySyncAfter() throws Exception {
        FileTree t = new FileTree(0, 0);
        boolean[] ran = {false};
        t.cutAtFlush(2, () -> ran[0] = true);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        t.write(a, 0, bytes("kept"));
        assertThat(t.sync(a)).isTrue();
        assertThat(t.sync(ROOT)).isTrue();
        assertThat(ran[0]).isTrue();
        assertThat(t.frozen()).isTrue();
        assertThatThrownBy(() -> t.write(a, 4, bytes("lost"))).isInstanceOf(FileTree.Errno.class);
        assertThat(t.sync(a)).as("a sync after the power went").isFalse();
        assertThat(t.armedCutHappened()).isTrue();
        assertThat(Files.readString(survivor(t, PowerLossModel.CutMode.FLUSHED, 0).resolve("a"))).isEqualTo("kept");
    }

    @Test
    void aCutDuringASyncFailsItAndKeepsWhatTheSyncsBeforeMadeDurable() throws Exception {
        FileTree t = new FileTree(0, 0);
        t.cutDuringFlush(2, 3);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        assertThat(t.sync(ROOT)).isTrue();
        t.write(a, 0, bytes("x"));
        assertThat(t.sync(a)).as("the sync the power cut").isFalse();
        assertThat(t.flushes()).isEqualTo(1);
        long[] r = t.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(r[0] + r[1]).as("the one unsynced byte, kept or lost").isEqualTo(1);
        Path to = Files.createDirectories(tmp.resolve("during"));
        t.save(to);
        assertThat(to.resolve("a")).exists();
    }

    @Test
    void aWritePastTheCapacityFailsWithEnospcAndRemovingAFileFreesItsBlocks() throws Exception {
        FileTree t = new FileTree(0, 0, tmp, 16 * 4096);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        t.write(a, 0, ByteBuffer.allocate(12 * 4096));
        assertThat(t.used()).isEqualTo(12 * 4096);
        long b = t.create(ROOT, "b", false, 0644, 0, 0).id();
        t.write(b, 0, bytes("x"));
        assertThat(t.used()).as("a block for a byte").isEqualTo(13 * 4096);
        assertThatThrownBy(() -> t.write(b, 1, ByteBuffer.allocate(4 * 4096)))
                .isInstanceOfSatisfying(FileTree.Errno.class, e -> assertThat(e.errno()).isEqualTo(FileTree.Errno.ENOSPC));
        assertThatThrownBy(() -> t.truncate(b, 5 * 4096)).isInstanceOf(FileTree.Errno.class);
        assertThat(t.unflushedBytes()).as("the failed write changed nothing").isEqualTo(12 * 4096 + 1);
        t.write(a, 0, ByteBuffer.allocate(12 * 4096));
        assertThat(t.used()).as("overwriting takes nothing more").isEqualTo(13 * 4096);

        t.remove(ROOT, "a", false);
        assertThat(t.used()).isEqualTo(4096);
        t.write(b, 1, ByteBuffer.allocate(4 * 4096));
        t.sync(b);
        t.sync(ROOT);
        Path s = survivor(t, PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(Files.size(s.resolve("b"))).isEqualTo(4 * 4096 + 1);
        assertThat(Files.readString(s.resolve("b")).charAt(0)).isEqualTo('x');
        t.close();
    }

    @Test
    void aFilesBytesAreKeptInTheStoreDirectoryNotTheHeapAndCloseRemovesThem() throws Exception {
        FileTree t = new FileTree(0, 0, tmp, 1L << 30);
        long a = t.create(ROOT, "a", false, 0644, 0, 0).id();
        t.write(a, 1 << 20, bytes("far"));
        t.sync(a);
        try (var files = Files.list(tmp)) {
            assertThat(files.toList()).as("the store's directory").hasSize(1);
        }
        ByteBuffer out = ByteBuffer.allocate(8);
        assertThat(t.read(a, (1 << 20) - 5, out)).isEqualTo(8);
        assertThat(out.array()).containsExactly(0, 0, 0, 0, 0, 'f', 'a', 'r');
        t.close();
        try (var files = Files.list(tmp)) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
