package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file model's default rules agree with ext4: each workload, cut after each of its acknowledgements, passes or
 * fails at the same crash points on the block model (ext4, as root) and on the file model; the POSIX rules fail the
 * store that creates its own directory, and the cut says which rule lost what.
 */
class FileRulesAgreementTests {

    private static final int STEPS = 3;

    @TempDir
    Path tmp;

    /** A workload: {@code steps} acknowledgements on {@code dir}; then whether {@code survivor} kept what it acknowledged. */
    private interface Workload {
        void run(Path dir, int steps) throws IOException;

        boolean kept(Path survivor, int steps) throws IOException;
    }

    private static void sync(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static Workload renameStore(boolean dirSync) {
        return new Workload() {
            @Override
            public void run(Path dir, int steps) throws IOException {
                for (int i = 1; i <= steps; i++) {
                    Path t = dir.resolve("value.tmp");
                    try (FileChannel ch = FileChannel.open(t, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                        ch.write(ByteBuffer.wrap(("value " + i).getBytes(StandardCharsets.UTF_8)));
                        ch.force(true);
                    }
                    Files.move(t, dir.resolve("value"), StandardCopyOption.ATOMIC_MOVE);
                    if (dirSync) {
                        sync(dir);
                    }
                }
            }

            @Override
            public boolean kept(Path survivor, int steps) throws IOException {
                Path v = survivor.resolve("value");
                return Files.exists(v) && Files.readString(v).equals("value " + steps);
            }
        };
    }

    private static final Workload JOURNAL = new Workload() {
        @Override
        public void run(Path dir, int steps) throws IOException {
            SyncedJournal j = SyncedJournal.create(dir.resolve("journal"), false);
            for (int i = 1; i <= steps; i++) {
                j.append("record " + i);
            }
        }

        @Override
        public boolean kept(Path survivor, int steps) throws IOException {
            return SyncedJournal.read(survivor.resolve("journal")).size() == steps;
        }
    };

    /** A store that makes its own directory (Files.createDirectories) and fsyncs only its files, as HSQLDB does. */
    private static final Workload OWN_DIRECTORY = new Workload() {
        @Override
        public void run(Path dir, int steps) throws IOException {
            Path data = Files.createDirectories(dir.resolve("db/data"));
            for (int i = 1; i <= steps; i++) {
                try (FileChannel ch = FileChannel.open(data.resolve("log"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                    ch.write(ByteBuffer.wrap(("record " + i + "\n").getBytes(StandardCharsets.UTF_8)));
                    ch.force(true);
                }
            }
        }

        @Override
        public boolean kept(Path survivor, int steps) throws IOException {
            Path log = survivor.resolve("db/data/log");
            return Files.exists(log) && Files.readAllLines(log).size() == steps;
        }
    };

    private Map<String, Workload> workloads() {
        Map<String, Workload> w = new LinkedHashMap<>();
        w.put("SyncedJournal", JOURNAL);
        w.put("rename store with the directory's fsync", renameStore(true));
        w.put("rename store without the directory's fsync", renameStore(false));
        w.put("store in a directory it created, its files fsynced", OWN_DIRECTORY);
        return w;
    }

    private int disks;

    private boolean cutAfter(Workload w, int steps, DiskModel model) throws IOException {
        Path work = tmp.resolve("d" + ++disks);
        try (SimulatedDisk disk = model == DiskModel.FILE ? SimulatedDisk.createFiles(work)
                : SimulatedDisk.create(work, 32L << 20, "ext4", List.of())) {
            w.run(disk.path(), steps);
            return w.kept(disk.cutPower(), steps);
        }
    }

    @Test
    void eachWorkloadPassesAndFailsAtTheSameCrashPointsOnExt4AndOnTheFileModelsDefault() throws IOException {
        Requirements.requireRoot();
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        List<String> ext4 = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, Workload> e : workloads().entrySet()) {
            for (int steps = 1; steps <= STEPS; steps++) {
                String point = e.getKey() + ", cut after acknowledgement " + steps + ": ";
                ext4.add(point + (cutAfter(e.getValue(), steps, DiskModel.BLOCK) ? "kept" : "lost"));
                files.add(point + (cutAfter(e.getValue(), steps, DiskModel.FILE) ? "kept" : "lost"));
            }
        }
        assertThat(files).as("the file model's default against ext4").containsExactlyElementsOf(ext4);
        assertThat(ext4).as("ext4 itself").contains(
                "store in a directory it created, its files fsynced, cut after acknowledgement 3: kept",
                "rename store without the directory's fsync, cut after acknowledgement 3: lost");
    }

    @Test
    void thePosixRulesFailTheStoreInItsOwnDirectoryAndSayExt4WouldHaveKeptIt() throws IOException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        try (SimulatedDisk disk = SimulatedDisk.createFiles(tmp.resolve("posix"), SimulatedDisk.DEFAULT_FILES_BYTES,
                FileRules.POSIX)) {
            OWN_DIRECTORY.run(disk.path(), 2);
            assertThat(OWN_DIRECTORY.kept(disk.cutPower(), 2)).isFalse();
            assertThat(disk.cuts().get(0).toString()).contains("the POSIX rules lost 3 name changes",
                    "directory /db", "directory /db/data", "/db/data/log", "ext4, xfs and btrfs", "would have kept");
        }
    }
}
