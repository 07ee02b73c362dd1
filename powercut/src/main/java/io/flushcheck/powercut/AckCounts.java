package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.host.DriveClient;
import io.flushcheck.powercut.internal.model.FlushSizes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * What a {@link SimulatedDisk}'s drive tells as acknowledgements are noted ({@link AcknowledgedRecords}): its failures
 * and completed flushes at the time, and the sizes of a watched file of acknowledgements at its flushes.
 */
final class AckCounts {

    private final SimulatedDisk disk;
    private final DriveClient drive;

    AckCounts(SimulatedDisk disk, DriveClient drive) {
        this.disk = disk;
        this.drive = drive;
    }

    /**
     * Has the drive read the size of {@code file} as each flush completes, before the flush's sync returns, until
     * {@link #watchedSizes()}: a regular file off this disk (reading one on it would wait on the drive's own answer).
     */
    void watchSize(Path file) throws IOException {
        Path real = file.toRealPath();
        if (real.startsWith(disk.path().toRealPath())) {
            throw new IllegalArgumentException(file + " is on the simulated disk itself: a file to watch at its flushes"
                    + " lies elsewhere");
        }
        try {
            drive.watchSize(real);
        } catch (DriveClient.Refused r) {
            throw new IllegalArgumentException("the simulated drive cannot watch " + file + ": " + r.reason());
        }
    }

    /** The sizes the drive read since {@link #watchSize}, which ends. */
    FlushSizes watchedSizes() throws IOException {
        return drive.watchedSizes();
    }

    /**
     * Flushes and writes the drive has failed so far, and the flushes it has completed, read in one answer
     * of the drive: {failures, flushes}; null once the power has gone. The power is asked first: a record
     * noted while it was still on was acknowledged before the cut, and counts.
     */
    long[] failuresAndFlushes() {
        if (!disk.powered()) {
            return null;
        }
        DriveClient.Stats s = stats();
        return new long[] {s.failedFlushes() + s.failedWrites(), s.flushes()};
    }

    /**
     * Flushes and writes the drive has failed so far, asked once the power may have gone (the drive still answers
     * after a cut at an armed flush); -1 when it does not answer.
     */
    long failuresEvenUnpowered() {
        try {
            DriveClient.Stats s = drive.stats();
            return s.failedFlushes() + s.failedWrites();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private DriveClient.Stats stats() {
        try {
            return drive.stats();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
