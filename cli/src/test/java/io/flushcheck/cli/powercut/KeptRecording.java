package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.MiniJson;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Python store's run kept by {@code --explore --record} on one model, then checked again by {@code --replay}
 * and by two shards run as two processes at once, whose documents {@code powercut merge} joins into the one run's:
 * what each model's tests check alike.
 *
 * @param tmp     the test's directory, where the recording and the shards' output go
 * @param model   the options that choose the model: {@code --model file}, or none for the block model
 * @param store   {@code store.py}
 * @param check   {@code check.py}
 */
record KeptRecording(Path tmp, List<String> model, Path store, Path check) {

    private static final String PYTHON = PythonStore.PYTHON;
    private static final int VALUES = 4;
    /** A bound above the store's states: every one is checked, the failing one at the recording's end too. */
    static final String BOUND = "30";

    String verify() {
        return PYTHON + " " + check + " {dir} {acks}";
    }

    /** {@code --explore --record saved} of the store in {@code mode}, with {@code options}. */
    Run record(Path saved, String mode, String... options) {
        return record(List.of("powercut", "--explore"), saved, mode, options);
    }

    /** As {@link #record(Path, String, String...)}, the command spelled {@code spelling}. */
    private Run record(List<String> spelling, Path saved, String mode, String... options) {
        List<String> args = new ArrayList<>(spelling);
        args.addAll(List.of("--record", saved.toString()));
        args.addAll(model);
        args.addAll(List.of(options));
        args.addAll(List.of("--verify", verify(), "--", "sh", "-c",
                "exec " + PYTHON + " " + store + " \"$1\" \"$FLUSHCHECK_ACKS\" " + mode + " " + VALUES, "store", "{dir}"));
        return run(args.toArray(new String[0]));
    }

    /**
     * {@code powercut explore --record} keeps what {@code --explore --record} keeps, and {@code powercut replay DIR}
     * prints of it what {@code --replay DIR} prints, but for the time: the subcommands are the options' newer spelling.
     */
    void theSubcommandsDoWhatTheOptionsDo() {
        Path saved = tmp.resolve("recording");
        Run recorded = record(List.of("powercut", "explore"), saved, "nodirsync", "--max-states", BOUND, "--json");
        assertThat(recorded.exit()).as(recorded.err()).isEqualTo(1);
        assertThat(json(recorded.out()).get("mode")).isEqualTo("explore");
        assertThat(saved.resolve("manifest.txt")).isRegularFile();
        Run byOption = run("powercut", "--replay", saved.toString(), "--max-states", BOUND, "--json", "--verify", verify());
        Run bySubcommand = run("powercut", "replay", saved.toString(), "--max-states", BOUND, "--json", "--verify", verify());
        assertThat(bySubcommand.exit()).as(bySubcommand.err()).isEqualTo(byOption.exit()).isEqualTo(1);
        assertThat(withoutSeconds(json(bySubcommand.out()))).isEqualTo(withoutSeconds(json(byOption.out())));
        assertThat(states(json(bySubcommand.out()))).as("the replay checks what explore checked, with the same outcomes")
                .isEqualTo(states(json(recorded.out())).stream().map(KeptRecording::withChecked).toList());
    }

    /**
     * The store without its directory's sync, recorded, replayed whole and by two shards; the merge of the shards
     * equals the replay, which equals the exploration, and shards of another recording or a shard missing are
     * refused.
     *
     * @return the replay's document
     */
    Map<String, Object> twoShardsInTwoProcessesCheckTheStatesOneReplayChecksAndMergeIntoItsReport() throws Exception {
        Path saved = tmp.resolve("recording");
        Run recorded = record(saved, "nodirsync", "--max-states", BOUND, "--json");
        assertThat(recorded.exit()).as(recorded.err()).isEqualTo(1);
        String id = (String) json(recorded.out()).get("recording");
        assertThat(id).hasSize(64);
        assertThat(saved.resolve("manifest.txt")).isRegularFile();

        Run whole = run("powercut", "--replay", saved.toString(), "--max-states", BOUND, "--json", "--verify", verify());
        assertThat(whole.exit()).as(whole.err()).isEqualTo(1);
        Map<String, Object> one = json(whole.out());
        assertThat(one.get("recording")).isEqualTo(id);
        assertThat(one.get("model")).isEqualTo(json(recorded.out()).get("model"));
        assertThat(one).doesNotContainKey("shard");
        assertThat(states(one)).hasSize(((Long) one.get("checked")).intValue()).hasSizeGreaterThan(2);
        assertThat(states(one)).as("the replay checks what --explore checked, with the same outcomes")
                .isEqualTo(states(json(recorded.out())).stream().map(KeptRecording::withChecked).toList());

        Process first = shard(saved, "1/2");
        Process second = shard(saved, "2/2");
        String out1 = finish(first, "1/2");
        String out2 = finish(second, "2/2");
        Map<String, Object> shard1 = json(out1);
        Map<String, Object> shard2 = json(out2);
        assertThat(shard1.get("shard")).isEqualTo("1/2");
        List<Map<String, Object>> all = states(one);
        for (int i = 0; i < all.size(); i++) {
            Map<String, Object> a = states(shard1).get(i);
            Map<String, Object> b = states(shard2).get(i);
            assertThat(List.of(a.get("checked"), b.get("checked"))).as("state %d is checked by one shard", i)
                    .containsExactlyInAnyOrder(true, false);
            Map<String, Object> checkedOne = a.get("checked").equals(true) ? a : b;
            assertThat(checkedOne.get("state")).isEqualTo(all.get(i).get("state"));
            assertThat(checkedOne.get("passed")).isEqualTo(all.get(i).get("passed"));
        }
        assertThat((Long) shard1.get("checked") + (Long) shard2.get("checked")).isEqualTo(one.get("checked"));

        Path a = Files.writeString(tmp.resolve("a.json"), out1);
        Path b = Files.writeString(tmp.resolve("b.json"), out2);
        Run merged = run("powercut", "merge", b.toString(), a.toString());
        assertThat(merged.exit()).as(merged.err()).isEqualTo(1);
        assertThat(withoutSeconds(json(merged.out()))).isEqualTo(withoutSeconds(one));

        Path other = Files.writeString(tmp.resolve("other.json"), out2.replace(id, "0".repeat(64)));
        Run refused = run("powercut", "merge", a.toString(), other.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("shards of different recordings do not merge");
        Run missing = run("powercut", "merge", a.toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("shard 2/2 is missing");
        PowerCutCommandTests.assertNothingLeft();
        return one;
    }

    /**
     * One byte of the kept log changed, then a log whose SHA-256 the manifest names but which does not read as one
     * (a record this version does not know): {@code --replay} refuses the recording both times, exit 2, saying why.
     */
    void aChangedLogIsRefused(Path saved) throws IOException {
        Path log = saved.resolve("recording.log");
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length / 2] ^= 1;
        Files.write(log, bytes);
        Run changed = run("powercut", "--replay", saved.toString(), "--verify", verify());
        assertThat(changed.exit()).as(changed.err()).isEqualTo(2);
        assertThat(changed.err()).contains("recording.log is not what was saved: its SHA-256 is ");

        // A log that is whole (its SHA-256 the manifest's) but does not read as one is the recording's fault too.
        bytes[bytes.length / 2] ^= 1;
        byte[] malformed = Arrays.copyOf(bytes, bytes.length + 1);
        malformed[bytes.length] = 0x7f;
        Files.write(log, malformed);
        Path manifest = saved.resolve("manifest.txt");
        Files.writeString(manifest, Files.readString(manifest).replaceFirst("(?m)^log \\d+ [0-9a-f]+$",
                "log " + malformed.length + " " + sha256(malformed)));
        Run unreadable = run("powercut", "--replay", saved.toString(), "--verify", verify());
        assertThat(unreadable.exit()).as(unreadable.err()).isEqualTo(2);
        assertThat(unreadable.err()).contains("holds an unknown record 127");
        PowerCutCommandTests.assertNothingLeft();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Process shard(Path saved, String shard) throws IOException {
        List<String> args = List.of("powercut", "--replay", saved.toString(), "--shard", shard, "--max-states", BOUND,
                "--json", "--verify", verify());
        File out = tmp.resolve("shard-" + shard.charAt(0) + ".out").toFile();
        return new ProcessBuilder(ChildJvm.command(List.of(), "io.flushcheck.cli.Main", args)).redirectOutput(out)
                .redirectError(tmp.resolve("shard-" + shard.charAt(0) + ".err").toFile()).start();
    }

    private String finish(Process p, String shard) throws Exception {
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        String name = "shard-" + shard.charAt(0);
        String err = Files.readString(tmp.resolve(name + ".err"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isIn(0, 1);
        return Files.readString(tmp.resolve(name + ".out"), StandardCharsets.UTF_8);
    }

    static Map<String, Object> json(String text) {
        return MiniJson.object(MiniJson.parse(text));
    }

    static List<Map<String, Object>> states(Map<String, Object> json) {
        List<Map<String, Object>> states = new ArrayList<>();
        for (Object s : MiniJson.array(json.get("states"))) {
            states.add(MiniJson.object(s));
        }
        return states;
    }

    /** An --explore state as --replay lists it: every one checked. */
    private static Map<String, Object> withChecked(Map<String, Object> state) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", state.get("state"));
        m.put("lost", state.get("lost"));
        m.put("checked", true);
        state.forEach((k, v) -> {
            if (!m.containsKey(k)) {
                m.put(k, v);
            }
        });
        return m;
    }

    private static Map<String, Object> withoutSeconds(Map<String, Object> json) {
        Map<String, Object> m = new LinkedHashMap<>(json);
        m.remove("seconds");
        return m;
    }
}
