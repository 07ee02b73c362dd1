package io.flushcheck.powercut;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The write-then-rename store on the file model, as a program of its own, for a run as another user:
 * prints the user it ran as, the mounts it saw, and what survived the cut.
 * Usage: {@code FileModelWorkload WORK [hold]}; with {@code hold}, it prints the mount ({@code holding PATH})
 * and waits to be killed.
 */
public final class FileModelWorkload {

    private FileModelWorkload() {
    }

    public static void main(String[] args) throws Exception {
        String uid = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Uid:"))
                .findFirst().orElseThrow().split("\\s+")[1];
        System.out.println("uid " + uid);
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(Path.of(args[0]))) {
            Path dir = disk.path();
            List<String> mounts = Files.readAllLines(Path.of("/proc/self/mountinfo"));
            System.out.println("mounted " + mounts.stream().anyMatch(l -> l.contains(" " + dir + " ")
                    && l.contains("fuse.flushcheck-files")));
            if (args.length > 1 && args[1].equals("hold")) {
                System.out.println("holding " + dir);
                Thread.sleep(Long.MAX_VALUE);
            }
            Files.writeString(dir.resolve("store"), "old");
            sync(dir.resolve("store"));
            sync(dir);
            Files.writeString(dir.resolve("store.tmp"), "new");
            sync(dir.resolve("store.tmp"));
            Files.move(dir.resolve("store.tmp"), dir.resolve("store"), StandardCopyOption.ATOMIC_MOVE);
            System.out.println("flushes " + disk.flushes());
            Path survivor = disk.cutPower();
            System.out.println("survived " + Files.readString(survivor.resolve("store")));
        }
        System.out.println("left " + Files.exists(Path.of(args[0])));
    }

    private static void sync(Path p) throws Exception {
        try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
