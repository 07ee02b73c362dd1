package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.disk.RecordingFiles;
import io.flushcheck.powercut.internal.drive.ImageContent;
import io.flushcheck.powercut.internal.drive.SparseCopy;
import io.flushcheck.powercut.internal.explain.TreeView;
import io.flushcheck.powercut.internal.kernel.Superblocks;
import io.flushcheck.powercut.internal.model.Sha256;
import io.flushcheck.powercut.internal.states.WritePlaces;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
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
 * alike): two shards' reports of one recording carry the same id, of different recordings different ones.
 *
 * <p>A recording comes from anyone: a load opens each file once, a regular file itself (never a link, FIFO or
 * device), checks its size and hash on what it opened and keeps it open for the states to be made from; every number
 * and name the manifest holds is checked against its range before it is used, and the base image must hold the
 * filesystem the manifest names, one of {@link Superblocks#MOUNTED}. A save writes only into a directory made now or
 * an empty one its user owns and no other can write ({@link SaveDirectory}), each file new and its owner's alone.
 */
final class SavedRecording {

    static final String MANIFEST = "manifest.txt";
    static final String BASE = "base.img";
    static final String LOG = "recording.log";
    private static final String VERSION = "flushcheck recording 3";
    /** The largest manifest read: a manifest is lines of names and numbers, far smaller than this. */
    static final long MANIFEST_MOST = 64L << 20;
    /** The largest base image, and drive, a recording may name. */
    static final long BASE_MOST = 1L << 40;

    /**
     * What {@link #load} read, its files held open in {@code files} (the caller closes them). A file model's has no
     * base, {@code fsType}, {@code places} or {@code ended}: null, and its {@code atomicUnit} is 1.
     */
    record Loaded(String id, DiskModel model, RecordingFiles files, AcknowledgedRecords acknowledged, String fsType,
                  int atomicUnit, WritePlaces places, TreeView ended) {
    }

    private SavedRecording() {
    }

    /** Saves into {@code dir}, made now (an empty one is taken); returns the recording's id. */
    static String save(Path dir, RegularFile base, RegularFile log, AcknowledgedRecords acknowledged, String fsType,
                       int atomicUnit, WritePlaces places, TreeView ended) throws IOException {
        try (SaveDirectory saving = SaveDirectory.open(dir)) {
            StringBuilder m = new StringBuilder(VERSION).append('\n').append("model block\n");
            m.append("fs ").append(word(fsType)).append('\n');
            m.append("atomic-unit ").append(atomicUnit).append('\n');
            try (FileChannel out = saving.create(BASE)) {
                String baseSha256 = SparseCopy.copy(base, out);
                m.append("base ").append(base.size()).append(' ').append(baseSha256).append('\n');
            }
            log(saving, log, acknowledged, m);
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
            return manifest(saving, m);
        }
    }

    /**
     * Saves a file model's recording into {@code dir}, made now (an empty one is taken): its log of operations,
     * which holds the rules and the tree as it was, and what was acknowledged; returns the recording's id.
     */
    static String saveFiles(Path dir, RegularFile log, AcknowledgedRecords acknowledged) throws IOException {
        try (SaveDirectory saving = SaveDirectory.open(dir)) {
            StringBuilder m = new StringBuilder(VERSION).append('\n').append("model file\n");
            log(saving, log, acknowledged, m);
            return manifest(saving, m);
        }
    }

    /** Copies the log into the directory, naming it and the acknowledgements in the manifest {@code m}. */
    private static void log(SaveDirectory saving, RegularFile log, AcknowledgedRecords acknowledged, StringBuilder m)
            throws IOException {
        MessageDigest d = Sha256.digest();
        long copied = 0;
        try (FileChannel out = saving.create(LOG)) {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
            for (int n; (n = log.channel().read(buffer.clear(), copied)) > 0; copied += n) {
                buffer.flip();
                d.update(buffer.duplicate());
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
        }
        m.append("log ").append(copied).append(' ').append(Sha256.hex(d)).append('\n');
        for (AcknowledgedRecords.Ack a : acknowledged.noted()) {
            m.append("ack ").append(a.flushes()).append(' ').append(a.failuresBefore()).append(' ')
                    .append(word(a.record())).append('\n');
        }
    }

    private static String manifest(SaveDirectory saving, StringBuilder m) throws IOException {
        byte[] manifest = m.toString().getBytes(StandardCharsets.UTF_8);
        try (FileChannel out = saving.create(MANIFEST)) {
            ByteBuffer b = ByteBuffer.wrap(manifest);
            while (b.hasRemaining()) {
                out.write(b);
            }
        }
        return id(manifest);
    }

    /** A file of the recording as the manifest names it: its size and SHA-256, and the line that says them. */
    private record Named(long size, String sha256, int line) {
    }

    /**
     * Reads a recording {@link #save} kept in {@code dir}, refusing one that is not whole or holds a value out of
     * range; its files are returned open, as checked.
     *
     * @throws UnreadableRecordingException when it is refused: the message says which file (and line) and why
     * @throws IOException when a file of it cannot be read
     */
    static Loaded load(Path dir) throws IOException {
        Path file = dir.resolve(MANIFEST);
        byte[] manifest = manifest(dir);
        List<String> lines = new String(manifest, StandardCharsets.UTF_8).lines().toList();
        DiskModel model = null;
        Named base = null;
        Named log = null;
        String fsType = null;
        int atomicUnit = 0;
        List<AcknowledgedRecords.Ack> acks = new ArrayList<>();
        List<WritePlaces.Owned> owned = new ArrayList<>();
        Map<String, TreeView.Entry> entries = new TreeMap<>();
        String endedRoot = null;
        boolean complete = false;
        for (int i = 1; i < lines.size(); i++) {
            Line f = new Line(lines.get(i).split(" ", -1));
            try {
                boolean modelLine = f.key().equals("model");
                if (modelLine != (i == 1)) {
                    throw new UnreadableRecordingException(modelLine ? "a model after the second line"
                            : "the second line names no model (model block or model file)");
                }
                switch (f.key()) {
                    case "model" -> model = model(f.fields(2).word(1, "model"));
                    case "fs" -> fsType = f.once(fsType).fields(2).oneOf(1, "filesystem", Superblocks.MOUNTED);
                    case "atomic-unit" -> atomicUnit = f.once(atomicUnit == 0 ? null : atomicUnit).fields(2)
                            .oneOf(1, "bytes", List.of(512, 1024, 2048, 4096));
                    case "base" -> base = new Named(f.once(base).fields(3).number(1, "size", 1, BASE_MOST),
                            f.sha256(2), i + 1);
                    case "log" -> log = new Named(f.once(log).fields(3).number(1, "size", 0, Long.MAX_VALUE),
                            f.sha256(2), i + 1);
                    case "ack" -> acks.add(new AcknowledgedRecords.Ack(f.fields(4).text(3, "record"),
                            f.number(2, "failures before it", 0, Long.MAX_VALUE),
                            f.number(1, "count of flushes", 0, Long.MAX_VALUE)));
                    case "place" -> {
                        long device = f.fields(5).number(1, "drive offset", 0, BASE_MOST);
                        long length = f.number(3, "length", 1, BASE_MOST - device);
                        owned.add(new WritePlaces.Owned(f.text(4, "name"), f.number(2, "file offset", 0,
                                Long.MAX_VALUE), device, length));
                    }
                    case "ended" -> {
                        complete = f.once(endedRoot).fields(3).oneOf(1, "completeness",
                                List.of("complete", "incomplete")).equals("complete");
                        endedRoot = f.text(2, "root");
                    }
                    case "entry" -> entries.put(f.fields(6).text(5, "name"), new TreeView.Entry(
                            f.oneOf(1, "kind", List.of("d", "f")).equals("d"),
                            f.number(2, "inode", 0, Long.MAX_VALUE), f.number(3, "size", 0, Long.MAX_VALUE),
                            FileTime.from(f.number(4, "modification time", Long.MIN_VALUE, Long.MAX_VALUE),
                                    TimeUnit.NANOSECONDS)));
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
        if (log == null) {
            throw new UnreadableRecordingException(file + " names no log");
        }
        AcknowledgedRecords acknowledged = AcknowledgedRecords.loaded(acks);
        if (model == DiskModel.FILE) {
            if (fsType != null || base != null || !owned.isEmpty() || endedRoot != null) {
                throw new UnreadableRecordingException(file + " is a file model's and names a block model's filesystem,"
                        + " image or places");
            }
            RecordingFiles files = new RecordingFiles(null, whole(dir.resolve(LOG), file, log, Sha256::of));
            return new Loaded(id(manifest), model, files, acknowledged, null, 1, null, null);
        }
        if (fsType == null || atomicUnit == 0 || base == null) {
            throw new UnreadableRecordingException(file + " names no filesystem, no atomic unit or no base image");
        }
        for (WritePlaces.Owned o : owned) {
            if (o.device() + o.length() > base.size()) {
                throw new UnreadableRecordingException(file + ": a place's " + o.length() + " bytes at drive offset "
                        + o.device() + " end past the base image's " + base.size() + " bytes");
            }
        }
        TreeView ended = endedRoot == null ? null : TreeView.of(Path.of(endedRoot), entries, complete);
        RegularFile baseFile = whole(dir.resolve(BASE), file, base, ImageContent::sha256);
        RegularFile logFile = null;
        try {
            logFile = whole(dir.resolve(LOG), file, log, Sha256::of);
            String mismatch = Superblocks.mismatch(baseFile.channel(), fsType);
            if (mismatch != null) {
                throw new UnreadableRecordingException(baseFile.path() + " is not the filesystem " + file + " names ("
                        + fsType + "): " + mismatch);
            }
            return new Loaded(id(manifest), model, new RecordingFiles(baseFile, logFile), acknowledged, fsType,
                    atomicUnit, WritePlaces.of(owned), ended);
        } catch (IOException | RuntimeException e) {
            baseFile.close();
            if (logFile != null) {
                logFile.close();
            }
            throw e;
        }
    }

    /** A line of the manifest, its fields split at spaces, each read by what it is, refused when out of range. */
    private record Line(String[] f) {

        String key() {
            return f[0];
        }

        /** Refuses a second line of a key that is said once: {@code before} is what the first said, or null. */
        Line once(Object before) throws UnreadableRecordingException {
            if (before != null) {
                throw new UnreadableRecordingException("a second " + key() + " line");
            }
            return this;
        }

        Line fields(int n) throws UnreadableRecordingException {
            if (f.length != n) {
                throw new UnreadableRecordingException("the " + key() + " line has " + (f.length - 1) + " fields, not "
                        + (n - 1));
            }
            return this;
        }

        String word(int i, String what) throws UnreadableRecordingException {
            if (i >= f.length) {
                throw new UnreadableRecordingException("the " + key() + " line has no " + what);
            }
            return f[i];
        }

        long number(int i, String what, long least, long most) throws UnreadableRecordingException {
            String w = word(i, what);
            long n;
            try {
                n = Long.parseLong(w);
            } catch (NumberFormatException e) {
                throw new UnreadableRecordingException("the " + key() + "'s " + what + " is not a number: "
                        + shown(w));
            }
            if (n < least || n > most) {
                throw new UnreadableRecordingException("the " + key() + "'s " + what + " " + n + " is out of range ("
                        + least + " to " + most + ")");
            }
            return n;
        }

        <T> T oneOf(int i, String what, List<T> allowed) throws UnreadableRecordingException {
            String w = word(i, what);
            for (T a : allowed) {
                if (a.toString().equals(w)) {
                    return a;
                }
            }
            throw new UnreadableRecordingException("the " + key() + "'s " + what + " " + shown(w) + " is not one of "
                    + allowed.stream().map(String::valueOf).toList());
        }

        String sha256(int i) throws UnreadableRecordingException {
            String w = word(i, "SHA-256");
            if (!w.matches("[0-9a-f]{64}")) {
                throw new UnreadableRecordingException("the " + key() + "'s SHA-256 is not 64 hex digits: " + shown(w));
            }
            return w;
        }

        String text(int i, String what) throws UnreadableRecordingException {
            try {
                return URLDecoder.decode(word(i, what), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new UnreadableRecordingException("the " + key() + "'s " + what + " is not URL-encoded");
            }
        }

        /** A field as a message shows it: its start, its characters that are not printable escaped. */
        private static String shown(String w) {
            String start = w.length() > 40 ? w.substring(0, 40) + "..." : w;
            return URLEncoder.encode(start, StandardCharsets.UTF_8);
        }
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
        try {
            return model(f[1]);
        } catch (UnreadableRecordingException e) {
            throw new UnreadableRecordingException(dir.resolve(MANIFEST) + " line 2: " + e.getMessage(), e);
        }
    }

    private static DiskModel model(String word) throws UnreadableRecordingException {
        return switch (word) {
            case "block" -> DiskModel.BLOCK;
            case "file" -> DiskModel.FILE;
            default -> throw new UnreadableRecordingException("no model this flushcheck knows: " + Line.shown(word));
        };
    }

    /**
     * The manifest's bytes, refused when there is none, it is not a regular file (a FIFO is refused, not waited on),
     * it is larger than {@link #MANIFEST_MOST}, or its first line is not this version's.
     */
    private static byte[] manifest(Path dir) throws IOException {
        Path file = dir.resolve(MANIFEST);
        byte[] manifest;
        try (RegularFile in = RegularFile.open(file)) {
            long size = in.size();
            if (size > MANIFEST_MOST) {
                throw new UnreadableRecordingException(file + " has " + size + " bytes: a manifest has at most "
                        + MANIFEST_MOST);
            }
            manifest = in.reader().readNBytes((int) size);
        } catch (RegularFile.NotRegularException e) {
            throw new UnreadableRecordingException(dir + " holds no saved recording: " + e.getMessage(), e);
        }
        List<String> lines = new String(manifest, StandardCharsets.UTF_8).lines().limit(1).toList();
        if (lines.isEmpty() || !lines.get(0).equals(VERSION)) {
            throw new UnreadableRecordingException(file + " is not a manifest this flushcheck reads: its first line is"
                    + " not \"" + VERSION + "\"" + (!lines.isEmpty() && lines.get(0).startsWith("flushcheck recording ")
                    ? " (record the workload again with this version)" : ""));
        }
        return manifest;
    }

    /** How a file's SHA-256 is taken, from the file opened. */
    @FunctionalInterface
    private interface Hash {
        String of(RegularFile file) throws IOException;
    }

    /**
     * Opens {@code file} once and checks, on what it opened, that it is the size and content {@code named} says;
     * returns it open. Refuses a file that is missing or not a regular file, not the size saved (a copy cut short),
     * or not the content saved (changed or damaged since).
     */
    private static RegularFile whole(Path file, Path manifest, Named named, Hash hash) throws IOException {
        RegularFile opened;
        try {
            opened = RegularFile.open(file);
        } catch (RegularFile.NotRegularException e) {
            throw new UnreadableRecordingException(e.getMessage(), e);
        }
        try {
            long size = opened.size();
            if (size != named.size()) {
                throw new UnreadableRecordingException(file + " has " + size + " bytes, not the " + named.size()
                        + " saved (" + manifest + " line " + named.line() + ")");
            }
            String found = hash.of(opened);
            if (!found.equals(named.sha256())) {
                throw new UnreadableRecordingException(file + " is not what was saved: its SHA-256 is " + found
                        + ", not " + named.sha256());
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    private static String word(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String id(byte[] manifest) {
        MessageDigest d = Sha256.digest();
        d.update(manifest);
        return Sha256.hex(d);
    }
}
