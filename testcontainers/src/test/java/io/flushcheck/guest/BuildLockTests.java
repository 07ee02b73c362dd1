package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs building one image: the second's build starts only when the first one's ended. */
class BuildLockTests {

    @Test
    void aSecondJvmWaitsForTheFirstOnesBuildOfTheSameImage(@TempDir Path dir) throws Exception {
        String image = "flushcheck/build-lock-test-" + ProcessHandle.current().pid() + ":1";
        String other = "flushcheck/build-lock-other-" + ProcessHandle.current().pid() + ":1";
        Path finished = dir.resolve("finished");
        Process holder = new ProcessBuilder(ChildJvm.command(List.of(), Holder.class.getName(),
                List.of(image, finished.toString()))).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("holding");
            // The holder keeps its lock until told to go on: whatever this machine's load, it holds it now.
            assertThat(BuildLock.holding(other, () -> Files.exists(finished)))
                    .as("another image's build does not wait").isFalse();
            holder.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
            holder.getOutputStream().flush();
            assertThat(BuildLock.holding(image, () -> Files.exists(finished)))
                    .as("the other JVM's build of the same image had finished when ours began").isTrue();
        } finally {
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            Files.deleteIfExists(BuildLock.file(image));
            Files.deleteIfExists(BuildLock.file(other));
        }
    }

    @Test
    void twoBuildsOfOneImageInOneJvmRunOneAfterTheOther() throws Exception {
        String image = "flushcheck/build-lock-threads-" + ProcessHandle.current().pid() + ":1";
        AtomicBoolean firstDone = new AtomicBoolean();
        CountDownLatch firstHolds = new CountDownLatch(1);
        try {
            CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
                try {
                    BuildLock.holding(image, () -> {
                        firstHolds.countDown();
                        Thread.sleep(300);
                        firstDone.set(true);
                        return null;
                    });
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(firstHolds.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(BuildLock.holding(image, firstDone::get)).as("the first build had ended when the second began")
                    .isTrue();
            first.get(30, TimeUnit.SECONDS);
        } finally {
            Files.deleteIfExists(BuildLock.file(image));
        }
    }

    /**
     * Holds the lock of the image its first argument names until a line comes on its input, then creates the file
     * its second names before it lets the lock go.
     */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            BuildLock.holding(args[0], () -> {
                System.out.println("holding");
                System.out.flush();
                in.readLine();
                return Files.createFile(Path.of(args[1]));
            });
        }
    }
}
