package io.flushcheck.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output that remembers why a write failed. A {@link java.io.PrintStream} swallows the
 * {@link IOException} of a full disk, a closed descriptor or a broken pipe and only sets a flag
 * ({@link java.io.PrintStream#checkError}); the command checks the flag and this says why.
 */
final class StdoutSink extends OutputStream {

    private final OutputStream out = new FileOutputStream(FileDescriptor.out);
    private volatile IOException failure;

    /** The first write or flush failure, or null. */
    IOException failure() {
        return failure;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw remember(e);
        }
    }

    private IOException remember(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }
}
