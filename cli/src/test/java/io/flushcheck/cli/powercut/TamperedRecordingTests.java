package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A kept recording comes from anyone: each field of its manifest and logs set out of range, one recording a field,
 * is refused by {@code --replay} as the recording's fault, exit 2, in one line naming the field, before anything is
 * mounted or made: never a stack trace, an exhausted heap, or the exit of a failing state or of this machine.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class TamperedRecordingTests {

    private static final String MANIFEST = "manifest.txt";
    private static final String LOG = "recording.log";

    @TempDir
    Path tmp;

    /** One tampering: its name, what it does to a copy of the recording, and the words the refusal must hold. */
    private record Tamper(String name, Change change, String... said) {
    }

    @FunctionalInterface
    private interface Change {
        void apply(Path recording) throws Exception;
    }

    @Test
    void eachFieldOfABlockRecordingOutOfRangeIsRefusedInOneLineExit2() throws Exception {
        PythonStore python = PythonStore.in(tmp);
        KeptRecording kept = new KeptRecording(tmp, List.of(), python.store(), python.check());
        Path saved = tmp.resolve("recording");
        Run recorded = kept.record(saved, "honest", "--max-states", "1", "-q");
        assertThat(recorded.exit()).as(recorded.err()).isZero();

        List<Tamper> cases = new ArrayList<>(common());
        cases.addAll(List.of(
                new Tamper("fs tmpfs", line("fs", l -> "fs tmpfs"), "line 3", "filesystem", "tmpfs"),
                new Tamper("fs proc", line("fs", l -> "fs proc"), "line 3", "filesystem", "proc"),
                new Tamper("fs xfs on an ext4 image", line("fs", l -> "fs xfs"), "base.img", "no xfs superblock"),
                new Tamper("atomic unit 3", line("atomic-unit", l -> "atomic-unit 3"), "atomic-unit's bytes 3"),
                new Tamper("atomic unit 8192", line("atomic-unit", l -> "atomic-unit 8192"), "atomic-unit's bytes"),
                new Tamper("base size 0", line("base", l -> l.replaceFirst(" \\d+ ", " 0 ")), "base's size 0"),
                new Tamper("base size 2^50", line("base", l -> l.replaceFirst(" \\d+ ", " " + (1L << 50) + " ")),
                        "base's size"),
                new Tamper("base SHA-256", line("base", l -> l.replaceFirst(" [0-9a-f]+$", " zz")), "base's SHA-256"),
                new Tamper("base.img a FIFO", fifo("base.img"), "base.img is not a regular file"),
                new Tamper("base.img a link", link("base.img", "/etc/shadow"), "base.img is not a regular file"),
                new Tamper("a place past the drive", append("place 0 0 " + (1L << 40) + " f"),
                        "place's " + (1L << 40) + " bytes"),
                new Tamper("an entry's inode", append("entry f -5 0 0 f"), "entry's inode -5"),
                new Tamper("a write at -512", blockWrite(-512, 512, 512), "drive offset -512"),
                new Tamper("a write at 2^63-512", blockWrite(Long.MAX_VALUE - 511, 512, 512), "end past the drive"),
                new Tamper("a write 1 TiB past the drive", blockWrite(1L << 40, 512, 512), "end past the drive"),
                new Tamper("a write not of whole sectors", blockWrite(100, 512, 512), "drive offset 100"),
                new Tamper("a write longer than the log", blockWrite(0, 1 << 23, 0), "end past the log"),
                new Tamper("a negative flush count", logRecord(out -> {
                    out.write('F');
                    out.writeLong(-1);
                }), "count of flushes -1")));
        check(saved, kept.verify(), cases);
    }

    @Test
    void eachFieldOfAFileRecordingOutOfRangeIsRefusedInOneLineExit2() throws Exception {
        PythonStore python = PythonStore.forFileModel(tmp);
        KeptRecording kept = new KeptRecording(tmp, List.of("--model", "file"), python.store(), python.check());
        Path saved = tmp.resolve("recording");
        Run recorded = kept.record(saved, "honest", "--max-states", "1", "-q");
        assertThat(recorded.exit()).as(recorded.err()).isZero();

        List<Tamper> cases = new ArrayList<>(common());
        cases.addAll(List.of(
                new Tamper("a write of 2^31-1 bytes", fileWrite(0, Integer.MAX_VALUE), "write's length 2147483647"),
                new Tamper("a write at a negative offset", fileWrite(-1, 0), "offset -1"),
                new Tamper("a 300-byte name", create("a".repeat(300)), "name of 300 bytes"),
                new Tamper("a name with a NUL", create("a\0b"), "name of 3 bytes"),
                new Tamper("a name with a slash", create("a/b"), "name of 3 bytes"),
                new Tamper("a truncation to 2^62", logRecord(out -> {
                    out.write(6);
                    out.writeLong(1);
                    out.writeLong(1L << 62);
                }), "truncation's size " + (1L << 62)),
                new Tamper("a negative sync count", logRecord(out -> {
                    out.write(8);
                    out.writeLong(1);
                    out.writeLong(-1);
                }), "count of flushes -1")));
        check(saved, kept.verify(), cases);
    }

    /** What both models' manifests refuse alike. */
    private static List<Tamper> common() {
        return List.of(
                new Tamper("model tape", line("model", l -> "model tape"), "line 2", "tape"),
                new Tamper("a field too many", line("log", l -> l + " 1"), "log line has 3 fields"),
                new Tamper("log size -1", line("log", l -> l.replaceFirst(" \\d+ ", " -1 ")), "log's size -1"),
                new Tamper("an ack's flush count", append("ack -1 0 a"), "ack's count of flushes -1"),
                new Tamper("an unknown line", append("rm -rf /"), "unknown line"),
                new Tamper("the log a FIFO", fifo(LOG), "recording.log is not a regular file"),
                new Tamper("the manifest a FIFO", fifo(MANIFEST), "manifest.txt is not a regular file"),
                new Tamper("a 65 MiB manifest", recording -> {
                    try (RandomAccessFile f = new RandomAccessFile(recording.resolve(MANIFEST).toFile(), "rw")) {
                        f.setLength(65L << 20);
                    }
                }, "manifest.txt has 68157440 bytes"));
    }

    /** Each tampering applied to a copy of {@code saved}, replayed: refused, exit 2, one line with its words. */
    private void check(Path saved, String verify, List<Tamper> cases) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Tamper t : cases) {
            Path copy = tmp.resolve("tampered-" + cases.indexOf(t));
            Process cp = new ProcessBuilder("cp", "-a", saved.toString(), copy.toString()).inheritIO().start();
            assertThat(cp.waitFor()).isZero();
            t.change().apply(copy);
            Run r = run("powercut", "--replay", copy.toString(), "--max-states", "1", "--verify", verify);
            String err = r.err().strip();
            boolean named = List.of(t.said()).stream().allMatch(err::contains);
            if (r.exit() != 2 || err.contains("\n") || !named || !err.startsWith("flushcheck: powercut --replay ")) {
                wrong.add(t.name() + ": exit " + r.exit() + ", said: " + err);
            }
        }
        assertThat(wrong).as("tamperings not refused in one line naming the field, exit 2").isEmpty();
        PowerCutCommandTests.assertNothingLeft();
    }

    /** The manifest's line starting {@code key} changed by {@code change}. */
    private static Change line(String key, UnaryOperator<String> change) {
        return recording -> {
            Path m = recording.resolve(MANIFEST);
            List<String> lines = new ArrayList<>(Files.readAllLines(m, StandardCharsets.UTF_8));
            boolean found = false;
            for (int i = 0; i < lines.size(); i++) {
                if (!found && lines.get(i).startsWith(key + " ")) {
                    lines.set(i, change.apply(lines.get(i)));
                    found = true;
                }
            }
            assertThat(found).as("a %s line", key).isTrue();
            Files.write(m, lines, StandardCharsets.UTF_8);
        };
    }

    private static Change append(String line) {
        return recording -> Files.writeString(recording.resolve(MANIFEST), line + "\n",
                StandardOpenOption.APPEND);
    }

    private static Change fifo(String name) {
        return recording -> {
            Files.delete(recording.resolve(name));
            Process p = new ProcessBuilder("mkfifo", recording.resolve(name).toString()).inheritIO().start();
            assertThat(p.waitFor()).isZero();
        };
    }

    private static Change link(String name, String target) {
        return recording -> {
            Files.delete(recording.resolve(name));
            Files.createSymbolicLink(recording.resolve(name), Path.of(target));
        };
    }

    @FunctionalInterface
    private interface Record {
        void write(DataOutputStream out) throws IOException;
    }

    /**
     * A record appended to the log, whose size and SHA-256 the manifest is then made to say: the log is whole, and
     * out of range.
     */
    private static Change logRecord(Record record) {
        return recording -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                record.write(out);
            }
            Path log = recording.resolve(LOG);
            Files.write(log, bytes.toByteArray(), StandardOpenOption.APPEND);
            byte[] all = Files.readAllBytes(log);
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(all));
            line("log", l -> "log " + all.length + " " + sha).apply(recording);
        };
    }

    /** A block log's write record of {@code length} bytes at {@code offset}, {@code bytes} of them present. */
    private static Change blockWrite(long offset, int length, int bytes) {
        return logRecord(out -> {
            out.write('W');
            out.writeLong(offset);
            out.writeInt(length);
            out.write(new byte[bytes]);
        });
    }

    /** A file log's write to the root directory's node: refused for its numbers before the tree is asked. */
    private static Change fileWrite(long offset, int length) {
        return logRecord(out -> {
            out.write(5);
            out.writeLong(1);
            out.writeLong(offset);
            out.writeInt(length);
        });
    }

    private static Change create(String name) {
        return logRecord(out -> {
            out.write(1);
            out.writeLong(1);
            out.writeUTF(name);
            out.writeBoolean(false);
            out.writeInt(0644);
            out.writeLong(999);
        });
    }
}
