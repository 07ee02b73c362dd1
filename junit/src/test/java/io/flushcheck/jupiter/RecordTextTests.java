package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckOptions;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared verdict's key names every component of the storage facts and options, as their records' toString does. */
class RecordTextTests {

    @Test
    void writesWhatARecordsToStringWrites() throws Exception {
        StorageFacts facts = new StorageInspector().inspect(Path.of("target").toAbsolutePath());
        for (Object value : new Object[] {facts, facts.mount(), facts.device(), facts.flushPoints(), facts.environment(),
                CheckOptions.defaults(), null, List.of()}) {
            assertThat(RecordText.of(value)).isEqualTo(String.valueOf(value));
        }
    }
}
