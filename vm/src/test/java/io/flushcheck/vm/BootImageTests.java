package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guest image from this machine's Debian packages: reproducible, cached by its inputs. */
class BootImageTests {

    @Test
    void sameInputsGiveTheSameBytesAndComeFromTheCacheTheSecondTime(@TempDir Path a, @TempDir Path b) throws Exception {
        VmTesting.requireVm();
        BootImage.Inputs inputs = BootImage.Inputs.ofThisMachine();
        List<String> progress = new ArrayList<>();
        BootImage first = BootImage.obtain(a, inputs, progress::add);
        BootImage other = BootImage.obtain(b, inputs, progress::add);
        assertThat(first.built()).isTrue();
        assertThat(other.built()).isTrue();
        assertThat(sha(first.initramfs())).as("initramfs built twice").isEqualTo(sha(other.initramfs()));
        assertThat(sha(first.kernel())).isEqualTo(sha(other.kernel()));
        assertThat(KernelExtractor.isElf(first.kernel())).as("the uncompressed kernel").isTrue();

        BootImage again = BootImage.obtain(a, inputs, progress::add);
        assertThat(again.built()).as("second time from the cache").isFalse();
        assertThat(again.initramfs()).isEqualTo(first.initramfs());
        assertThat(progress).hasSize(2);
        try (var s = Files.list(a)) {
            assertThat(s.map(p -> p.getFileName().toString())).as("no build directory left").containsExactly(first.key());
        }

        // One input changed (the init): a new key, a new image.
        BootImage changed = BootImage.obtain(a, inputs.withInit((new String(inputs.init(), StandardCharsets.UTF_8)
                + "\n# changed\n").getBytes(StandardCharsets.UTF_8)), progress::add);
        assertThat(changed.built()).isTrue();
        assertThat(changed.key()).isNotEqualTo(first.key());
        assertThat(sha(changed.initramfs())).isNotEqualTo(sha(first.initramfs()));
    }

    @Test
    void theKernelIsTheOneLinuxImageAmd64DependsOn() {
        VmTesting.requireVm();
        GuestKernel k = GuestKernel.resolve();
        assertThat(k.packageName()).startsWith("linux-image-").isNotEqualTo("linux-image-amd64");
        assertThat(k.image()).isRegularFile().hasFileName("vmlinuz-" + k.release());
        assertThat(k.modules().resolve("modules.dep")).isRegularFile();
    }

    private static String sha(Path p) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }
}
