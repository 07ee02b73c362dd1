package io.flushcheck.powercut.internal.host;

import io.flushcheck.powercut.internal.model.FlushSizes;
import io.flushcheck.powercut.internal.model.PowerLossModel;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A file's size read as each flush of a model completes, before its sync returns ({@link FlushSizes}): the file a
 * program appends its acknowledgements to. The program may replace or remove it; it is opened once, as a regular file
 * and not through a link ({@link RegularFile}), and only the size of the file opened is read, from its descriptor.
 */
final class SizeWatch implements AutoCloseable {

    private final PowerLossModel model;
    private final RegularFile file;
    private final FlushSizes sizes = new FlushSizes();
    /** Why a reading failed, or null: the sizes are then not to be trusted, and {@link #sizes} says so. */
    private IOException failed;

    private SizeWatch(PowerLossModel model, RegularFile file) {
        this.model = model;
        this.file = file;
    }

    /** Watches {@code path} at each flush of {@code model} from now on, until {@link #close()}. */
    static SizeWatch start(PowerLossModel model, Path path) throws IOException {
        SizeWatch w = new SizeWatch(model, RegularFile.open(path));
        model.whenCompleting(w::read);
        return w;
    }

    /** Called under the model's lock, on the thread that completes the flush. */
    private void read(long k) {
        synchronized (sizes) {
            if (failed != null) {
                return;
            }
            try {
                sizes.note(k, file.size());
            } catch (IOException | RuntimeException e) {
                failed = e instanceof IOException io ? io : new IOException(e);
            }
        }
    }

    /** The sizes read so far, as {@link FlushSizes#reply()} writes them. */
    String reply() throws IOException {
        synchronized (sizes) {
            if (failed != null) {
                throw new IOException("the size of " + file.path() + " could not be read at a flush: " + failed, failed);
            }
            return sizes.reply();
        }
    }

    /** Stops watching and closes the file. */
    @Override
    public void close() throws IOException {
        model.whenCompleting(null);
        file.close();
    }
}
