package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.MalformedRecordingException;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A file tree's recording ({@link FileTree#record}) played again into a tree of its own, under the same
 * rules, stopping at the end of each epoch: before each sync is carried out (the changes since the one
 * before are all made, and none of them is durable by it yet), and at the end of the recording. There the
 * tree holds what a cut at that moment would choose from ({@link FileTree#statePicks()}). It is played through
 * whole ({@link #replay}, each epoch's end handed to a callback), or stepped from one epoch's end to the next
 * ({@link #open}, {@link #next}), for a caller that takes each epoch's states when it is ready for them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TreeReplay implements AutoCloseable {

    /** What is done at the end of each epoch. */
    @FunctionalInterface
    public interface AtEpochEnd {
        /**
         * Called with the tree at the end of epoch {@code epoch} (counted from 0), which started after
         * {@code flushesBefore} completed flushes; {@code last} at the end of the recording.
         */
        void at(FileTree tree, int epoch, long flushesBefore, boolean last) throws IOException;
    }

    /** What a replay went through. */
    public record Replayed(int epochs, long operations) {
    }

    /**
     * The end of epoch {@code epoch} (counted from 0), which started after {@code flushesBefore} completed flushes;
     * {@code last} at the end of the recording: {@code tree} is as it was then until the next step.
     */
    public record EpochEnd(FileTree tree, int epoch, long flushesBefore, boolean last) {
    }

    /** The largest file a recording may make: past it, a size is the recording's fault, not this machine's limit. */
    static final long MOST_BYTES = 1L << 40;
    /** The longest name a recording may hold, in bytes (UTF-8), as Linux's NAME_MAX. */
    static final int NAME_MAX = 255;

    private final DataInputStream in;
    private final RegularFile.Reader position;
    private final long size;
    private final String log;
    private final FileTree tree;
    /** Whether the tree keeps bytes: else each write's bytes are read into {@link #skipped}, over and over. */
    private final boolean bytes;
    private byte[] skipped = new byte[0];
    /** This tree's node for each of the recorded tree's, which the recording names them by. */
    private final Map<Long, Long> nodes = new HashMap<>();
    /** The flushes completed before the epoch being played. */
    private long flushes;
    private boolean based;
    private int epoch;
    private long operations;
    /** The sync whose epoch's end {@link #next} returned last, carried out at the next step; null for none. */
    private long[] pendingSync;
    private boolean ended;

    private TreeReplay(DataInputStream in, RegularFile.Reader position, long size, String log, FileTree tree,
                       boolean bytes, long flushes) {
        this.in = in;
        this.position = position;
        this.size = size;
        this.log = log;
        this.tree = tree;
        this.bytes = bytes;
        this.flushes = flushes;
        nodes.put(FileTree.ROOT, FileTree.ROOT);
    }

    /**
     * Plays {@code recording} again in a tree kept under {@code scratch}, calling {@code at} at each epoch's end: a
     * tree that keeps the bytes its crash states are written out with ({@code bytes}, {@link FileTree#save}), or
     * their sizes alone, which makes no file of its own for each file the recording makes.
     */
    public static Replayed replay(RegularFile recording, Path scratch, boolean bytes, AtEpochEnd at)
            throws IOException {
        try (TreeReplay replay = open(recording, scratch, bytes)) {
            for (EpochEnd end = replay.next(); end != null; end = replay.next()) {
                at.at(end.tree(), end.epoch(), end.flushesBefore(), end.last());
            }
            return new Replayed(replay.epoch, replay.operations);
        }
    }

    /**
     * {@code recording} to be played again step by step ({@link #next}) in a tree kept under {@code scratch}, as
     * {@link #replay} plays it; closed, it removes the tree.
     */
    public static TreeReplay open(RegularFile recording, Path scratch, boolean bytes) throws IOException {
        RegularFile.Reader reader = recording.reader();
        DataInputStream in = new DataInputStream(reader);
        try {
            if (in.read() != TreeLog.START) {
                throw new MalformedRecordingException(recording.path() + " is not a file tree's recording");
            }
            boolean journaled = in.readBoolean();
            long flushes = in.readLong();
            if (flushes < 0) {
                throw new MalformedRecordingException(recording.path() + ": its start's count of flushes " + flushes
                        + " is negative");
            }
            FileTree tree = new FileTree(0, 0, scratch, Long.MAX_VALUE, journaled,
                    bytes ? FileTree.Versions.DURABLE : FileTree.Versions.SIZES);
            return new TreeReplay(in, reader, recording.size(), recording.path().toString(), tree, bytes, flushes);
        } catch (EOFException e) {
            in.close();
            throw new MalformedRecordingException(recording.path() + " ends in the middle of a record: the recording"
                    + " was not stopped", e);
        } catch (IOException | RuntimeException | Error e) {
            in.close();
            throw e;
        }
    }

    /**
     * Plays on to the end of the next epoch: the tree is as it was then until the next call. Null once the end of
     * the recording was returned.
     */
    public EpochEnd next() throws IOException {
        if (ended) {
            return null;
        }
        try {
            return step();
        } catch (FileTree.Errno e) {
            throw new MalformedRecordingException(log + " does not play again: a change failed with errno "
                    + e.errno(), e);
        } catch (EOFException e) {
            throw new MalformedRecordingException(log + " ends in the middle of a record: the recording was not"
                    + " stopped", e);
        }
    }

    /** Removes the tree and closes the recording. */
    @Override
    public void close() throws IOException {
        ended = true;
        try {
            tree.close();
        } finally {
            in.close();
        }
    }

    /**
     * The epochs and operations of {@code recording} as {@link #replay} would find them, read from its records alone,
     * with no tree made: for a recording this process's own server just made. Its records are read through and their
     * lengths checked; what they say is checked by the replays that play it (a loaded recording is replayed whole).
     */
    public static Replayed count(RegularFile recording) throws IOException {
        RegularFile.Reader reader = recording.reader();
        try (DataInputStream in = new DataInputStream(reader)) {
            if (in.read() != TreeLog.START) {
                throw new MalformedRecordingException(recording.path() + " is not a file tree's recording");
            }
            in.readBoolean();
            in.readLong();
            boolean based = false;
            int epochs = 0;
            long operations = 0;
            for (int type = in.read(); type >= 0; type = in.read()) {
                switch (type) {
                    case TreeLog.BASE -> based = true;
                    case TreeLog.SYNC -> {
                        in.readLong();
                        in.readLong();
                        epochs++;
                    }
                    default -> {
                        skip(in, type, recording.size() - reader.position(), recording);
                        operations += based ? 1 : 0;
                    }
                }
            }
            return new Replayed(epochs + 1, operations);
        } catch (EOFException e) {
            throw new MalformedRecordingException(recording.path() + " ends in the middle of a record: the recording"
                    + " was not stopped", e);
        }
    }

    /** Reads past the fields of a record of {@code type} but a sync's or the base's, {@code left} bytes being left. */
    private static void skip(DataInputStream in, int type, long left, RegularFile recording) throws IOException {
        switch (type) {
            case TreeLog.CREATE -> {
                in.readLong();
                in.readUTF();
                in.readBoolean();
                in.readInt();
                in.readLong();
            }
            case TreeLog.UNNAMED, TreeLog.MODE -> {
                in.readLong();
                in.readInt();
            }
            case TreeLog.LINK -> {
                in.readLong();
                in.readLong();
                in.readUTF();
            }
            case TreeLog.REMOVE -> {
                in.readLong();
                in.readUTF();
                in.readBoolean();
            }
            case TreeLog.RENAME -> {
                in.readLong();
                in.readUTF();
                in.readLong();
                in.readUTF();
            }
            case TreeLog.WRITE -> {
                in.readLong();
                in.readLong();
                int length = in.readInt();
                if (length < 0 || length > left - 20) {
                    throw new MalformedRecordingException(recording.path() + ": a write's length " + length
                            + " is not within the bytes the log has left");
                }
                in.skipNBytes(length);
            }
            case TreeLog.TRUNCATE -> {
                in.readLong();
                in.readLong();
            }
            case TreeLog.CLOSED -> in.readLong();
            default -> throw new MalformedRecordingException("a file tree's recording holds an unknown record " + type);
        }
    }

    /** Whether {@code recording} was made under the journaled rules (else POSIX's), as its first record says. */
    public static boolean journaled(RegularFile recording) throws IOException {
        try (DataInputStream in = new DataInputStream(recording.reader())) {
            if (in.read() != TreeLog.START) {
                throw new MalformedRecordingException(recording.path() + " is not a file tree's recording");
            }
            return in.readBoolean();
        } catch (EOFException e) {
            throw new MalformedRecordingException(recording.path() + " ends in the middle of a record: the recording"
                    + " was not stopped", e);
        }
    }

    private EpochEnd step() throws IOException, FileTree.Errno {
        if (pendingSync != null) {
            long[] sync = pendingSync;
            pendingSync = null;
            if (tree.syncResult(sync[0]) != 0) {
                throw new MalformedRecordingException("a recorded sync failed as it was played again");
            }
            flushes = sync[1];
        }
        for (int type = in.read(); type >= 0; type = in.read()) {
            if (type == TreeLog.BASE) {
                tree.commitAll();
                based = true;
                continue;
            }
            long record = position.position() - 1;
            if (type == TreeLog.SYNC) {
                long node = node(in.readLong());
                long after = in.readLong();
                if (after < 0) {
                    throw outOfRange(record, "a sync's count of flushes " + after + " is negative");
                }
                // The sync is carried out at the next step: the tree stays at this epoch's end till then.
                pendingSync = new long[] {node, after};
                return new EpochEnd(tree, epoch++, flushes, false);
            }
            try {
                apply(type, record);
            } catch (RuntimeException e) {
                // What the bytes say cannot be done (a negative length, a name the tree refuses): the log's fault.
                throw new MalformedRecordingException(log + ": the record " + type + " at byte " + record
                        + " cannot be played again: " + e, e);
            }
            if (based) {
                operations++;
            }
        }
        ended = true;
        return new EpochEnd(tree, epoch++, flushes, true);
    }

    private void apply(int type, long record) throws IOException, FileTree.Errno {
        switch (type) {
            case TreeLog.CREATE -> {
                long parent = node(in.readLong());
                String name = name(in.readUTF(), record);
                boolean dir = in.readBoolean();
                int mode = in.readInt();
                nodes.put(in.readLong(), tree.create(parent, name, dir, mode, 0, 0).id());
            }
            case TreeLog.UNNAMED -> {
                long recorded = in.readLong();
                nodes.put(recorded, tree.unnamed(in.readInt()).id());
            }
            case TreeLog.LINK -> {
                long node = node(in.readLong());
                long parent = node(in.readLong());
                tree.link(node, parent, name(in.readUTF(), record));
            }
            case TreeLog.REMOVE -> {
                long parent = node(in.readLong());
                tree.remove(parent, name(in.readUTF(), record), in.readBoolean());
            }
            case TreeLog.RENAME -> {
                long parent = node(in.readLong());
                String name = name(in.readUTF(), record);
                long newParent = node(in.readLong());
                tree.rename(parent, name, newParent, name(in.readUTF(), record), false);
            }
            case TreeLog.WRITE -> {
                long node = node(in.readLong());
                long offset = in.readLong();
                int length = in.readInt();
                long left = size - position.position();
                if (length < 0 || length > left) {
                    throw outOfRange(record, "a write's length " + length + " is not within the " + left
                            + " bytes the log has left");
                }
                if (offset < 0 || offset > MOST_BYTES - length) {
                    throw outOfRange(record, "a write of " + length + " bytes at offset " + offset + " is not within"
                            + " the " + MOST_BYTES + " bytes a file may hold");
                }
                if (!bytes && skipped.length < length) {
                    skipped = new byte[length];
                }
                byte[] data = bytes ? new byte[length] : skipped;
                in.readFully(data, 0, length);
                tree.write(node, offset, ByteBuffer.wrap(data, 0, length));
            }
            case TreeLog.TRUNCATE -> {
                long node = node(in.readLong());
                long to = in.readLong();
                if (to < 0 || to > MOST_BYTES) {
                    throw outOfRange(record, "a truncation's size " + to + " is not within the " + MOST_BYTES
                            + " bytes a file may hold");
                }
                tree.truncate(node, to);
            }
            case TreeLog.CLOSED -> tree.closed(node(in.readLong()));
            case TreeLog.MODE -> {
                long node = node(in.readLong());
                tree.setAttributes(node, in.readInt(), null, null, null);
            }
            default -> throw new MalformedRecordingException("a file tree's recording holds an unknown record " + type);
        }
    }

    /** A name of the recording, refused unless it is one a directory can hold. */
    private String name(String name, long record) throws MalformedRecordingException {
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes == 0 || bytes > NAME_MAX || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0 || name.equals(".")
                || name.equals("..")) {
            throw outOfRange(record, "a name of " + bytes + " bytes is not one a directory holds (1 to " + NAME_MAX
                    + " bytes, no '/' or NUL, not . or ..)");
        }
        return name;
    }

    private MalformedRecordingException outOfRange(long record, String why) {
        return new MalformedRecordingException(log + ": the record at byte " + record + " is out of range: " + why);
    }

    /** This tree's node for the recorded tree's {@code recorded}. */
    private long node(long recorded) throws IOException {
        Long mine = nodes.get(recorded);
        if (mine == null) {
            throw new MalformedRecordingException("a file tree's recording names node " + recorded + ", which it never"
                    + " made (a directory removed before the recording started, still open?)");
        }
        return mine;
    }
}
