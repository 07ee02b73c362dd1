package io.flushcheck.probe;

import com.sun.jna.Pointer;

/**
 * The real system calls, each forwarded as it is: a test overrides the few it watches or changes, and the probe
 * makes every other call for real.
 */
class ForwardingSyncCalls implements SyncCalls {

    final SyncCalls real = NativeSyncCalls.load();

    @Override
    public int createExclusive(String path, boolean dsync) {
        return real.createExclusive(path, dsync);
    }

    @Override
    public int openDirectory(String path) {
        return real.openDirectory(path);
    }

    @Override
    public int createExclusiveAt(int dirFd, String name, String shown, boolean dsync) {
        return real.createExclusiveAt(dirFd, name, shown, dsync);
    }

    @Override
    public boolean unlinkAt(int dirFd, String name, String shown) {
        return real.unlinkAt(dirFd, name, shown);
    }

    @Override
    public long mountIdOf(int fd) {
        return real.mountIdOf(fd);
    }

    @Override
    public boolean preallocate(int fd, long length) {
        return real.preallocate(fd, length);
    }

    @Override
    public int scratchFile() {
        return real.scratchFile();
    }

    @Override
    public long pwrite(int fd, Pointer buffer, long count, long offset) {
        return real.pwrite(fd, buffer, count, offset);
    }

    @Override
    public long write(int fd, Pointer buffer, long count) {
        return real.write(fd, buffer, count);
    }

    @Override
    public void fsync(int fd) {
        real.fsync(fd);
    }

    @Override
    public void fdatasync(int fd) {
        real.fdatasync(fd);
    }

    @Override
    public void fullFsync(int fd) {
        real.fullFsync(fd);
    }

    @Override
    public void barrierFsync(int fd) {
        real.barrierFsync(fd);
    }

    @Override
    public void close(int fd) {
        real.close(fd);
    }

    @Override
    public void fill(Pointer buffer, long count) {
        real.fill(buffer, count);
    }
}
