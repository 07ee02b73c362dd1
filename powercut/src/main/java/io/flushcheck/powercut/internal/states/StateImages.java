package io.flushcheck.powercut.internal.states;

import io.flushcheck.powercut.internal.model.StoreFile;
import io.flushcheck.powercut.internal.sys.OwnerOnly;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Writes the image a {@link CrashState} leaves: the recording's base with every write of the epochs
 * before the state's, which it keeps in a file of its own and brings forward epoch by epoch (so states
 * are best asked for in epoch order), and the state's own writes of its epoch, read from the recording.
 * Images are sparse: only the 64 KiB chunks that hold data are copied.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StateImages implements AutoCloseable {

    private static final int CHUNK = 64 * 1024;

    private final FileChannel log;
    private final FileChannel rolling;
    private final Path rollingFile;
    private final long size;
    private final List<Epoch> epochs;
    /** The 64 KiB chunks of {@link #rolling} that may hold data; the others are holes. */
    private final BitSet data = new BitSet();
    /** The epoch whose start {@link #rolling} holds. */
    private int at;

    private StateImages(FileChannel log, FileChannel rolling, Path rollingFile, long size, List<Epoch> epochs) {
        this.log = log;
        this.rolling = rolling;
        this.rollingFile = rollingFile;
        this.size = size;
        this.epochs = epochs;
    }

    /**
     * Images of the states of {@code epochs}, recorded in {@code log} over the drive image {@code base} of
     * {@code size} bytes; the image of an epoch's start is kept in {@code dir}. {@code base} and {@code log} are
     * read by position, the files whose content was checked, and left open: their owner closes them. Only the
     * base's data is read, its holes skipped.
     */
    public static StateImages open(RegularFile base, FileChannel log, long size, List<Epoch> epochs, Path dir)
            throws IOException {
        Path rollingFile = dir.resolve("epoch-start.img");
        FileChannel rolling = OwnerOnly.write(rollingFile, StandardOpenOption.READ);
        StateImages images = new StateImages(log, rolling, rollingFile, size, epochs);
        try {
            images.copyBase(base);
        } catch (IOException e) {
            images.close();
            throw e;
        }
        return images;
    }

    private void copyBase(RegularFile base) throws IOException {
        rolling.truncate(0);
        FileChannel in = base.channel();
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        for (long pos = 0; pos < size; pos += CHUNK) {
            long next = base.nextData(pos);
            if (next >= size) {
                break;
            }
            if (next >= pos + CHUNK) {
                pos = next / CHUNK * CHUNK; // the chunks before lie in a hole: zeros, left a hole
            }
            chunk.clear().limit((int) Math.min(CHUNK, size - pos));
            while (chunk.hasRemaining() && in.read(chunk, pos + chunk.position()) >= 0) {
                // read it all
            }
            chunk.flip();
            if (!StoreFile.isZeros(chunk)) {
                writeFully(rolling, chunk, pos);
                data.set((int) (pos / CHUNK));
            }
        }
        setLength(rolling, size);
    }

    /** Writes the image {@code state} leaves to {@code out} (made or replaced). */
    public void write(CrashState state, Path out) throws IOException {
        if (state.epoch() < at) {
            throw new IllegalStateException("epoch " + state.epoch() + " is behind: its images were written already ("
                    + "at epoch " + at + ")");
        }
        while (at < state.epoch()) {
            for (RecordedWrite w : epochs.get(at).writes()) {
                apply(rolling, w, w.length());
                data.set((int) (w.offset() / CHUNK), (int) ((w.end() - 1) / CHUNK) + 1);
            }
            at++;
        }
        try (FileChannel image = OwnerOnly.write(out)) {
            for (int c = data.nextSetBit(0); c >= 0; ) {
                int end = data.nextClearBit(c);
                long from = (long) c * CHUNK;
                long length = Math.min((long) end * CHUNK, size) - from;
                for (long done = 0; done < length; ) {
                    done += rolling.transferTo(from + done, length - done, image.position(from + done));
                }
                c = data.nextSetBit(end);
            }
            setLength(image, size);
            List<RecordedWrite> writes = epochs.get(state.epoch()).writes();
            for (int i = 0; i < writes.size(); i++) {
                if (state.keeps(i)) {
                    apply(image, writes.get(i), writes.get(i).length());
                }
            }
            if (state.kind() == CrashState.Kind.TORN) {
                apply(image, writes.get(state.write()), state.keptBytes());
            }
        }
    }

    /** Copies the first {@code bytes} of {@code w} from the recording to {@code image}. */
    private void apply(FileChannel image, RecordedWrite w, long bytes) throws IOException {
        for (long done = 0; done < bytes; ) {
            done += log.transferTo(w.at() + done, bytes - done, image.position(w.offset() + done));
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            pos += ch.write(b, pos);
        }
    }

    /** Makes {@code ch} {@code size} bytes long, its end a hole where nothing was written. */
    private static void setLength(FileChannel ch, long size) throws IOException {
        if (ch.size() < size) {
            ch.write(ByteBuffer.allocate(1), size - 1);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            rolling.close();
        } finally {
            Files.deleteIfExists(rollingFile);
        }
    }
}
