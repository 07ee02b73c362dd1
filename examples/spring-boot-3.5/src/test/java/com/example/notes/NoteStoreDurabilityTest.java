package com.example.notes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.flushcheck.jupiter.RequiresRealFlush;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's durability claim, on its own: the class NotesInContainersTest runs in a container too. */
@RequiresRealFlush
class NoteStoreDurabilityTest {

    @TempDir
    Path dir;

    @Test
    void notesAreReadBackAfterReopen() throws Exception {
        try (NoteStore store = NoteStore.open(dir.resolve("notes.db"))) {
            store.add("one");
            store.add("two");
        }
        try (NoteStore store = NoteStore.open(dir.resolve("notes.db"))) {
            assertEquals(List.of("one", "two"), store.all());
        }
    }
}
