package io.flushcheck.storage;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The mount that holds a loop device's backing file. Sysfs names the file as the kernel prints it from this
 * process's root, whatever mount tree it is in: a file in another namespace's mount, on a lazily unmounted
 * tmpfs or in a memfd is printed as a path that here may lead to another file, even on a disk. So the mount
 * found by that name is taken only where the file there is the kernel's: the same device and inode
 * ({@link LoopStatus}), or where the kernel cannot be asked, a file of the loop device's size. Else the
 * mount of the kernel's device number, where this table has one; else none, and why.
 */
final class LoopBacking {

    /** The mount holding the file, or null and {@code unseen}, why it could not be told. */
    record Found(MountInfo mount, String unseen) {
    }

    private static final String DELETED = " (deleted)";

    private LoopBacking() {
    }

    static Found of(Path loopDir, String loopName, String backingFile, MountTable mounts) {
        boolean deleted = backingFile.endsWith(DELETED);
        String file = deleted ? backingFile.substring(0, backingFile.length() - DELETED.length()) : backingFile;
        long[] kernel = LoopStatus.backing(loopName);
        try {
            if (kernel != null) {
                // A deleted file has no name left to stat: the directory it was in is on its filesystem.
                Path here = deleted ? Path.of(file).getParent() : Path.of(file);
                long[] seen = here == null ? null : stat(here);
                if (seen != null && seen[0] == kernel[0] && (deleted || seen[1] == kernel[1])) {
                    return new Found(mounts.mountOf(file), null);
                }
                String device = LoopStatus.majorMinor(kernel[0]);
                for (MountInfo m : mounts.mounts()) {
                    if (m.device().equals(device)) {
                        return new Found(m, null);
                    }
                }
                return new Found(null, "the kernel names its backing file " + backingFile + ", on device " + device
                        + " (inode " + kernel[1] + "), but " + (seen == null ? "no such file is here"
                        : "the file of that name here is on device " + LoopStatus.majorMinor(seen[0]) + " (inode " + seen[1] + ")")
                        + ", and no mount here has that device: the filesystem holding it was not seen");
            }
            if (!deleted && sizeMatches(loopDir, new File(file))) {
                return new Found(mounts.mountOf(file), null);
            }
        } catch (InvalidPathException e) {
            // a name this JVM's charset cannot hold: not told
        }
        return new Found(null, "its backing file " + backingFile + " could not be shown to be the file of that name here"
                + " (reading /dev/" + loopName + "'s status takes root or the disk group), so the filesystem holding it"
                + " was not seen");
    }

    private static long[] stat(Path p) {
        try {
            return new long[] {((Number) Files.getAttribute(p, "unix:dev")).longValue(),
                    ((Number) Files.getAttribute(p, "unix:ino")).longValue()};
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The loop device's size is what the file gives from its offset, up to its size limit. */
    private static boolean sizeMatches(Path loopDir, File file) {
        try {
            long sectors = Long.parseLong(SysBlock.read(loopDir.resolve("size")));
            long offset = Long.parseLong(SysBlock.read(loopDir.resolve("loop/offset")));
            long limit = Long.parseLong(SysBlock.read(loopDir.resolve("loop/sizelimit")));
            long length = file.length();
            if (!file.isFile() || length <= offset) {
                return false;
            }
            long bytes = limit > 0 ? Math.min(limit, length - offset) : length - offset;
            return sectors == bytes / 512;
        } catch (NumberFormatException | NullPointerException e) {
            return false;
        }
    }
}
