package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.cli.InProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --shard I/N} is read before any recording is: each value out of 1 ≤ I ≤ N ≤ the most shards is one line,
 * exit 2.
 */
class ShardOptionTests {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"0/2", "3/2", "1/0", "0/0", "-1/2", "1/-2", "1/2000000000", "1/99999999999999999999",
        "1/2/3", "/2", "1/", "2", "a/b"})
    void aShardOutOfRangeIsOneLineExit2(String bad) {
        Run r = InProcess.run("powercut", "--replay", tmp.toString(), "--shard", bad, "--verify", "true {dir}");

        assertThat(r.exit()).as("%s", r).isEqualTo(2);
        assertThat(r.err().lines()).as("%s", r).hasSize(1);
        assertThat(r.err()).as("%s", r).contains("--shard");
    }
}
