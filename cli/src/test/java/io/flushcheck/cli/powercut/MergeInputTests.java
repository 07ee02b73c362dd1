package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.cli.InProcess;
import io.flushcheck.report.Json;
import io.flushcheck.report.JsonInput;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code flushcheck powercut merge} reads documents anyone may have written: each tampered field, and each file
 * that is not a document (a FIFO, a device, a directory, a link, one too big), is one line naming the file and
 * the field, exit 2, never a stack trace, an exhausted heap or a hang.
 */
class MergeInputTests {

    @TempDir
    Path tmp;

    static Stream<Arguments> tamperedFields() {
        return Stream.of(
                tampered("shard", "a split into two billion shards", d -> d.put("shard", "1/2000000000")),
                tampered("shard", "a split into a million shards", d -> d.put("shard", "1/1000000")),
                tampered("shard", "shard 0 of 2", d -> d.put("shard", "0/2")),
                tampered("shard", "shard 3 of 2", d -> d.put("shard", "3/2")),
                tampered("shard", "shard 1 of 0", d -> d.put("shard", "1/0")),
                tampered("shard", "a shard that is not I/N", d -> d.put("shard", "1/2/3")),
                tampered("shard", "no shard", d -> d.remove("shard")),
                tampered("verify", "no verify", d -> d.remove("verify")),
                tampered("recording", "no recording", d -> d.remove("recording")),
                tampered("mode", "another mode", d -> d.put("mode", "explore")),
                tampered("model", "a number as the model", d -> d.put("model", 7L)),
                tampered("maxStates", "a bound past an int", d -> d.put("maxStates", 4294968296L)),
                tampered("checked", "a count past an int", d -> d.put("checked", 1L << 40)),
                tampered("checked", "a count its states do not make", d -> d.put("checked", 3L)),
                tampered("passed", "passed its states do not make", d -> d.put("passed", 0L)),
                tampered("failed", "failed its states do not make", d -> d.put("failed", 0L)),
                tampered("otherShards", "other shards' states miscounted", d -> d.put("otherShards", 9L)),
                tampered("seconds", "negative seconds", d -> d.put("seconds", -1.0)),
                tampered("seconds", "seconds whose sum is past a double", d -> d.put("seconds", 1e308)),
                tampered("count", "a draw past an int", d -> d.put("draw", Map.of("count", 1L << 40, "seed", 1L))),
                tampered("states", "fewer states than the other shard", d -> {
                    states(d).remove(7);
                    d.put("otherShards", 3L);
                }),
                tampered("states", "states that are not a list", d -> d.put("states", "none")),
                tampered("lost", "a state's lost as a string", d -> state(d, 0).put("lost", "1")),
                tampered("lost", "a state's lost negative", d -> state(d, 0).put("lost", -1L)),
                tampered("checked", "a state without checked", d -> state(d, 0).remove("checked")),
                tampered("state", "a state without its name", d -> state(d, 0).remove("state")),
                tampered("passed", "a state passed that was not checked", d -> state(d, 1).put("passed", true)),
                tampered("explanation", "an explanation of numbers", d -> state(d, 2).put("explanation", List.of(1L))),
                tampered("states", "another shard's state checked", d -> {
                    state(d, 1).put("checked", true);
                    state(d, 1).put("passed", true);
                    d.put("checked", 5L);
                    d.put("passed", 2L);
                    d.put("otherShards", 3L);
                }));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("tamperedFields")
    void aTamperedFieldIsOneLineNamingTheFileAndTheFieldExit2(String field, String what,
                                                              Consumer<Map<String, Object>> tamper) throws IOException {
        Map<String, Object> doc = JsonInput.parseObject(Json.write(ReplayMergeTests.shard(1)));
        tamper.accept(doc);
        Path a = write("a.json", Json.write(doc));
        Path b = write("b.json", Json.write(ReplayMergeTests.shard(2)));

        Run r = InProcess.run("powercut", "merge", a.toString(), b.toString());

        assertThat(r.exit()).as("%s", r).isEqualTo(2);
        assertThat(r.err().lines()).as("%s", r).hasSize(1);
        assertThat(r.err()).as("%s", r).contains(a.toString()).contains("\"" + field + "\"");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void theUntamperedShardsMerge() throws IOException {
        Path a = write("a.json", Json.write(ReplayMergeTests.shard(1)));
        Path b = write("b.json", Json.write(ReplayMergeTests.shard(2)));

        Run r = InProcess.run("powercut", "merge", a.toString(), b.toString());

        assertThat(r.exit()).as("%s", r).isEqualTo(1);
        Map<String, Object> merged = JsonInput.parseObject(r.out());
        assertThat(merged).containsEntry("checked", 8L).containsEntry("passed", 3L).containsEntry("failed", 5L);
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard only
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = tmp.resolve("a.json");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).as("mkfifo").isTrue();
        Path b = write("b.json", Json.write(ReplayMergeTests.shard(2)));

        assertRefused(fifo, InProcess.run("powercut", "merge", fifo.toString(), b.toString()), "not a regular file");
    }

    @Test
    void aDeviceADirectoryAndALinkAreRefused() throws IOException {
        Path b = write("b.json", Json.write(ReplayMergeTests.shard(2)));
        Path zero = Path.of("/dev/zero");
        assertRefused(zero, InProcess.run("powercut", "merge", zero.toString(), b.toString()), "not a regular file");
        Path dir = Files.createDirectory(tmp.resolve("a.json"));
        assertRefused(dir, InProcess.run("powercut", "merge", dir.toString(), b.toString()), "not a regular file");
        Path link = Files.createSymbolicLink(tmp.resolve("link.json"), b);
        assertRefused(link, InProcess.run("powercut", "merge", link.toString(), b.toString()), "symbolic link");
    }

    @Test
    void aDocumentPastTheCapIsRefusedBeforeItIsRead() throws IOException {
        Path big = tmp.resolve("a.json");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(256L * 1024 * 1024 + 1); // sparse: no disk taken
        }
        Path b = write("b.json", Json.write(ReplayMergeTests.shard(2)));

        assertRefused(big, InProcess.run("powercut", "merge", big.toString(), b.toString()), "256 MiB");
    }

    private static void assertRefused(Path file, Run r, String why) {
        assertThat(r.exit()).as("%s", r).isEqualTo(2);
        assertThat(r.err().lines()).as("%s", r).hasSize(1);
        assertThat(r.err()).as("%s", r).contains(file.toString()).contains(why);
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text, StandardCharsets.UTF_8);
    }

    private static Arguments tampered(String field, String what, Consumer<Map<String, Object>> tamper) {
        return Arguments.of(field, what, tamper);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> states(Map<String, Object> doc) {
        return (List<Object>) doc.get("states");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> state(Map<String, Object> doc, int i) {
        return (Map<String, Object>) states(doc).get(i);
    }
}
