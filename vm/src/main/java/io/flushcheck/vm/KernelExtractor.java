package io.flushcheck.vm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The uncompressed kernel (an ELF {@code vmlinux}) out of a compressed {@code vmlinuz}, as the kernel's own
 * scripts/extract-vmlinux does it: decompress from the first compression magic on. QEMU boots the ELF
 * through its PVH entry point (CONFIG_PVH), which spares the emulated CPU the kernel's own decompression:
 * seconds under TCG.
 */
final class KernelExtractor {

    private record Format(byte[] magic, String tool, String debianPackage) {
    }

    private static final List<Format> FORMATS = List.of(
            new Format(new byte[] {(byte) 0xFD, '7', 'z', 'X', 'Z', 0}, "xz", "xz-utils"),
            new Format(new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD}, "zstd", "zstd"),
            new Format(new byte[] {0x1F, (byte) 0x8B, 0x08}, "gzip", "gzip"));

    private KernelExtractor() {
    }

    /**
     * Writes the ELF kernel inside {@code vmlinuz} to {@code out}.
     *
     * @return false when no decompressor found an ELF kernel in it ({@code out} then does not exist)
     */
    static boolean extract(Path vmlinuz, Path out) throws IOException {
        byte[] image = Files.readAllBytes(vmlinuz);
        int best = Integer.MAX_VALUE;
        Format format = null;
        for (Format f : FORMATS) {
            int at = indexOf(image, f.magic());
            if (at >= 0 && at < best && Exec.which(f.tool()) != null) {
                best = at;
                format = f;
            }
        }
        if (format == null) {
            return false;
        }
        // The compressed kernel is followed by other data: the decompressor's exit status is not the test, the ELF is.
        Exec.exec(null, List.of(format.tool(), "-dcq"), Arrays.copyOfRange(image, best, image.length), out);
        if (isElf(out)) {
            return true;
        }
        Files.deleteIfExists(out);
        return false;
    }

    static boolean isElf(Path p) throws IOException {
        if (!Files.isRegularFile(p) || Files.size(p) < (1 << 20)) {
            return false;
        }
        try (var in = Files.newInputStream(p)) {
            byte[] head = in.readNBytes(4);
            return head.length == 4 && head[0] == 0x7F && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
        }
    }

    static int indexOf(byte[] data, byte[] magic) {
        outer:
        for (int i = 0; i + magic.length <= data.length; i++) {
            for (int j = 0; j < magic.length; j++) {
                if (data[i + j] != magic[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
