package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.MalformedRecordingException;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A file tree's recording ({@link FileTree#record}) played again into a tree of its own, under the same
 * rules, stopping at the end of each epoch: before each sync is carried out (the changes since the one
 * before are all made, and none of them is durable by it yet), and at the end of the recording. There the
 * tree holds what a cut at that moment would choose from ({@link FileTree#statePicks()}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TreeReplay {

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

    private final DataInputStream in;
    private final FileTree tree;
    /** This tree's node for each of the recorded tree's, which the recording names them by. */
    private final Map<Long, Long> nodes = new HashMap<>();

    private TreeReplay(DataInputStream in, FileTree tree) {
        this.in = in;
        this.tree = tree;
        nodes.put(FileTree.ROOT, FileTree.ROOT);
    }

    /** Plays {@code recording} again in a tree kept under {@code scratch}, calling {@code at} at each epoch's end. */
    public static Replayed replay(Path recording, Path scratch, AtEpochEnd at) throws IOException {
        try (InputStream file = Files.newInputStream(recording);
             DataInputStream in = new DataInputStream(new BufferedInputStream(file, 1 << 20))) {
            if (in.read() != TreeLog.START) {
                throw new MalformedRecordingException(recording + " is not a file tree's recording");
            }
            boolean journaled = in.readBoolean();
            long flushes = in.readLong();
            FileTree tree = new FileTree(0, 0, scratch, Long.MAX_VALUE, journaled);
            try {
                return new TreeReplay(in, tree).play(flushes, at);
            } catch (FileTree.Errno e) {
                throw new MalformedRecordingException(recording + " does not play again: a change failed with errno "
                        + e.errno(), e);
            } finally {
                tree.close();
            }
        } catch (EOFException e) {
            throw new MalformedRecordingException(recording + " ends in the middle of a record: the recording was not"
                    + " stopped", e);
        }
    }

    /** Whether {@code recording} was made under the journaled rules (else POSIX's), as its first record says. */
    public static boolean journaled(Path recording) throws IOException {
        try (InputStream file = Files.newInputStream(recording);
             DataInputStream in = new DataInputStream(new BufferedInputStream(file, 16))) {
            if (in.read() != TreeLog.START) {
                throw new MalformedRecordingException(recording + " is not a file tree's recording");
            }
            return in.readBoolean();
        } catch (EOFException e) {
            throw new MalformedRecordingException(recording + " ends in the middle of a record: the recording was not"
                    + " stopped", e);
        }
    }

    private Replayed play(long flushes, AtEpochEnd at) throws IOException, FileTree.Errno {
        boolean based = false;
        int epoch = 0;
        long operations = 0;
        for (int type = in.read(); type >= 0; type = in.read()) {
            if (type == TreeLog.BASE) {
                tree.commitAll();
                based = true;
                continue;
            }
            if (type == TreeLog.SYNC) {
                long node = node(in.readLong());
                long after = in.readLong();
                at.at(tree, epoch++, flushes, false);
                if (tree.syncResult(node) != 0) {
                    throw new MalformedRecordingException("a recorded sync failed as it was played again");
                }
                flushes = after;
                continue;
            }
            try {
                apply(type);
            } catch (RuntimeException e) {
                // What the bytes say cannot be done (a negative length, a name the tree refuses): the log's fault.
                throw new MalformedRecordingException("a file tree's recording holds a record " + type
                        + " that cannot be played again: " + e, e);
            }
            if (based) {
                operations++;
            }
        }
        at.at(tree, epoch++, flushes, true);
        return new Replayed(epoch, operations);
    }

    private void apply(int type) throws IOException, FileTree.Errno {
        switch (type) {
            case TreeLog.CREATE -> {
                long parent = node(in.readLong());
                String name = in.readUTF();
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
                tree.link(node, node(in.readLong()), in.readUTF());
            }
            case TreeLog.REMOVE -> {
                long parent = node(in.readLong());
                tree.remove(parent, in.readUTF(), in.readBoolean());
            }
            case TreeLog.RENAME -> {
                long parent = node(in.readLong());
                String name = in.readUTF();
                tree.rename(parent, name, node(in.readLong()), in.readUTF(), false);
            }
            case TreeLog.WRITE -> {
                long node = node(in.readLong());
                long offset = in.readLong();
                byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                tree.write(node, offset, ByteBuffer.wrap(bytes));
            }
            case TreeLog.TRUNCATE -> {
                long node = node(in.readLong());
                tree.truncate(node, in.readLong());
            }
            case TreeLog.MODE -> {
                long node = node(in.readLong());
                tree.setAttributes(node, in.readInt(), null, null, null);
            }
            default -> throw new MalformedRecordingException("a file tree's recording holds an unknown record " + type);
        }
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
