package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class-file header: real class files of two releases, and headers that are no class file. */
class ClassFileVersionTests {

    @Test
    void aClassOfThisBuildIsJava17() throws Exception {
        try (InputStream in = GuestMain.class.getResourceAsStream("GuestMain.class")) {
            ClassFileVersion v = ClassFileVersion.read(in);
            assertThat(v.major()).isEqualTo(61);
            assertThat(v.release()).isEqualTo(17);
        }
    }

    @Test
    void aClassCompiledForJava21IsJava21(@TempDir Path dir) throws Exception {
        Path classes = NewerJavac.compile(dir, "Newer", "public class Newer {}", 21);
        try (InputStream in = Files.newInputStream(classes.resolve("Newer.class"))) {
            ClassFileVersion v = ClassFileVersion.read(in);
            assertThat(v.major()).isEqualTo(65);
            assertThat(v.release()).isEqualTo(21);
        }
    }

    @Test
    void theReleaseAndTheMajorVersionConvertBothWays() {
        assertThat(ClassFileVersion.majorOf(17)).isEqualTo(61);
        assertThat(ClassFileVersion.majorOf(25)).isEqualTo(69);
        assertThat(new ClassFileVersion(52, 0).release()).isEqualTo(8);
        assertThat(new ClassFileVersion(45, 3).release()).isEqualTo(1);
    }

    @Test
    void whatIsNoClassFileIsRefusedWithWhatItFound() throws Exception {
        assertThatThrownBy(() -> read(0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 61)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a class file: it starts with 0xCAFEBABF, not 0xCAFEBABE");
        assertThatThrownBy(() -> read(0xCA, 0xFE, 0xBA, 0xBE, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shorter than a class file's 8-byte header");
        assertThatThrownBy(() -> read(0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 44)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a class file: major version 44 is below 45");
        assertThat(read(0xCA, 0xFE, 0xBA, 0xBE, 0xFF, 0xFF, 0, 69)).isEqualTo(new ClassFileVersion(69, 0xFFFF));
    }

    private static ClassFileVersion read(int... bytes) throws Exception {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return ClassFileVersion.read(new ByteArrayInputStream(b));
    }
}
