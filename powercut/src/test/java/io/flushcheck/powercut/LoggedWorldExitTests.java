package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that exits while a logged world is starting leaves no log: starting the program opens the log by name again,
 * after the removal at exit would have removed it, unless that removal waits for the start.
 */
class LoggedWorldExitTests {

    @Test
    void aJvmExitingWhileAWorldStartsLeavesNoLog(@TempDir Path tmp) throws IOException {
        Requirements.requireRoot();
        Requirements.requireCommand("unshare", "util-linux");
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=" + tmp),
                ExitingChild.class.getName(), List.of()), 60);
        assertThat(r.stdout()).as("%s", r).contains("exiting while the world starts");
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("flushcheck-world-")))
                    .as("logs left by the exited JVM").isEmpty();
        }
    }

    /**
     * Starts a world whose start takes half a second and exits the JVM while it is under way, with another shutdown hook
     * that keeps the exit going for longer than the start.
     */
    public static final class ExitingChild {
        private ExitingChild() {
        }

        public static void main(String[] args) throws Exception {
            CountDownLatch starting = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                try {
                    LoggedWorld.start(List.of("true"), b -> {
                        starting.countDown();
                        try {
                            Thread.sleep(500);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return ProcessWorld.start(b);
                    });
                } catch (IOException | RuntimeException e) {
                    // the exit came first
                }
            });
            t.setDaemon(true);
            t.start();
            // The JVM's exit runs its other hooks too (a disk's undoing takes as long): the start goes on meanwhile.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(1500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            starting.await();
            System.out.println("exiting while the world starts");
            System.out.flush();
            System.exit(0);
        }
    }
}
