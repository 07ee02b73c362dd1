package com.example.notes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.flushcheck.jupiter.RequiresRealFlush;
import io.flushcheck.sqlite.SqliteDurability;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The application's store, in its Spring context, on a directory whose syncs must reach a disk. */
// tag::verdict[]
@SpringBootTest
@RequiresRealFlush       // judges the @TempDir below: NO_REAL_FLUSH (tmpfs, eatmydata...) fails the test
@DirtiesContext          // closes the store before JUnit removes its directory
class NotesVerdictTest {

    @TempDir
    static Path dir;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("notes.database", () -> dir.resolve("notes.db").toString());
    }

    @Autowired
    NoteStore store;

    @Test
    void aNoteIsCommittedWithSettingsThatSurviveAPowerLoss() throws Exception {
        SqliteDurability.assertPowerLossDurable(store.connection());   // WAL with synchronous=FULL
        store.add("buy milk");
        assertEquals(List.of("buy milk"), store.all());
    }
}
// end::verdict[]
