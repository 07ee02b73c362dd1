package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java release the classes a guest runs need, from their class files. */
class ClassesReleaseTests {

    private static final String NEWER = "public class Newer { public static void main(String[] a) {} }";

    @Test
    void aTestClassCompiledForJava21NeedsJava21AndAJava17GuestIsRefusedNamingBoth(@TempDir Path dir) throws Exception {
        Path classes = NewerJavac.compile(dir, "Newer", NEWER, 21);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            ClassesRelease r = ClassesRelease.of(List.of("Newer"), List.of(), loader);

            assertThat(r).isEqualTo(new ClassesRelease(21, 65, "Newer", true));
            assertThat(r.refusal(21, "img")).isNull();
            assertThat(r.refusal(25, "img")).isNull();
            assertThat(r.refusal(17, "flushcheck/guest-x:1 FROM base (why)")).isEqualTo("the test classes are Java 21 "
                    + "(class file 65, as Newer); the guest image's JRE is Java 17 (flushcheck/guest-x:1 FROM base (why)):"
                    + " set flushcheck.guest.baseImage to an image with Java 21 or later (such as eclipse-temurin:21-jre),"
                    + " or compile for 17");
        }
    }

    @Test
    void aClassDirectoryOnTheClassPathCountsAndItsVersionedClassesAndNonClassFilesDoNot(@TempDir Path dir)
            throws Exception {
        Path classes = NewerJavac.compile(dir, "Newer", NEWER, 21);
        Path tree = Files.createDirectories(dir.resolve("tree/com/example"));
        Files.copy(classes.resolve("Newer.class"), tree.resolve("Newer.class"));
        Path versioned = Files.createDirectories(dir.resolve("tree/META-INF/versions/25"));
        Files.write(versioned.resolve("Later.class"), header(69));
        Files.write(tree.resolve("Broken.class"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});

        ClassesRelease r = ClassesRelease.of(List.of(), List.of(dir.resolve("tree")), getClass().getClassLoader());

        assertThat(r).isEqualTo(new ClassesRelease(21, 65, "com.example.Newer", false));
        assertThat(r.refusal(17, "img")).startsWith("the classes on the class path are Java 21 (class file 65, as "
                + "com.example.Newer)");
    }

    @Test
    void withNothingNewerTheGuestEntryDecidesAndThisBuildIsJava17() {
        ClassesRelease r = ClassesRelease.of(List.of("no.such.Class"), List.of(), getClass().getClassLoader());

        assertThat(r).isEqualTo(new ClassesRelease(17, 61, GuestMain.class.getName(), false));
    }

    @Test
    void thisJvmsWholeClassPathIsJava17() {
        ClassesRelease r = ClassesRelease.of(List.of(ClassesReleaseTests.class.getName()), Classpath.current(),
                getClass().getClassLoader());

        assertThat(r.release()).isEqualTo(17);
    }

    private static byte[] header(int major) {
        return new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, (byte) major};
    }
}
