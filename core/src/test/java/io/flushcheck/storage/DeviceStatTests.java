package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DeviceStatTests {

    @Test
    void modernLineHasFlushesInField16() {
        DeviceStat s = DeviceStat.parse(Fixtures.read("diskstat/linux-5.5-17-fields.txt"));
        assertThat(s.writesCompleted()).isEqualTo(13577);
        assertThat(s.sectorsWritten()).isEqualTo(1480768);
        assertThat(s.kibWritten()).isEqualTo(740384);
        assertThat(s.flushes()).isEqualTo(3180);
        assertThat(s.countsFlushes()).isTrue();
    }

    @Test
    void elevenFieldLineHasNoFlushCounter() {
        DeviceStat s = DeviceStat.parse(Fixtures.read("diskstat/linux-4.18-11-fields.txt"));
        assertThat(s.writesCompleted()).isEqualTo(424847);
        assertThat(s.sectorsWritten()).isEqualTo(5922052);
        assertThat(s.flushes()).isEqualTo(-1);
        assertThat(s.countsFlushes()).isFalse();
    }

    @Test
    void fifteenFieldLineWithDiscardsHasNoFlushCounter() {
        DeviceStat s = DeviceStat.parse(Fixtures.read("diskstat/linux-5.4-15-fields.txt"));
        assertThat(s.flushes()).isEqualTo(-1);
        assertThat(s.sectorsWritten()).isEqualTo(5922052);
    }

    @Test
    void differencesAndSums() {
        DeviceStat before = new DeviceStat(10, 100, 5);
        DeviceStat after = new DeviceStat(15, 180, 9);
        assertThat(after.minus(before)).isEqualTo(new DeviceStat(5, 80, 4));
        assertThat(after.minus(before).kibWritten()).isEqualTo(40);
        assertThat(after.plus(before)).isEqualTo(new DeviceStat(25, 280, 14));
        DeviceStat old = new DeviceStat(1, 2, -1);
        assertThat(after.minus(old).flushes()).isEqualTo(-1);
        assertThat(old.plus(after).flushes()).isEqualTo(-1);
    }

    @Test
    void garbageIsRejectedWithTheLine() {
        assertThatThrownBy(() -> DeviceStat.parse("hello world\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a block device stat line (2 fields): 'hello world'");
        assertThatThrownBy(() -> DeviceStat.parse("1 2 3 4 x 6 7 8 9 10 11"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a block device stat line: '1 2 3 4 x 6 7 8 9 10 11'");
        assertThatThrownBy(() -> DeviceStat.parse(""))
                .hasMessage("not a block device stat line (1 fields): ''");
    }

    @Test
    void theLiveRootDeviceParses() throws Exception {
        MountInfo root = MountTable.live().mountOf("/");
        Path stat = Path.of("/sys/dev/block", root.device(), "stat");
        if (!Files.exists(stat)) {
            stat = Path.of("/sys/block/vda/stat");
        }
        if (Files.exists(stat)) {
            DeviceStat s = DeviceStat.read(stat);
            assertThat(s.sectorsWritten()).isNotNegative();
        }
    }
}
