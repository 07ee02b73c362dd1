package io.flushcheck.storage;

import com.sun.jna.LastErrorException;
import com.sun.jna.Platform;

/**
 * The device and inode of a loop device's backing file as the kernel holds them ({@code LOOP_GET_STATUS64}, as
 * {@code losetup -O BACK-MAJ:MIN,BACK-INO} reads them): sysfs gives only the file's name, printed from this
 * process's root whatever mount tree the file is in. Needs read access to {@code /dev/loopN} (root, or the disk
 * group); JNA is loaded only where a loop device is in the graph, never on a plain disk's path.
 */
final class LoopStatus {

    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final long LOOP_GET_STATUS64 = 0x4C05;
    /** {@code struct loop_info64}: lo_device and lo_inode are its first two 64-bit fields. */
    private static final int INFO_SIZE = 232;

    private static volatile Boolean loaded;

    private LoopStatus() {
    }

    /** The kernel's {@code dev_t} (as {@code stat}'s {@code st_dev} encodes it) and inode, or null where it cannot be asked. */
    static long[] backing(String loopName) {
        if (!load()) {
            return null;
        }
        int fd;
        try {
            fd = CLibrary.open("/dev/" + loopName, O_RDONLY_CLOEXEC, 0);
        } catch (LastErrorException e) {
            return null; // no node here (a container's /dev), or not ours to open
        }
        try {
            byte[] info = new byte[INFO_SIZE];
            CLibrary.ioctl(fd, LOOP_GET_STATUS64, info);
            return new long[] {little(info, 0), little(info, 8)};
        } catch (LastErrorException e) {
            return null;
        } finally {
            try {
                CLibrary.close(fd);
            } catch (LastErrorException e) {
                // nothing was written through it
            }
        }
    }

    private static long little(byte[] b, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[at + i] & 0xff);
        }
        return v;
    }

    /** {@code major:minor} of a {@code dev_t} as glibc and the kernel's new encoding lay it out. */
    static String majorMinor(long dev) {
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        return major + ":" + minor;
    }

    private static boolean load() {
        Boolean l = loaded;
        if (l == null) {
            // Little-endian 64-bit Linux only: the layout above is read as such.
            l = Platform.isLinux() && Platform.is64Bit() && !Platform.isPPC() && !Platform.isSPARC()
                    && CLibrary.unavailable() == null;
            loaded = l;
        }
        return l;
    }
}
