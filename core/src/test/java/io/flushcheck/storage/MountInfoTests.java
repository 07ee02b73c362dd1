package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountInfoTests {

    private final List<MountInfo> mounts = MountInfo.parseAll(Fixtures.read("mountinfo/sample.txt"));

    private MountInfo byId(int id) {
        return mounts.stream().filter(m -> m.mountId() == id).findFirst().orElseThrow();
    }

    @Test
    void parsesEveryLineOfTheFixture() {
        assertThat(mounts).extracting(MountInfo::mountId).containsExactly(22, 27, 45, 50, 51, 52, 53, 54, 55, 56);
    }

    @Test
    void rootMountWithOptionalField() {
        MountInfo root = byId(27);
        assertThat(root.parentId()).isEqualTo(1);
        assertThat(root.device()).isEqualTo("254:0");
        assertThat(root.major()).isEqualTo(254);
        assertThat(root.minor()).isZero();
        assertThat(root.root()).isEqualTo("/");
        assertThat(root.mountPoint()).isEqualTo("/");
        assertThat(root.mountOptions()).containsExactly("rw", "relatime");
        assertThat(root.fsType()).isEqualTo("ext4");
        assertThat(root.source()).isEqualTo("/dev/vda");
        assertThat(root.superOptions()).containsExactly("rw", "discard", "errors=remount-ro");
        assertThat(root.barrierOffOptions()).isEmpty();
        assertThat(root.describe()).isEqualTo("/ (ext4 from /dev/vda, mount 27)");
    }

    @Test
    void bindMountKeepsItsRootAndSeveralOptionalFields() {
        MountInfo bind = byId(45);
        assertThat(bind.root()).isEqualTo("/var/lib/docker");
        assertThat(bind.mountPoint()).isEqualTo("/var/lib/docker");
        assertThat(bind.fsType()).isEqualTo("ext4");
        assertThat(bind.source()).isEqualTo("/dev/vda");
        assertThat(bind.superOptions()).containsExactly("rw", "discard");
    }

    @Test
    void octalEscapesAreDecoded() {
        assertThat(byId(50).mountPoint()).isEqualTo("/mnt/with space");
        MountInfo odd = byId(55);
        assertThat(odd.mountPoint()).isEqualTo("/mnt/tab\tand\\backslash");
        assertThat(odd.source()).isEqualTo("tmp fs");
    }

    @Test
    void unescapeLeavesIncompleteOrNonOctalEscapesAlone() {
        assertThat(MountInfo.unescape("a\\04")).isEqualTo("a\\04");
        assertThat(MountInfo.unescape("a\\089")).isEqualTo("a\\089");
        assertThat(MountInfo.unescape("\\040\\040")).isEqualTo("  ");
        assertThat(MountInfo.unescape("plain")).isEqualTo("plain");
    }

    @Test
    void barrierOffOptionsAreFoundInTheSuperOptions() {
        assertThat(byId(51).barrierOffOptions()).containsExactly("nobarrier");
        assertThat(byId(51).hasOption("nobarrier")).isTrue();
        assertThat(byId(54).barrierOffOptions()).containsExactly("barrier=0");
        assertThat(byId(54).major()).isEqualTo(7);
        assertThat(byId(54).minor()).isEqualTo(1);
    }

    @Test
    void overlayUpperdirIsASuperOption() {
        MountInfo overlay = byId(52);
        assertThat(overlay.fsType()).isEqualTo("overlay");
        assertThat(FsTypes.isOverlay(overlay.fsType())).isTrue();
        assertThat(overlay.superOption("upperdir")).isEqualTo("/var/lib/docker/overlay2/abc/diff");
        assertThat(overlay.superOption("lowerdir")).isEqualTo("/l1:/l2");
        assertThat(overlay.superOption("nosuchkey")).isNull();
        assertThat(overlay.major()).isZero();
    }

    @Test
    void fuseKeepsItsSubtypeAndCountsAsShared() {
        MountInfo sshfs = byId(53);
        assertThat(sshfs.fsType()).isEqualTo("fuse.sshfs");
        assertThat(sshfs.source()).isEqualTo("user@host:/srv");
        assertThat(FsTypes.isNetworkOrShared(sshfs.fsType())).isTrue();
        assertThat(FsTypes.isNetworkOrShared("ext4")).isFalse();
        assertThat(FsTypes.isRamFs(byId(56).fsType())).isTrue();
    }

    @Test
    void aLineWithoutSuperOptionsParses() {
        assertThat(byId(56).superOptions()).isEmpty();
        assertThat(byId(56).source()).isEqualTo("ramfs");
    }

    @Test
    void malformedLineIsNamedByNumber() {
        assertThatThrownBy(() -> MountInfo.parseAll(Fixtures.read("mountinfo/malformed.txt")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mountinfo line 3: not a mountinfo line: 'this is not a mountinfo line'");
    }

    @Test
    void badMountIdIsNamedByNumber() {
        assertThatThrownBy(() -> MountInfo.parseAll(Fixtures.read("mountinfo/bad-id.txt")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mountinfo line 2: bad mount id in 'x7 1 254:0 / / rw,relatime - ext4 /dev/vda rw'");
    }

    @Test
    void separatorWithoutTypeAndSourceIsRejected() {
        assertThatThrownBy(() -> MountInfo.parse("1 2 3:4 / /x rw - ext4"))
                .hasMessage("not a mountinfo line: '1 2 3:4 / /x rw - ext4'");
    }

    @Test
    void blankLinesAreSkipped() {
        assertThat(MountInfo.parseAll("\n21 1 254:0 / / rw - ext4 /dev/vda rw\n\n")).hasSize(1);
    }

    @Test
    void theLiveMountinfoParses() {
        MountTable live = MountTable.live();
        assertThat(live.mounts()).isNotEmpty();
        assertThat(live.mountOf("/").mountPoint()).isEqualTo("/");
    }
}
