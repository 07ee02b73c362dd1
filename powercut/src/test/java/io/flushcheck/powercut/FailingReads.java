package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How the tests of failing reads ({@link SimulatedDisk#failReads}) read a file whose reads the drive fails, with the
 * power on or on the survivor: a bad range read twice, and what a read gave, as their lines show it.
 */
final class FailingReads {

    private FailingReads() {
    }

    /** The disk's failed reads after the first and after the second of two reads of a bad range. */
    record FailedTwice(long afterOne, long afterTwo) {
    }

    /**
     * Reads {@code file} twice, each read failing with EIO ("Input/output error"), the second as {@code stays} says
     * (a bad sector stays bad); the disk's failed reads after each.
     */
    static FailedTwice failTwice(SimulatedDisk disk, Path file, String stays) {
        assertThatThrownBy(() -> Files.readString(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("Input/output error");
        long afterOne = disk.failedReads();
        assertThatThrownBy(() -> Files.readString(file)).as(stays).isInstanceOf(IOException.class)
                .hasMessageContaining("Input/output error");
        return new FailedTwice(afterOne, disk.failedReads());
    }

    /** The file's text, or the message of the error reading it. */
    static String readOrError(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** A read as a test's line shows it: "the bytes", or the message of the error it met. */
    static String shown(String read) {
        return read.length() > 20 ? "the bytes" : read;
    }
}
