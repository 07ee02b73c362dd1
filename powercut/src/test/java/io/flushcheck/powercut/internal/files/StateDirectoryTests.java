package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory holding one crash state after another ({@link StateDirectory}) holds each exactly as a fresh directory
 * it is written whole into ({@link FileTree#save(StatePick, Path)}) does: names, kinds, permission bits, bytes and
 * hard links, for random workloads and states taken in random order across epochs; and so it does after a check
 * changed it (bytes written in place at once, names made, removed or renamed, bits changed, a directory replaced by a
 * link to another), never writing through such a link.
 */
class StateDirectoryTests {

    private static final long ROOT = FileTree.ROOT;
    private static final String[] NAMES = {"a", "b", "c", "d"};

    @TempDir
    Path tmp;

    @Test
    void eachStateHeldIsTheStateWrittenWholeWhateverChangedItBetween() throws Exception {
        Path trap = Files.createDirectories(tmp.resolve("trap"));
        Files.writeString(trap.resolve("keep"), "untouched");
        long[] patched = {0};
        long[] written = {0};
        int compared = 0;
        for (long seed = 0; seed < 60; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            Path held = tmp.resolve("held-" + seed);
            FileTree t = new FileTree(0, 0, random.nextBoolean());
            // Every state written from the one before where it can be, however few its names.
            try (StateDirectory out = new StateDirectory(held, 0)) {
                compared += workload(t, random, out, held, trap, seed);
                written[0] += out.written();
                patched[0] += out.written() - out.rewritten();
            } finally {
                t.close();
            }
            assertThat(held).doesNotExist();
            assertThat(held.resolveSibling(held.getFileName() + ".clock")).doesNotExist();
        }
        assertThat(compared).as("states compared").isGreaterThan(1000);
        // A state after one a check left as it was is written from it (about half of them): that is compared too.
        assertThat(patched[0]).as("states written from the one before, of %d", written[0]).isGreaterThan(written[0] / 3);
        assertThat(tree(trap)).isEqualTo("keep f 644 9 " + Arrays.hashCode("untouched".getBytes()) + ";");
    }

    /** A state of many names is written from the one before it; one of a few names is written whole, with no wait. */
    @Test
    void aStateOfManyNamesIsWrittenFromTheOneBeforeAndOneOfFewWhole() throws Exception {
        for (int files : new int[] {StateDirectory.PATCHED_FROM + 10, 10}) {
            FileTree t = new FileTree(0, 0);
            try {
                for (int i = 0; i < files; i++) {
                    long f = t.create(ROOT, "f" + i, false, 0644, 0, 0).id();
                    t.write(f, 0, ByteBuffer.wrap(("file " + i).getBytes()));
                }
                List<StatePick> picks = t.statePicks();
                StatePick all = picks.get(picks.size() - 1);
                Path held = tmp.resolve("held-" + files);
                try (StateDirectory out = new StateDirectory(held)) {
                    for (StatePick pick : List.of(all, picks.get(1), picks.get(2), all)) {
                        out.write(t, pick);
                        Path whole = Files.createDirectory(tmp.resolve("whole"));
                        t.save(pick, whole);
                        assertThat(tree(held)).isEqualTo(tree(whole));
                        deleteAll(whole);
                    }
                    assertThat(out.written()).isEqualTo(4);
                    assertThat(out.rewritten()).as("states written whole, of %d names", files)
                            .isEqualTo(files > StateDirectory.PATCHED_FROM ? 1 : 4);
                }
            } finally {
                t.close();
            }
        }
    }

    private int workload(FileTree t, SplittableRandom random, StateDirectory out, Path held, Path trap, long seed)
            throws Exception {
        List<Long> dirs = new ArrayList<>(List.of(ROOT));
        List<Long> files = new ArrayList<>();
        int compared = 0;
        for (int op = 0; op < 50; op++) {
            long dir = dirs.get(random.nextInt(dirs.size()));
            String name = NAMES[random.nextInt(NAMES.length)];
            try {
                switch (random.nextInt(14)) {
                    case 0, 1 -> files.add(t.create(dir, name, false, random.nextBoolean() ? 0644 : 0600, 0, 0).id());
                    case 2 -> dirs.add(t.create(dir, name, true, 0755, 0, 0).id());
                    case 3, 4, 5 -> {
                        if (!files.isEmpty()) {
                            byte[] b = new byte[1 + random.nextInt(6000)];
                            random.nextBytes(b);
                            t.write(files.get(random.nextInt(files.size())), random.nextInt(12000), ByteBuffer.wrap(b));
                        }
                    }
                    case 6 -> {
                        if (!files.isEmpty()) {
                            t.truncate(files.get(random.nextInt(files.size())), random.nextInt(16000));
                        }
                    }
                    case 7 -> t.remove(dir, name, random.nextBoolean());
                    case 8 -> t.rename(dir, name, dirs.get(random.nextInt(dirs.size())),
                            NAMES[random.nextInt(NAMES.length)], false);
                    case 9 -> {
                        if (!files.isEmpty()) {
                            t.link(files.get(random.nextInt(files.size())), dir, name);
                        }
                    }
                    case 10 -> {
                        // A directory its owner may list, enter and change, as a user other than root compares it.
                        t.setAttributes(dirs.get(random.nextInt(dirs.size())), random.nextBoolean() ? 0700 : 0755,
                                null, null, null);
                    }
                    case 11 -> {
                        if (!files.isEmpty()) {
                            t.setAttributes(files.get(random.nextInt(files.size())), random.nextBoolean() ? 0600 : 0444,
                                    null, null, null);
                        }
                    }
                    default -> {
                        compared += states(t, random, out, held, trap, seed, op);
                        List<Long> all = new ArrayList<>(dirs);
                        all.addAll(files);
                        t.sync(all.get(random.nextInt(all.size())));
                    }
                }
            } catch (FileTree.Errno e) {
                // refused as a filesystem refuses it
            }
        }
        return compared + states(t, random, out, held, trap, seed, -1);
    }

    /** Writes a few of the tree's states in random order, each compared with it written whole; changes some after. */
    private int states(FileTree t, SplittableRandom random, StateDirectory out, Path held, Path trap, long seed,
                       int op) throws Exception {
        List<StatePick> picks = t.statePicks();
        int n = 1 + random.nextInt(Math.min(6, picks.size()));
        for (int i = 0; i < n; i++) {
            StatePick pick = picks.get(random.nextInt(picks.size()));
            out.write(t, pick);
            Path whole = Files.createDirectory(tmp.resolve("whole"));
            t.save(pick, whole);
            assertThat(tree(held)).as("seed %d before op %d: %s", seed, op, pick).isEqualTo(tree(whole));
            deleteAll(whole);
            change(held, trap, random);
        }
        return n;
    }

    /** What a check might do to the state it was given, at once after it was written; or nothing. */
    private static void change(Path held, Path trap, SplittableRandom random) throws IOException {
        try {
            changeOnce(held, trap, random);
        } catch (AccessDeniedException e) {
            // a file its bits keep a user other than root from writing: the check could not change it either
        }
    }

    private static void changeOnce(Path held, Path trap, SplittableRandom random) throws IOException {
        List<Path> files = new ArrayList<>();
        List<Path> dirs = new ArrayList<>(List.of(held));
        try (Stream<Path> all = Files.walk(held)) {
            all.filter(p -> !p.equals(held)).forEach(p -> (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? dirs : files)
                    .add(p));
        }
        Path file = files.isEmpty() ? null : files.get(random.nextInt(files.size()));
        Path dir = dirs.get(random.nextInt(dirs.size()));
        switch (random.nextInt(16)) {
            case 0 -> {
                if (file != null && Files.size(file) > 0) {
                    // The same size, the same second: only its change time (and bytes) tell.
                    try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
                        c.write(ByteBuffer.wrap(new byte[] {'!'}), 0);
                    }
                }
            }
            case 1 -> Files.writeString(dir.resolve("made-by-check"), "x");
            case 2 -> {
                if (file != null) {
                    Files.delete(file);
                }
            }
            case 3 -> {
                if (file != null) {
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
                }
            }
            case 4 -> {
                if (file != null) {
                    Files.move(file, file.resolveSibling("moved-by-check"));
                }
            }
            case 5 -> {
                if (!dir.equals(held)) {
                    deleteAll(dir);
                    Files.createSymbolicLink(dir, trap);
                }
            }
            case 6 -> {
                if (file != null) {
                    Files.writeString(file, "appended", StandardOpenOption.APPEND);
                }
            }
            case 7 -> {
                if (file != null) {
                    Files.setLastModifiedTime(file, FileTime.fromMillis(0));
                }
            }
            default -> {
                // a check that only reads
            }
        }
    }

    /** Every name under {@code root}: its kind, permission bits, size, bytes, and the first name of its inode. */
    private static String tree(Path root) throws IOException {
        StringBuilder sb = new StringBuilder();
        Map<Object, String> inodes = new HashMap<>();
        List<Path> all;
        try (Stream<Path> walk = Files.walk(root)) {
            all = walk.filter(p -> !p.equals(root)).sorted().toList();
        }
        for (Path p : all) {
            Map<String, Object> a = Files.readAttributes(p, "unix:mode,ino,size", LinkOption.NOFOLLOW_LINKS);
            String rel = root.relativize(p).toString();
            boolean link = Files.isSymbolicLink(p);
            boolean dir = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
            sb.append(rel).append(link ? " l " : dir ? " d " : " f ")
                    .append(Integer.toOctalString((Integer) a.get("mode") & 07777));
            if (!dir && !link) {
                String first = inodes.putIfAbsent(a.get("ino"), rel);
                sb.append(' ').append(a.get("size"));
                sb.append(first != null ? " =" + first : " " + Arrays.hashCode(Files.readAllBytes(p)));
            }
            sb.append(';');
        }
        return sb.toString();
    }

    private static void deleteAll(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
