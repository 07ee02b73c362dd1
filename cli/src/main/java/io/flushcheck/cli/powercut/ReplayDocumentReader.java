package io.flushcheck.cli.powercut;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the JSON {@code flushcheck powercut --replay --json} prints as input anyone may have written: streamed
 * field by field into a {@link ReplayOutput.Document}, each field typed and bounded before it is used, never a
 * whole-number field narrowed unchecked, no more states than a bound and a draw give, and the counts checked
 * against the states they count. Fields it does not know are skipped unread (a newer version's).
 */
final class ReplayDocumentReader {

    /** The most states a document lists: those of the largest bound, and as many again drawn. */
    static final int MAX_STATES = 2 * PowerCutCommand.MAX_STATES;

    /** The longest a shard's check is taken to have run: over thirty years. */
    static final double MAX_SECONDS = 1e9;

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private final JsonReader in;

    private ReplayDocumentReader(Reader text) {
        in = new JsonReader(text);
        in.setStrictness(Strictness.STRICT);
    }

    /**
     * The document the text holds.
     *
     * @throws IllegalArgumentException naming the field that is missing, of another type, out of its range or
     *                                  not what its states count, or saying where the text is not JSON
     */
    static ReplayOutput.Document read(Reader text) {
        ReplayDocumentReader r = new ReplayDocumentReader(text);
        try {
            ReplayOutput.Document d = r.document();
            if (r.in.peek() != JsonToken.END_DOCUMENT) {
                throw new IllegalArgumentException("not valid JSON: text after the document at " + r.in.getPath());
            }
            counted(d);
            return d;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not UTF-8 text: " + e.getMessage(), e);
        } catch (IOException | IllegalStateException | NumberFormatException e) {
            // MalformedJsonException and EOFException are IOExceptions; nesting past Gson's limit is one too.
            // Gson's message ends with the path it was at, as long as the nesting: the start says where.
            String why = String.valueOf(e.getMessage());
            throw new IllegalArgumentException("not valid JSON: " + (why.length() <= 160 ? why
                    : why.substring(0, 157) + "..."), e);
        }
    }

    private ReplayOutput.Document document() throws IOException {
        Fields f = new Fields("the document");
        String mode = null;
        String recording = null;
        String shard = null;
        String verify = null;
        String model = null;
        String rules = null;
        String fs = null;
        ReplayOutput.Draw draw = null;
        int atomicWriteBytes = 0;
        int maxStates = 0;
        int writes = 0;
        int epochs = 0;
        int acknowledgements = 0;
        int checked = 0;
        int passed = 0;
        int failed = 0;
        int otherShards = 0;
        int duplicates = 0;
        int leftOut = 0;
        double seconds = 0;
        List<ReplayOutput.State> states = null;
        object("the document");
        while (in.hasNext()) {
            String name = f.next(in.nextName());
            switch (name) {
                case "mode" -> mode = string(name);
                case "recording" -> recording = string(name);
                case "shard" -> shard = nullOr(name) ? null : string(name);
                case "verify" -> verify = string(name);
                case "model" -> model = string(name);
                case "rules" -> rules = nullOr(name) ? null : string(name);
                case "fs" -> fs = string(name);
                case "atomicWriteBytes" -> atomicWriteBytes = whole(name, 0, Integer.MAX_VALUE);
                case "maxStates" -> maxStates = whole(name, 1, PowerCutCommand.MAX_STATES);
                case "draw" -> draw = nullOr(name) ? null : draw();
                case "writes" -> writes = whole(name, 0, Integer.MAX_VALUE);
                case "epochs" -> epochs = whole(name, 0, Integer.MAX_VALUE);
                case "acknowledgements" -> acknowledgements = whole(name, 0, Integer.MAX_VALUE);
                case "checked" -> checked = whole(name, 0, MAX_STATES);
                case "passed" -> passed = whole(name, 0, MAX_STATES);
                case "failed" -> failed = whole(name, 0, MAX_STATES);
                case "otherShards" -> otherShards = whole(name, 0, MAX_STATES);
                case "duplicates" -> duplicates = whole(name, 0, Integer.MAX_VALUE);
                case "leftOut" -> leftOut = whole(name, 0, Integer.MAX_VALUE);
                case "seconds" -> seconds = seconds(name);
                case "states" -> states = states();
                default -> in.skipValue();
            }
        }
        in.endObject();
        f.required("mode", "recording", "verify", "model", "fs", "atomicWriteBytes", "maxStates", "writes", "epochs",
                "acknowledgements", "checked", "passed", "failed", "otherShards", "duplicates", "leftOut", "seconds",
                "states");
        if (!ReplayOutput.MODE.equals(mode)) {
            throw new IllegalArgumentException("not the JSON of flushcheck powercut --replay: its \"mode\" is "
                    + Brief.of(mode) + ", not \"" + ReplayOutput.MODE + "\"");
        }
        if (!SHA256.matcher(recording).matches()) {
            throw new IllegalArgumentException("\"recording\" is " + Brief.of(recording)
                    + ", not a SHA-256 in 64 lowercase hexadecimal digits");
        }
        if (shard != null) {
            Shard.inDocument(shard);
        }
        word("model", model, DiskModel.values());
        if (rules != null) {
            word("rules", rules, FileRules.values());
        }
        return new ReplayOutput.Document(mode, recording, shard, verify, model, rules, fs, atomicWriteBytes,
                maxStates, draw, writes, epochs, acknowledgements, checked, passed, failed, otherShards, duplicates,
                leftOut, seconds, states);
    }

    private ReplayOutput.Draw draw() throws IOException {
        Fields f = new Fields("\"draw\"");
        int count = 0;
        long seed = 0;
        object("\"draw\"");
        while (in.hasNext()) {
            String name = f.next(in.nextName());
            switch (name) {
                case "count" -> count = whole(name, 1, PowerCutCommand.MAX_STATES);
                case "seed" -> seed = whole(name, Long.MIN_VALUE, Long.MAX_VALUE);
                default -> in.skipValue();
            }
        }
        in.endObject();
        f.required("count", "seed");
        return new ReplayOutput.Draw(count, seed);
    }

    private List<ReplayOutput.State> states() throws IOException {
        if (in.peek() != JsonToken.BEGIN_ARRAY) {
            throw new IllegalArgumentException("\"states\" is not a JSON array: it is " + kind());
        }
        List<ReplayOutput.State> states = new ArrayList<>();
        in.beginArray();
        while (in.hasNext()) {
            if (states.size() == MAX_STATES) {
                throw new IllegalArgumentException("\"states\" lists more than " + MAX_STATES + " states, the most a"
                        + " bound and a draw give");
            }
            states.add(state(states.size() + 1));
        }
        in.endArray();
        return states;
    }

    private ReplayOutput.State state(int number) throws IOException {
        String where = "state " + number + " of \"states\"";
        Fields f = new Fields(where);
        String state = null;
        int lost = 0;
        boolean checked = false;
        boolean passed = false;
        String failure = null;
        List<String> explanation = null;
        object(where);
        while (in.hasNext()) {
            String name = f.next(in.nextName());
            String field = "\"" + name + "\" of " + where;
            switch (name) {
                case "state" -> state = string(field);
                case "lost" -> lost = whole(field, 0, Integer.MAX_VALUE);
                case "checked" -> checked = bool(field);
                case "passed" -> passed = bool(field);
                case "failure" -> failure = nullOr(field) ? null : string(field);
                case "explanation" -> explanation = nullOr(field) ? null : strings(field);
                default -> in.skipValue();
            }
        }
        in.endObject();
        f.required("state", "lost", "checked", "passed");
        if (passed && !checked) {
            throw new IllegalArgumentException("\"passed\" of " + where + " is true, but it was not checked");
        }
        if (passed && failure != null) {
            throw new IllegalArgumentException("\"failure\" of " + where + " is given, but it passed");
        }
        return new ReplayOutput.State(state, lost, checked, passed, failure, explanation);
    }

    /** The document's counts, each what its states make: a merge sums the states, never a count said. */
    private static void counted(ReplayOutput.Document d) {
        int checked = 0;
        int failed = 0;
        for (ReplayOutput.State s : d.states()) {
            checked += s.checked() ? 1 : 0;
            failed += s.checked() && !s.passed() ? 1 : 0;
        }
        agrees("checked", d.checked(), checked, "of its states were checked");
        agrees("failed", d.failed(), failed, "of its states failed");
        agrees("passed", d.passed(), checked - failed, "of its states passed");
        agrees("otherShards", d.otherShards(), d.states().size() - checked, "of its states were not checked");
    }

    private static void agrees(String field, int said, int counted, String what) {
        if (said != counted) {
            throw new IllegalArgumentException("\"" + field + "\" is " + said + ", but " + counted + " " + what);
        }
    }

    // ------------------------------------------------------------------ typed, bounded values

    /**
     * The field's whole number, from {@code min} to {@code max}: read as the text it is, so that nothing past a
     * long is rounded, and checked before a caller narrows it (an int field's {@code max} is an int's).
     */
    private int whole(String field, int min, int max) throws IOException {
        return (int) whole(field, min, (long) max);
    }

    private long whole(String field, long min, long max) throws IOException {
        if (in.peek() != JsonToken.NUMBER) {
            throw new IllegalArgumentException(quoted(field) + " is not a number: it is " + kind());
        }
        String text = in.nextString();
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(quoted(field) + " is " + Brief.of(text) + ", not a whole number from "
                    + min + " to " + max);
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(quoted(field) + " is " + v + ", not from " + min + " to " + max);
        }
        return v;
    }

    private double seconds(String field) throws IOException {
        if (in.peek() != JsonToken.NUMBER) {
            throw new IllegalArgumentException(quoted(field) + " is not a number: it is " + kind());
        }
        double v = in.nextDouble();
        // At most MAX_SECONDS: a million shards' sum stays a finite number to print.
        if (!(v >= 0 && v <= MAX_SECONDS)) {
            throw new IllegalArgumentException(quoted(field) + " is " + v + ", not a time from 0 to " + MAX_SECONDS
                    + " s");
        }
        return v;
    }

    private String string(String field) throws IOException {
        if (in.peek() != JsonToken.STRING) {
            throw new IllegalArgumentException(quoted(field) + " is not a string: it is " + kind());
        }
        return in.nextString();
    }

    private boolean bool(String field) throws IOException {
        if (in.peek() != JsonToken.BOOLEAN) {
            throw new IllegalArgumentException(quoted(field) + " is not true or false: it is " + kind());
        }
        return in.nextBoolean();
    }

    private List<String> strings(String field) throws IOException {
        if (in.peek() != JsonToken.BEGIN_ARRAY) {
            throw new IllegalArgumentException(quoted(field) + " is not a JSON array: it is " + kind());
        }
        List<String> lines = new ArrayList<>();
        in.beginArray();
        while (in.hasNext()) {
            lines.add(string(field));
        }
        in.endArray();
        return lines;
    }

    /** Whether the value is null, which is then read. */
    private boolean nullOr(String field) throws IOException {
        if (in.peek() == JsonToken.NULL) {
            in.nextNull();
            return true;
        }
        return false;
    }

    private void object(String what) throws IOException {
        if (in.peek() != JsonToken.BEGIN_OBJECT) {
            throw new IllegalArgumentException(what + " is not a JSON object: it is " + kind());
        }
        in.beginObject();
    }

    private static <E extends Enum<E>> void word(String field, String value, E[] allowed) {
        for (E e : allowed) {
            if (e.name().toLowerCase(Locale.ROOT).equals(value)) {
                return;
            }
        }
        throw new IllegalArgumentException("\"" + field + "\" is " + Brief.of(value) + ", not one of "
                + Arrays.toString(allowed).toLowerCase(Locale.ROOT));
    }

    /** What the next value is, for a message: its JSON kind, never its text, which may be any size. */
    private String kind() throws IOException {
        return switch (in.peek()) {
            case BEGIN_OBJECT -> "an object";
            case BEGIN_ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "true or false";
            case NULL -> "null";
            default -> in.peek().toString();
        };
    }

    private static String quoted(String field) {
        return field.startsWith("\"") ? field : "\"" + field + "\"";
    }

    /** The fields of one object: each given once, the required ones all there. */
    private static final class Fields {
        private final String where;
        private final Set<String> seen = new HashSet<>();

        Fields(String where) {
            this.where = where;
        }

        String next(String name) {
            if (!seen.add(name)) {
                throw new IllegalArgumentException("\"" + Brief.of(name) + "\" is given twice in " + where);
            }
            return name;
        }

        void required(String... names) {
            for (String n : names) {
                if (!seen.contains(n)) {
                    throw new IllegalArgumentException("\"" + n + "\" is missing from " + where);
                }
            }
        }
    }
}
