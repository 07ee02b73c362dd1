package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The power-cut commands' work directory lies in the temporary directory, which every user shares: its name is
 * not one another user can know, and make first, before the command makes it.
 */
class WorkDirectoryNameTests {

    @Test
    void theWorkDirectorysNameIsRandomNotThePidAndNotTheSameTwice() {
        Path one = Machine.workDir();
        Path two = Machine.workDir();
        assertThat(one.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
        // 128 random bits, not the PID (whose digits random hex may well contain, so no search for them)
        assertThat(one.getFileName().toString()).matches("flushcheck-powercut-[0-9a-f]{32}");
        assertThat(two).isNotEqualTo(one);
    }
}
