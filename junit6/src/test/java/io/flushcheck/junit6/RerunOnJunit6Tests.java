package io.flushcheck.junit6;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * What this module runs on JUnit 6: the JUnit extension's whole suite ({@code io.flushcheck.jupiter}), and
 * from every other module the test classes tagged {@value #TAG}, which must be every class that drives
 * JUnit's API: one that uses one of flushcheck's extensions (an annotation meta-annotated with
 * {@code @ExtendWith} of one, or a {@code @RegisterExtension} field of one, on the class, a method, a field
 * or a nested class), or that starts a
 * launcher or the engine test kit (directly or through the shared {@code RunFixture}). The rest (the
 * probe's, the command's and the VM images' suites) does not change with JUnit's version and runs once.
 */
class RerunOnJunit6Tests {

    static final String TAG = "junit-api";

    /** Class-file names that mean a class drives a launcher of its own. */
    private static final List<String> LAUNCHING = List.of("org/junit/platform/launcher/",
            "org/junit/platform/testkit/", "io/flushcheck/testing/RunFixture");

    @Test
    void everyTestClassOutsideTheExtensionsSuiteThatDrivesJunitsApiIsTaggedToRunAgain() throws Exception {
        List<String> scanned = new ArrayList<>();
        List<String> drive = new ArrayList<>();
        List<String> untagged = new ArrayList<>();
        List<String> taggedIdle = new ArrayList<>();
        for (String name : testClasses()) {
            if (name.startsWith("io.flushcheck.jupiter.") || name.startsWith("io.flushcheck.junit6.")) {
                continue;
            }
            scanned.add(name);
            Class<?> c = Class.forName(name, false, getClass().getClassLoader());
            boolean drives = usesExtension(c) || launches(c);
            boolean tagged = AnnotationSupport.findRepeatableAnnotations(c, Tag.class).stream()
                    .anyMatch(t -> t.value().equals(TAG));
            if (drives) {
                drive.add(name);
            }
            if (drives && !tagged) {
                untagged.add(name);
            } else if (tagged && !drives) {
                taggedIdle.add(name);
            }
        }
        assertThat(scanned).as("test classes found in the other modules' test jars").hasSizeGreaterThan(50);
        assertThat(drive).as("the classes found to drive JUnit's API")
                .contains("io.flushcheck.powercut.TornWriteTests", "io.flushcheck.cli.EscapedNamesTests",
                        "io.flushcheck.guest.GuestSuiteTests");
        assertThat(untagged).as("test classes that drive JUnit's API without @Tag(\"%s\"): they would not run on JUnit 6",
                TAG).isEmpty();
        assertThat(taggedIdle).as("test classes tagged %s that do not drive JUnit's API: they would run twice for"
                + " nothing", TAG).isEmpty();
    }

    private static boolean usesExtension(Class<?> c) {
        if (extends_(c)) {
            return true;
        }
        for (Method m : c.getDeclaredMethods()) {
            if (extends_(m)) {
                return true;
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (extends_(f) || AnnotationSupport.isAnnotated(f, RegisterExtension.class) && ours(f.getType())) {
                return true;
            }
        }
        for (Class<?> nested : c.getDeclaredClasses()) {
            if (usesExtension(nested)) {
                return true;
            }
        }
        return false;
    }

    /** Extended by one of flushcheck's extensions (JUnit's own, as {@code @ParameterizedTest}'s, do not count). */
    private static boolean extends_(AnnotatedElement e) {
        return AnnotationSupport.findRepeatableAnnotations(e, ExtendWith.class).stream()
                .flatMap(w -> Stream.of(w.value())).anyMatch(RerunOnJunit6Tests::ours);
    }

    private static boolean ours(Class<?> c) {
        return c.getName().startsWith("io.flushcheck.");
    }

    private static boolean launches(Class<?> c) throws IOException {
        String bytes = classBytes(c);
        for (String s : LAUNCHING) {
            if (bytes.contains(s)) {
                return true;
            }
        }
        for (Class<?> nested : c.getDeclaredClasses()) {
            if (launches(nested)) {
                return true;
            }
        }
        return false;
    }

    /** A class file as Latin-1 text: its constant pool's names are found in it as they are. */
    private static String classBytes(Class<?> c) throws IOException {
        String resource = c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** Surefire's default includes (Test*, *Test, *Tests, *TestCase), top-level classes only, under io/flushcheck. */
    private List<String> testClasses() throws IOException, URISyntaxException {
        TreeSet<String> out = new TreeSet<>();
        for (URL root : Collections.list(getClass().getClassLoader().getResources("io/flushcheck/"))) {
            if (root.getProtocol().equals("jar")) {
                try (JarFile jar = ((JarURLConnection) root.openConnection()).getJarFile()) {
                    for (JarEntry e : Collections.list(jar.entries())) {
                        addIfTest(e.getName(), out);
                    }
                }
            } else {
                Path dir = Path.of(root.toURI());
                Path base = dir.getParent().getParent();
                try (Stream<Path> files = Files.walk(dir)) {
                    files.forEach(p -> addIfTest(base.relativize(p).toString().replace('\\', '/'), out));
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            }
        }
        return new ArrayList<>(out);
    }

    private static void addIfTest(String entry, TreeSet<String> out) {
        if (!entry.endsWith(".class") || entry.contains("$")) {
            return;
        }
        String simple = entry.substring(entry.lastIndexOf('/') + 1, entry.length() - ".class".length());
        if (simple.startsWith("Test") || simple.endsWith("Test") || simple.endsWith("Tests") || simple.endsWith("TestCase")) {
            out.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
        }
    }
}
