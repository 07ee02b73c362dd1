#!/usr/bin/python3
"""A FUSE passthrough of one directory, for tests: passthrough.py [--swallow-fsync] SOURCE MOUNTPOINT.

Every call goes to the same path under SOURCE. With --swallow-fsync, fsync and fdatasync answer
success at once without syncing anything, as a daemon that keeps data in its own cache would.
Debian's python3-fusepy; runs in the foreground until unmounted or terminated.
"""
import errno
import os
import sys

from fusepy import FUSE, FuseOSError, Operations


class Passthrough(Operations):
    def __init__(self, root, swallow):
        self.root = root
        self.swallow = swallow

    def _p(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._p(path))
        except OSError as e:
            raise FuseOSError(e.errno)
        return {k: getattr(st, k) for k in ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime",
                                            "st_nlink", "st_size", "st_uid")}

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._p(path))

    def access(self, path, mode):
        if not os.access(self._p(path), mode):
            raise FuseOSError(errno.EACCES)

    def chmod(self, path, mode):
        os.chmod(self._p(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self._p(path), uid, gid)

    def mkdir(self, path, mode):
        os.mkdir(self._p(path), mode)

    def rmdir(self, path):
        os.rmdir(self._p(path))

    def unlink(self, path):
        os.unlink(self._p(path))

    def rename(self, old, new):
        os.rename(self._p(old), self._p(new))

    def utimens(self, path, times=None):
        os.utime(self._p(path), times)

    def statfs(self, path):
        st = os.statvfs(self._p(path))
        return {k: getattr(st, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                                            "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def open(self, path, flags):
        return os.open(self._p(path), flags)

    def create(self, path, mode, fi=None):
        return os.open(self._p(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        with open(self._p(path), "r+") as f:
            f.truncate(length)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)
        return 0

    def fsync(self, path, datasync, fh):
        if self.swallow:
            return 0
        if datasync:
            os.fdatasync(fh)
        else:
            os.fsync(fh)
        return 0


def main():
    args = sys.argv[1:]
    swallow = "--swallow-fsync" in args
    args = [a for a in args if a != "--swallow-fsync"]
    if len(args) != 2:
        sys.exit(__doc__)
    source, mountpoint = args
    FUSE(Passthrough(os.path.realpath(source), swallow), mountpoint, foreground=True, nothreads=True,
         fsname="flushcheck-test", subtype="passthrough")


if __name__ == "__main__":
    main()
