package io.flushcheck.probe;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM that stops (System.exit, which runs the shutdown hooks exactly as SIGTERM does) while a
 * creation is in flight: the name is reserved, the kernel has (or has not) made the file, and the
 * creating thread has not yet said which. Uses the registry as the probe does; nothing is paused in
 * flushcheck's own code.
 *
 * <p>{@code created PATH}: the file exists and is ours, settled 300 ms after the hook started.
 * {@code failed PATH}: the file was there before (someone else's); our creation fails, settled likewise.
 */
public final class OwnFilesShutdownChild {

    private OwnFilesShutdownChild() {
    }

    public static void main(String[] args) throws Exception {
        boolean ours = args[0].equals("created");
        Path p = Path.of(args[1]);
        OwnFiles.reserve(p);
        if (ours) {
            Files.createFile(p); // what open(O_CREAT|O_EXCL) did in the kernel
        }
        Thread exit = new Thread(() -> System.exit(3), "exit");
        exit.start();
        Thread.sleep(300); // the hook is running meanwhile
        try {
            OwnFiles.reserve(p.resolveSibling(p.getFileName() + "-later"));
            System.out.println("reserved during shutdown");
        } catch (NativeCallException e) {
            System.out.println("refused: " + e.getMessage());
        }
        System.out.flush();
        OwnFiles.settle(p, ours);
        Thread.sleep(60_000);
    }
}
