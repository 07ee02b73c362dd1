package io.flushcheck.sample;

import io.flushcheck.jupiter.FlushAssertions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Code that makes its own directories asks about one of them in one line. */
class FlushAssertionsExampleTest {

    @Test
    void aDirectoryTheCodeMakesItselfIsJudged(@TempDir Path base) {
        // tag::assert-real-flush[]
        Path data = base.resolve("db");            // need not exist yet
        FlushAssertions.assertRealFlush(data);     // NoRealFlushError unless its storage really flushes
        // end::assert-real-flush[]
    }
}
