package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SysBlockTests {

    @Test
    void onlyRamFollowedByDigitsIsABrdDisk() {
        assertThat(SysBlock.isRamDisk("ram0")).isTrue();
        assertThat(SysBlock.isRamDisk("ram15")).isTrue();
        assertThat(SysBlock.isRamDisk("ram")).isFalse();
        assertThat(SysBlock.isRamDisk("ramoops")).isFalse();
        assertThat(SysBlock.isRamDisk("ram1p1")).isFalse();
        assertThat(SysBlock.isRamDisk("zram0")).isFalse();
        assertThat(SysBlock.isRamDisk("sda")).isFalse();
    }
}
