package io.flushcheck.powercut.internal.sys;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.apiguardian.api.API;

/**
 * The few C library calls a FUSE server needs besides reading and writing /dev/fuse, which {@link DeviceCalls}
 * binds directly: each request costs one of each.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface Libc extends Library {

    Libc C = Native.load("c", Libc.class);

    int O_RDONLY = 0;
    int O_RDWR = 2;
    int O_CLOEXEC = 02000000;
    long MS_NOSUID = 2;
    long MS_NODEV = 4;
    long MS_NOEXEC = 8;
    /** Since Linux 5.10: no symbolic link on the filesystem is followed; older kernels refuse it (EINVAL). */
    long MS_NOSYMFOLLOW = 256;
    int MNT_DETACH = 2;

    int open(String path, int flags);

    int O_NONBLOCK = 04000;
    /** {@code O_NOFOLLOW}, whose value differs between architectures: arm's is not the generic one. */
    int O_NOFOLLOW = System.getProperty("os.arch", "").matches("aarch64|arm.*") ? 0100000 : 0400000;
    /** {@code O_DIRECTORY}, whose value differs between architectures as {@link #O_NOFOLLOW}'s does. */
    int O_DIRECTORY = System.getProperty("os.arch", "").matches("aarch64|arm.*") ? 040000 : 0200000;
    int SEEK_DATA = 3;
    int SEEK_HOLE = 4;
    int ENOENT = 2;
    int ENXIO = 6;
    int ELOOP = 40;

    /** {@code lseek(2)}, 64-bit offsets. */
    long lseek(int fd, long offset, int whence);

    int close(int fd);

    int mount(String source, String target, String fsType, long flags, String data);

    int umount2(String target, int flags);

    /** {@code ioctl(2)} with a pointer argument. */
    int ioctl(int fd, long request, Pointer arg);

    /** {@code ioctl(2)} with an integer argument. */
    int ioctl(int fd, long request, long arg);

    int syncfs(int fd);

    /** {@code posix_fadvise(2)}'s advice to drop a range's clean cached pages. */
    int POSIX_FADV_DONTNEED = 4;

    /** Returns 0 or the error number itself (not -1 with errno). */
    int posix_fadvise(int fd, long offset, long length, int advice);

    /** {@code madvise(2)}'s advice that pages of a range are touched in no order: no read-ahead when one faults. */
    int MADV_RANDOM = 1;

    int madvise(Pointer address, long length, int advice);

    String strerror(int errno);

    int SIGKILL = 9;

    /** {@code kill(2)}; a negative {@code pid} names a process group. */
    int kill(int pid, int sig);

    long SYS_PIDFD_SEND_SIGNAL = 424;
    long SYS_PIDFD_OPEN = 434;

    /** {@code pidfd_open(2)}: a descriptor that names one process, never another that reuses its PID. */
    int syscall(long number, int pid, int flags);

    /** {@code pidfd_send_signal(2)}, with no siginfo. */
    int syscall(long number, int pidfd, int sig, Pointer info, int flags);

    /** {@code mount_setattr(2)}: directory descriptor, path, flags, {@code struct mount_attr} and its size. */
    int syscall(long number, int dfd, String path, int flags, Pointer attr, long size);

    int geteuid();

    int getegid();

    int socketpair(int domain, int type, int protocol, int[] fds);

    int fcntl(int fd, int cmd, int arg);

    /** {@code posix_spawn(3)}: returns 0 or an errno; the child inherits every descriptor without FD_CLOEXEC. */
    int posix_spawn(int[] pid, String path, Pointer fileActions, Pointer attributes, String[] argv, String[] envp);

    long recvmsg(int socket, Pointer msg, int flags);

    int waitpid(int pid, int[] status, int options);

    /** {@code pipe2(2)}: the read end in {@code fds[0]}, the write end in {@code fds[1]}. */
    int pipe2(int[] fds, int flags);

    /** {@code poll(2)} on {@code nfds} {@code struct pollfd}s (8 bytes each: fd, events, revents). */
    int poll(Pointer fds, long nfds, int timeout);

    static int errno() {
        return Native.getLastError();
    }
}
