package io.flushcheck.storage;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The mount that holds the upper layer of an overlay mounted in another mount namespace. Its {@code upperdir=} is
 * the text the mounter gave, a path in the mounter's namespace: a container engine's, often this one (a host
 * path that does not exist inside the container), or the container's own. Which one the kernel walked is not
 * shown, so the name is taken only where it cannot mean two directories: where it reaches a directory in one of
 * the two namespaces only, or the same one (device and inode) in both. Where it reaches two different
 * directories, the level is unseen, as a loop device's backing file that is not the kernel's
 * ({@link LoopBacking}).
 */
final class OverlayUpper {

    /** The mount holding the upper layer, or null and {@code unseen}, why it could not be told, or neither: not visible. */
    record Found(MountInfo mount, String unseen) {
    }

    private OverlayUpper() {
    }

    /** {@code upperDir} of an overlay in PID's namespace, looked up here ({@code here}) and there. */
    static Found inNamespace(String upperDir, long pid, MountTable here) throws IOException {
        long[] ours;
        long[] theirs;
        String there = "/proc/" + pid + "/root" + upperDir;
        try {
            ours = stat(Path.of(upperDir));
            theirs = stat(Path.of(there));
        } catch (InvalidPathException e) {
            return new Found(null, null); // a name this JVM's charset cannot hold: not visible
        }
        if (ours != null && (theirs == null || ours[0] == theirs[0] && ours[1] == theirs[1])) {
            return new Found(here.mountOf(new File(upperDir).getCanonicalPath()), null);
        }
        if (ours == null && theirs != null) {
            String resolved = KernelPath.resolve(new File(there));
            return new Found(KernelPath.namespacePid(resolved) > 0
                    ? KernelPath.mountTable(resolved).mountOf(KernelPath.inner(resolved)) : here.mountOf(resolved), null);
        }
        if (ours == null) {
            return new Found(null, null);
        }
        return new Found(null, "the overlay in PID " + pid + "'s mount namespace names its upper layer " + upperDir
                + ", which is one directory here (device " + LoopStatus.majorMinor(ours[0]) + ", inode " + ours[1]
                + ") and another there (device " + LoopStatus.majorMinor(theirs[0]) + ", inode " + theirs[1]
                + "): which one the overlay writes to was not seen");
    }

    /** Device and inode of a directory, or null where there is none by that name. */
    private static long[] stat(Path p) {
        try {
            if (!Files.isDirectory(p)) {
                return null;
            }
            return new long[] {((Number) Files.getAttribute(p, "unix:dev")).longValue(),
                    ((Number) Files.getAttribute(p, "unix:ino")).longValue()};
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }
}
