package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A bad range on the file model's survivor, as a program of its own, for a run as another user: prints the user it ran
 * as, how the survivor's reads went, the reads failed, and whether the disk left anything.
 * Usage: {@code SurvivorReadsWorkload WORK}.
 */
public final class SurvivorReadsWorkload {

    private SurvivorReadsWorkload() {
    }

    public static void main(String[] args) throws Exception {
        String uid = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Uid:"))
                .findFirst().orElseThrow().split("\\s+")[1];
        System.out.println("uid " + uid);
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(Path.of(args[0]))) {
            PosixCalls.writeSynced(disk.path().resolve("a"), "old!".repeat(2048));
            PosixCalls.syncDirectory(disk.path());
            Path a = disk.cutPower().resolve("a");
            disk.failReads(ReadFault.toFile(a).range(4096, 4096));
            System.out.println("first " + read(a));
            System.out.println("second " + read(a));
            PosixCalls.writeSynced(a, "new!".repeat(2048));
            System.out.println("rewritten " + read(a));
            System.out.println("failed " + disk.failedReads());
        }
        System.out.println("left " + Files.exists(Path.of(args[0])));
    }

    private static String read(Path a) {
        try {
            return Files.readString(a).substring(0, 4);
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
