package io.flushcheck.probe;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Opens and removes the probe's files in its directory, the rules kept by {@link OwnFiles}: each created exclusively
 * (mode 0600, never through a symlink), Java's own channel for java-force included.
 */
final class ProbeFiles {

    private final SyncCalls calls;

    ProbeFiles(SyncCalls calls) {
        this.calls = calls;
    }

    /**
     * Creates a file of flushcheck's own, exclusively. Registered before it exists, so a shutdown at any
     * instant finds it; settled as ours only once created: a file that was already there (EEXIST) is never
     * removed.
     */
    int createOwn(ProbeDirectory dir, Path file, boolean dsync) {
        OwnFiles.reserve(file);
        boolean created = false;
        try {
            int fd = dir.create(file, dsync);
            created = true;
            return fd;
        } finally {
            OwnFiles.settle(file, created);
        }
    }

    void closeAndRemove(ProbeDirectory dir, int fd, Path file) {
        try {
            calls.close(fd);
        } finally {
            OwnFiles.remove(file, dir);
        }
    }

    /**
     * Java's own channel on a file created in the directory held open: Java cannot open relative to a descriptor,
     * so the file is created there natively and Java reopens it through /proc/self/fd, which reaches that very
     * file whatever became of the directory's name. Java's force then syncs it as it syncs any channel of its own.
     */
    FileChannel javaChannelAt(ProbeDirectory dir, Path file) {
        int fd = createOwn(dir, file, false);
        try {
            return FileChannel.open(Path.of("/proc/self/fd/" + fd), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            OwnFiles.remove(file, dir);
            throw new NativeCallException("java-force: open(" + file + ")", 0, describe(e));
        } finally {
            calls.close(fd);
        }
    }

    FileChannel javaChannelByPath(Path file) {
        FileChannel opened = null;
        OwnFiles.reserve(file);
        try {
            opened = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND, java.nio.file.LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (IOException e) {
            throw new NativeCallException("java-force: open(" + file + ")", 0, describe(e));
        } finally {
            OwnFiles.settle(file, opened != null);
        }
        return opened;
    }

    /** Java reports no errno; its exception names the condition ("Read-only file system"). */
    static String describe(IOException e) {
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return e.getClass().getSimpleName() + (e.getMessage() != null ? ": " + e.getMessage() : "");
    }
}
