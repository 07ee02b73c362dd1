package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.drive.ImageContent;
import io.flushcheck.powercut.internal.drive.SparseCopy;
import io.flushcheck.powercut.internal.model.Sha256;
import io.flushcheck.powercut.internal.explain.TreeView;
import io.flushcheck.powercut.internal.states.WritePlaces;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A recording of {@link CrashStates} kept in a directory, to be checked elsewhere, with a text manifest, a line a
 * fact, versioned by its first line, whose second names the model. The block model's: the base image (copied
 * sparse) and the drive's write log. The file model's: the tree's log of operations alone, which starts with the
 * tree as it was and names its rules. Strings are URL-encoded, so that a record or a name with spaces or line
 * breaks stays one field of one line. The recording's id is the SHA-256 of the manifest, which names each file's
 * size and SHA-256 (the image's of its content, {@link ImageContent#sha256}, so that holes and written zeros count
 * alike): two shards' reports of one recording carry the same id, of different recordings different ones. A load
 * checks each file against it.
 */
final class SavedRecording {

    static final String MANIFEST = "manifest.txt";
    static final String BASE = "base.img";
    static final String LOG = "recording.log";
    private static final String VERSION = "flushcheck recording 3";

    /**
     * What {@link #load} read: the files stay where they are, in the saved directory. A file model's has no
     * {@code base}, {@code fsType}, {@code places} or {@code ended}: null, and its {@code atomicUnit} is 1.
     */
    record Loaded(String id, DiskModel model, Path base, Path log, AcknowledgedRecords acknowledged, String fsType,
                  int atomicUnit, WritePlaces places, TreeView ended) {
    }

    private SavedRecording() {
    }

    /** Saves into {@code dir}, made now (an empty one is taken); returns the recording's id. */
    static String save(Path dir, Path base, Path log, AcknowledgedRecords acknowledged, String fsType, int atomicUnit,
                       WritePlaces places, TreeView ended) throws IOException {
        empty(dir);
        String baseSha256 = SparseCopy.copy(base, dir.resolve(BASE));
        StringBuilder m = new StringBuilder(VERSION).append('\n').append("model block\n");
        m.append("fs ").append(word(fsType)).append('\n');
        m.append("atomic-unit ").append(atomicUnit).append('\n');
        m.append("base ").append(Files.size(base)).append(' ').append(baseSha256).append('\n');
        log(dir, log, acknowledged, m);
        for (WritePlaces.Owned o : places.owned()) {
            m.append("place ").append(o.device()).append(' ').append(o.logical()).append(' ').append(o.length())
                    .append(' ').append(word(o.name())).append('\n');
        }
        if (ended != null) {
            m.append("ended ").append(ended.complete() ? "complete" : "incomplete").append(' ')
                    .append(word(ended.root().toString())).append('\n');
            for (Map.Entry<String, TreeView.Entry> e : ended.entries().entrySet()) {
                TreeView.Entry v = e.getValue();
                m.append("entry ").append(v.directory() ? "d" : "f").append(' ').append(v.inode()).append(' ')
                        .append(v.size()).append(' ').append(v.modified().to(TimeUnit.NANOSECONDS)).append(' ')
                        .append(word(e.getKey())).append('\n');
            }
        }
        return manifest(dir, m);
    }

    /**
     * Saves a file model's recording into {@code dir}, made now (an empty one is taken): its log of operations,
     * which holds the rules and the tree as it was, and what was acknowledged; returns the recording's id.
     */
    static String saveFiles(Path dir, Path log, AcknowledgedRecords acknowledged) throws IOException {
        empty(dir);
        StringBuilder m = new StringBuilder(VERSION).append('\n').append("model file\n");
        log(dir, log, acknowledged, m);
        return manifest(dir, m);
    }

    private static void empty(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (var entries = Files.list(dir)) {
            if (entries.findAny().isPresent()) {
                throw new IOException("cannot save a recording in " + dir + ": it is not empty");
            }
        }
    }

    /** Copies the log into {@code dir}, naming it and the acknowledgements in the manifest {@code m}. */
    private static void log(Path dir, Path log, AcknowledgedRecords acknowledged, StringBuilder m) throws IOException {
        Files.copy(log, dir.resolve(LOG));
        m.append("log ").append(Files.size(log)).append(' ').append(Sha256.of(log)).append('\n');
        for (AcknowledgedRecords.Ack a : acknowledged.noted()) {
            m.append("ack ").append(a.flushes()).append(' ').append(a.failuresBefore()).append(' ')
                    .append(word(a.record())).append('\n');
        }
    }

    private static String manifest(Path dir, StringBuilder m) throws IOException {
        byte[] manifest = m.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve(MANIFEST), manifest);
        return id(manifest);
    }

    /**
     * Reads a recording {@link #save} kept in {@code dir}, refusing one that is not whole.
     *
     * @throws UnreadableRecordingException when it is not: the message says which file and why
     * @throws IOException when a file of it cannot be read
     */
    static Loaded load(Path dir) throws IOException {
        Path file = dir.resolve(MANIFEST);
        byte[] manifest = manifest(dir);
        List<String> lines = new String(manifest, StandardCharsets.UTF_8).lines().toList();
        DiskModel model = null;
        boolean baseWhole = false;
        boolean logWhole = false;
        String fsType = null;
        int atomicUnit = 0;
        List<AcknowledgedRecords.Ack> acks = new ArrayList<>();
        List<WritePlaces.Owned> owned = new ArrayList<>();
        Map<String, TreeView.Entry> entries = new TreeMap<>();
        String endedRoot = null;
        boolean complete = false;
        Path base = dir.resolve(BASE);
        Path log = dir.resolve(LOG);
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split(" ", -1);
            try {
                boolean modelLine = f[0].equals("model");
                if (modelLine != (i == 1)) {
                    throw new UnreadableRecordingException(modelLine ? "a model after the second line"
                            : "the second line names no model (model block or model file)");
                }
                switch (f[0]) {
                    case "model" -> model = model(f[1]);
                    case "fs" -> fsType = text(f[1]);
                    case "atomic-unit" -> atomicUnit = Integer.parseInt(f[1]);
                    case "base" -> {
                        whole(base, Long.parseLong(f[1]), f[2], ImageContent::sha256);
                        baseWhole = true;
                    }
                    case "log" -> {
                        whole(log, Long.parseLong(f[1]), f[2], Sha256::of);
                        logWhole = true;
                    }
                    case "ack" -> acks.add(new AcknowledgedRecords.Ack(text(f[3]), Long.parseLong(f[2]),
                            Long.parseLong(f[1])));
                    case "place" -> owned.add(new WritePlaces.Owned(text(f[4]), Long.parseLong(f[2]),
                            Long.parseLong(f[1]), Long.parseLong(f[3])));
                    case "ended" -> {
                        complete = f[1].equals("complete");
                        endedRoot = text(f[2]);
                    }
                    case "entry" -> entries.put(text(f[5]), new TreeView.Entry(f[1].equals("d"), Long.parseLong(f[2]),
                            Long.parseLong(f[3]), FileTime.from(Long.parseLong(f[4]), TimeUnit.NANOSECONDS)));
                    default -> throw new UnreadableRecordingException("unknown line");
                }
            } catch (UnreadableRecordingException e) {
                throw new UnreadableRecordingException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                throw new UnreadableRecordingException(file + " line " + (i + 1) + " cannot be read: " + e, e);
            }
        }
        if (model == null) {
            throw new UnreadableRecordingException(file + " names no model");
        }
        if (!logWhole) {
            throw new UnreadableRecordingException(file + " names no log");
        }
        AcknowledgedRecords acknowledged = AcknowledgedRecords.loaded(acks);
        if (model == DiskModel.FILE) {
            if (fsType != null || baseWhole || !owned.isEmpty() || endedRoot != null) {
                throw new UnreadableRecordingException(file + " is a file model's and names a block model's filesystem,"
                        + " image or places");
            }
            return new Loaded(id(manifest), model, null, log, acknowledged, null, 1, null, null);
        }
        if (fsType == null || atomicUnit == 0 || !baseWhole) {
            throw new UnreadableRecordingException(file + " names no filesystem, no atomic unit or no base image");
        }
        TreeView ended = endedRoot == null ? null : TreeView.of(Path.of(endedRoot), entries, complete);
        return new Loaded(id(manifest), model, base, log, acknowledged, fsType, atomicUnit, WritePlaces.of(owned),
                ended);
    }

    /**
     * The model a recording {@link #save} kept in {@code dir} was made on, read from its manifest alone: what
     * checking it needs is known before its files are read whole.
     *
     * @throws UnreadableRecordingException when there is no manifest this version reads, or it names no model
     */
    static DiskModel model(Path dir) throws IOException {
        List<String> lines = new String(manifest(dir), StandardCharsets.UTF_8).lines().toList();
        String[] f = lines.size() > 1 ? lines.get(1).split(" ", -1) : new String[0];
        if (f.length != 2 || !f[0].equals("model")) {
            throw new UnreadableRecordingException(dir.resolve(MANIFEST) + " line 2: the second line names no model"
                    + " (model block or model file)");
        }
        return model(f[1]);
    }

    private static DiskModel model(String word) throws UnreadableRecordingException {
        return switch (word) {
            case "block" -> DiskModel.BLOCK;
            case "file" -> DiskModel.FILE;
            default -> throw new UnreadableRecordingException("no model this flushcheck knows: " + word);
        };
    }

    /** The manifest's bytes, refused when there is none or its first line is not this version's. */
    private static byte[] manifest(Path dir) throws IOException {
        Path file = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(file)) {
            throw new UnreadableRecordingException(dir + " holds no saved recording: it has no " + MANIFEST);
        }
        byte[] manifest = Files.readAllBytes(file);
        List<String> lines = new String(manifest, StandardCharsets.UTF_8).lines().limit(1).toList();
        if (lines.isEmpty() || !lines.get(0).equals(VERSION)) {
            throw new UnreadableRecordingException(file + " is not a manifest this flushcheck reads: its first line is"
                    + " not \"" + VERSION + "\"" + (!lines.isEmpty() && lines.get(0).startsWith("flushcheck recording ")
                    ? " (record the workload again with this version)" : ""));
        }
        return manifest;
    }

    /** How a file's SHA-256 is taken. */
    @FunctionalInterface
    private interface Hash {
        String of(Path file) throws IOException;
    }

    /**
     * Refuses a file of the recording that is missing, not the size saved (a copy cut short), or not the content
     * saved (changed or damaged since).
     */
    private static void whole(Path file, long size, String sha256, Hash hash) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new UnreadableRecordingException(file + " is missing");
        }
        if (Files.size(file) != size) {
            throw new UnreadableRecordingException(file + " has " + Files.size(file) + " bytes, not the " + size
                    + " saved");
        }
        String found = hash.of(file);
        if (!found.equals(sha256)) {
            throw new UnreadableRecordingException(file + " is not what was saved: its SHA-256 is " + found + ", not "
                    + sha256);
        }
    }

    private static String word(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String text(String word) {
        return URLDecoder.decode(word, StandardCharsets.UTF_8);
    }

    private static String id(byte[] manifest) {
        MessageDigest d = Sha256.digest();
        d.update(manifest);
        return Sha256.hex(d);
    }
}
