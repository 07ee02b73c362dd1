package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.host.DriveHost;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A simulated disk's drive as the disk and its model ask it: commands answered by this JVM's
 * {@link DriveHost}, a process of its own whose death the kernel sees.
 */
final class DriveCommands {

    private final DriveHost.Disk drive;
    private final long pid;

    DriveCommands(DriveHost.Disk drive, long pid) {
        this.drive = drive;
        this.pid = pid;
    }

    /** The drive's answer to {@code command}; a dead or failed server is a {@link DriveServerFailedException}, never an answer. */
    synchronized String ask(String command) throws IOException {
        try {
            return drive.ask(command);
        } catch (DriveHost.ServerFailure e) {
            throw new DriveServerFailedException(e.getMessage(), e);
        }
    }

    /** Asks the server to stop serving the drive: its answer, or an {@link IOException} when it is gone already. */
    String quit() throws IOException {
        return drive.ask("quit");
    }

    /** The drive's figures, {@code flushes F unflushed U failed N failed-writes W}, word by word. */
    String[] stats() {
        try {
            String r = ask("stats");
            // anything else is no answer, not figures to read
            String[] w = r.split(" ");
            if (w.length != 8 || !w[0].equals("flushes")) {
                throw new IOException("the simulated drive did not answer stats: " + r);
            }
            return w;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flushes the drive has completed so far. */
    long flushes() {
        return Long.parseLong(stats()[1]);
    }

    /** The PID of the server process (for the file model, the one its disks share). */
    long pid() {
        return pid;
    }
}
