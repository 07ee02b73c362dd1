package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Recordings of a tree's operations for the tests of the crash states drawn from them ({@link TreeStates}): files made,
 * written and synced, then what each test does after.
 */
final class TreeRecordings {

    /** What a recording holds after its first sync: {@code made} are the files' ids, in the order of their names. */
    interface After {
        void run(FileTree tree, List<Long> made) throws Exception;
    }

    private TreeRecordings() {
    }

    /**
     * Records, in {@code tmp/recording} over a store in {@code tmp/store}: {@code files} files f0, f1, ..., each holding
     * "file N", one of them synced (which commits every name); then {@code after}.
     */
    static RegularFile record(Path tmp, int files, After after) throws Exception {
        Path file = tmp.resolve("recording");
        FileTree t = new FileTree(0, 0, Files.createDirectories(tmp.resolve("store")), Long.MAX_VALUE, true);
        try {
            t.record(file);
            List<Long> made = new ArrayList<>();
            for (int i = 0; i < files; i++) {
                made.add(t.create(FileTree.ROOT, "f" + i, false, 0644, 0, 0).id());
                t.write(made.get(i), 0, ByteBuffer.wrap(("file " + i).getBytes(StandardCharsets.UTF_8)));
            }
            t.sync(made.get(0));
            after.run(t, made);
            t.stopRecording();
        } finally {
            t.close();
        }
        return RegularFile.open(file);
    }
}
