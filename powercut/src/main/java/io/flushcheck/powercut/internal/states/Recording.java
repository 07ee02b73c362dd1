package io.flushcheck.powercut.internal.states;

import io.flushcheck.powercut.internal.drive.WriteLog;
import io.flushcheck.powercut.internal.model.MalformedRecordingException;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
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

    /**
     * The epochs of the recording in {@code log}, of a drive of {@code driveSize} bytes, first first; the last ends
     * where the recording did. Every number in it is checked before it is used: a write of whole 512-byte units
     * within the drive, its bytes within the log, counts of flushes not negative.
     *
     * @throws MalformedRecordingException when it is not a drive's recording, or a record is out of range or cut
     *                                     short: the message names the record by its byte in the log
     */
    public static List<Epoch> epochs(RegularFile log, long driveSize) throws IOException {
        List<Epoch> epochs = new ArrayList<>();
        long logSize = log.size();
        String name = log.path().toString();
        try (DataInputStream in = new DataInputStream(log.reader())) {
            if (in.read() != WriteLog.START) {
                throw new MalformedRecordingException(name + " is not a drive's recording");
            }
            long flushes = count(in.readLong(), name, 1, "start's count of flushes");
            long at = 9;
            List<RecordedWrite> writes = new ArrayList<>();
            MessageDigest digest = sha256();
            byte[] unit = new byte[RecordedWrite.UNIT];
            for (int type = in.read(); type >= 0; type = in.read()) {
                long record = at;
                if (type == WriteLog.WRITE) {
                    long offset = in.readLong();
                    int length = in.readInt();
                    at += 13;
                    String bad = length <= 0 || length % RecordedWrite.UNIT != 0
                            ? "its length " + length + " is not a positive multiple of " + RecordedWrite.UNIT
                            : offset < 0 || offset % RecordedWrite.UNIT != 0
                            ? "its drive offset " + offset + " is not a non-negative multiple of " + RecordedWrite.UNIT
                            : offset > driveSize - length
                            ? length + " bytes at drive byte " + offset + " end past the drive's " + driveSize
                            + " bytes"
                            : length > logSize - at
                            ? "its " + length + " bytes end past the log's " + logSize + " bytes" : null;
                    if (bad != null) {
                        throw new MalformedRecordingException(name + ": the write at byte " + record + " is out of"
                                + " range: " + bad);
                    }
                    long[] hashes = new long[length / RecordedWrite.UNIT];
                    for (int u = 0; u < hashes.length; u++) {
                        in.readFully(unit);
                        hashes[u] = ByteBuffer.wrap(digest.digest(unit)).getLong();
                    }
                    writes.add(new RecordedWrite(offset, length, at, hashes));
                    at += length;
                } else if (type == WriteLog.FLUSH) {
                    long after = count(in.readLong(), name, record, "flush's count of flushes");
                    at += 9;
                    if (!writes.isEmpty()) {
                        epochs.add(new Epoch(flushes, writes));
                        writes = new ArrayList<>();
                    }
                    flushes = after;
                } else {
                    throw new MalformedRecordingException(name + " holds an unknown record " + type + " at byte " + at);
                }
            }
            epochs.add(new Epoch(flushes, writes));
        } catch (EOFException e) {
            throw new MalformedRecordingException(name + " ends in the middle of a record: the recording was not"
                    + " stopped", e);
        } catch (RuntimeException e) {
            throw new MalformedRecordingException(name + " holds a record that cannot be read: " + e, e);
        }
        return epochs;
    }

    private static long count(long value, String log, long at, String what) throws MalformedRecordingException {
        if (value < 0) {
            throw new MalformedRecordingException(log + ": the record at byte " + at + " is out of range: its " + what
                    + " " + value + " is negative");
        }
        return value;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
