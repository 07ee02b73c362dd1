package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The action an armed cut runs (a program's process group killed): at the k-th flush, once, frozen already. */
class SectorStoreAtCutTests {

    @Test
    void runsWhenTheArmedFlushCompletesOnceAndAfterTheFreeze() {
        SectorStore s = new SectorStore(16 * 4096);
        List<String> seen = new ArrayList<>();
        s.cutAtFlush(2, () -> seen.add("cut at flush " + s.flushes() + ", frozen " + s.frozen()));
        s.write(0, new byte[4096], 4096);
        s.flush();
        assertThat(seen).isEmpty();
        s.write(4096, new byte[4096], 4096);
        s.flush();
        s.flush();
        s.write(8192, new byte[4096], 4096);
        assertThat(seen).containsExactly("cut at flush 2, frozen true");
        assertThat(s.flushes()).isEqualTo(2);
        assertThat(s.unflushedBytes()).isZero();
    }
}
