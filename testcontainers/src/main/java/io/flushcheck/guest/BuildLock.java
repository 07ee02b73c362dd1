package io.flushcheck.guest;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One build of an image at a time on this machine. Two JVMs that need the same image at once (test forks
 * side by side) would otherwise each run the Dockerfile from the start: the layer cache only serves a build
 * that begins after another one finished. The second one waits here on a file lock in {@code java.io.tmpdir},
 * which the kernel releases when its holder dies, and its build is then the cache hit the first one left.
 * The lock file (empty) stays, as the image does: removing it would let a third JVM lock a new file of the
 * same name while the second still holds the old one. Within a JVM, where a file lock cannot be taken twice,
 * builds of one image wait on a lock of the JVM's first.
 */
final class BuildLock {

    private static final Map<String, ReentrantLock> IN_THIS_JVM = new ConcurrentHashMap<>();

    private BuildLock() {
    }

    /** Runs {@code build} holding the machine's lock for {@code imageName} (without, if the file is another user's). */
    static <T> T holding(String imageName, Callable<T> build) throws Exception {
        ReentrantLock here = IN_THIS_JVM.computeIfAbsent(imageName, n -> new ReentrantLock());
        here.lockInterruptibly();
        try {
            return holdingFile(imageName, build);
        } finally {
            here.unlock();
        }
    }

    private static <T> T holdingFile(String imageName, Callable<T> build) throws Exception {
        FileChannel channel;
        try {
            channel = FileChannel.open(file(imageName), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (AccessDeniedException e) {
            return build.call(); // another user's lock file: Docker still builds correctly, only twice
        }
        try (channel; FileLock ignored = channel.lock()) {
            return build.call();
        }
    }

    /** The lock file for an image, its name made of the tag's letters and digits. */
    static Path file(String imageName) {
        return Path.of(System.getProperty("java.io.tmpdir"),
                "flushcheck-image-build-" + imageName.replaceAll("[^A-Za-z0-9.-]", "_") + ".lock");
    }
}
