package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.ReadFault;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Whether a file model's disk fails the reads of a survivor's file as {@link SimulatedDisk#failReads} asks. */
final class SurvivorReads {

    private SurvivorReads() {
    }

    /** Null when a bad sector armed on a synced file's survivor fails its read; otherwise why not. */
    static String cannotFail(Path dir) throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(dir.resolve("probe"))) {
            Path f = disk.path().resolve("f");
            Files.write(f, new byte[4096]);
            try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
                c.force(true);
            }
            Path survivor = disk.cutPower();
            try {
                disk.failReads(ReadFault.toFile(survivor.resolve("f")).range(0, 4096));
            } catch (RuntimeException e) {
                return "failReads on a survivor's file throws " + e;
            }
            try {
                Files.readAllBytes(survivor.resolve("f"));
                return "failReads on a survivor's file returned, and its read succeeded";
            } catch (IOException e) {
                return null;
            }
        }
    }
}
