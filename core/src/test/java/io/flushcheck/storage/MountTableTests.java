package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountTableTests {

    private final MountTable table = new MountTable(MountInfo.parseAll(Fixtures.read("mountinfo/table.txt")));

    @Test
    void theDeepestMountOnThePathWins() {
        assertThat(table.mountOf("/mnt/a/b/c").mountId()).isEqualTo(33);
        assertThat(table.mountOf("/mnt/a/b").mountId()).isEqualTo(33);
        assertThat(table.mountOf("/mnt/a/x").mountId()).isEqualTo(31);
        assertThat(table.mountOf("/mnt/a").mountId()).isEqualTo(31);
        assertThat(table.mountOf("/usr/bin").mountId()).isEqualTo(21);
        assertThat(table.mountOf("/").mountId()).isEqualTo(21);
    }

    @Test
    void aPrefixMustEndAtAPathSeparator() {
        // /mnt/ab is its own mount, not under /mnt/a; /mnt/abc is under neither.
        assertThat(table.mountOf("/mnt/ab/file").mountId()).isEqualTo(32);
        assertThat(table.mountOf("/mnt/abc").mountId()).isEqualTo(21);
        assertThat(MountTable.isUnder("/mnt/abc", "/mnt/ab")).isFalse();
        assertThat(MountTable.isUnder("/mnt/ab", "/mnt/ab")).isTrue();
        assertThat(MountTable.isUnder("/anything", "/")).isTrue();
    }

    @Test
    void theLastMountOnTheSamePointHidesEarlierOnes() {
        assertThat(table.mountOf("/dev/shm").mountId()).isEqualTo(30);
        assertThat(table.mountOf("/dev/shm/x").superOptions()).contains("size=200k");
    }

    @Test
    void aMountHiddenByALaterOneAboveItDoesNotServeThePath() {
        MountTable covered = new MountTable(MountInfo.parseAll(Fixtures.read("mountinfo/covered.txt")));
        // A disk bind on /tmp/x/a, then tmpfs over /tmp/x: the bind is still listed, but a walk from the
        // root meets the tmpfs first, and /tmp/x/a is the tmpfs's own directory.
        assertThat(covered.mountOf("/tmp/x/a").mountId()).isEqualTo(41);
        assertThat(covered.mountOf("/tmp/x/a/file").fsType()).isEqualTo("tmpfs");
        // The reverse: tmpfs on /s/a, then a disk bind over /s.
        assertThat(covered.mountOf("/s/a").mountId()).isEqualTo(51);
        // A mount stacked on another is reached through it, and so are the mounts on top of it.
        assertThat(covered.mountOf("/stack/x").mountId()).isEqualTo(61);
        assertThat(covered.mountOf("/stack/deep/x").mountId()).isEqualTo(62);
        MountTable lazy = MountTable.of(Fixtures.read("mountinfo/covered.txt"));
        assertThat(lazy.mountOf("/tmp/x/a").mountId()).isEqualTo(41);
        assertThat(lazy.mountOf("/s/a").mountId()).isEqualTo(51);
    }

    @Test
    void noMountHoldingThePathIsAnError() {
        MountTable noRoot = new MountTable(List.of(MountInfo.parse("25 21 0:23 / /dev/shm rw - tmpfs tmpfs rw")));
        assertThatThrownBy(() -> noRoot.mountOf("/etc")).isInstanceOf(IllegalStateException.class)
                .hasMessage("no mount holds /etc");
    }

    @Test
    void theLazyTableFindsWhatTheParsedOneFinds() {
        String text = Fixtures.read("mountinfo/table.txt");
        MountTable lazy = MountTable.of(text);
        for (MountInfo m : MountInfo.parseAll(text)) {
            for (String path : new String[] {m.mountPoint(), m.mountPoint() + "/x/y"}) {
                assertThat(lazy.mountOf(path)).as(path).isEqualTo(table.mountOf(path));
            }
        }
        assertThat(lazy.mounts()).isEqualTo(table.mounts());
        assertThat(MountTable.mountPointField("36 35 98:0 /mnt1 /mnt\\040two rw - ext3 /dev/root rw")).isEqualTo("/mnt two");
        assertThat(MountTable.mountPointField("36 35 98:0")).isNull();
    }
}
