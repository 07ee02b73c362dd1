package io.flushcheck.powercut.internal.states;

import io.flushcheck.powercut.internal.drive.WriteLog;
import io.flushcheck.powercut.internal.model.MalformedRecordingException;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A drive's recording ({@link WriteLog}) read back: its writes by epoch, each write's bytes left in the
 * file (at {@link RecordedWrite#at()}) and only its units' hashes in the heap. Epochs without writes are
 * left out, but the last: a state of them is the image of the epoch before with all its writes, which
 * the next epoch's first state, or the end of the recording, checks with more flushes completed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Recording {

    private Recording() {
    }

    /** The epochs of the recording in {@code log}, first first; the last ends where the recording did. */
    public static List<Epoch> epochs(Path log) throws IOException {
        List<Epoch> epochs = new ArrayList<>();
        try (InputStream file = Files.newInputStream(log);
             DataInputStream in = new DataInputStream(new BufferedInputStream(file, 1 << 20))) {
            if (in.read() != WriteLog.START) {
                throw new MalformedRecordingException(log + " is not a drive's recording");
            }
            long flushes = in.readLong();
            long at = 9;
            List<RecordedWrite> writes = new ArrayList<>();
            MessageDigest digest = sha256();
            byte[] unit = new byte[RecordedWrite.UNIT];
            for (int type = in.read(); type >= 0; type = in.read()) {
                if (type == WriteLog.WRITE) {
                    long offset = in.readLong();
                    int length = in.readInt();
                    at += 13;
                    long[] hashes = new long[length / RecordedWrite.UNIT];
                    for (int u = 0; u < hashes.length; u++) {
                        in.readFully(unit);
                        hashes[u] = ByteBuffer.wrap(digest.digest(unit)).getLong();
                    }
                    in.readFully(unit, 0, length % RecordedWrite.UNIT); // none: RecordedWrite refuses such a write
                    writes.add(new RecordedWrite(offset, length, at, hashes));
                    at += length;
                } else if (type == WriteLog.FLUSH) {
                    long after = in.readLong();
                    at += 9;
                    if (!writes.isEmpty()) {
                        epochs.add(new Epoch(flushes, writes));
                        writes = new ArrayList<>();
                    }
                    flushes = after;
                } else {
                    throw new MalformedRecordingException(log + " holds an unknown record " + type + " at byte " + at);
                }
            }
            epochs.add(new Epoch(flushes, writes));
        } catch (EOFException e) {
            throw new MalformedRecordingException(log + " ends in the middle of a record: the recording was not"
                    + " stopped", e);
        } catch (RuntimeException e) {
            throw new MalformedRecordingException(log + " holds a record that cannot be read: " + e, e);
        }
        return epochs;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
