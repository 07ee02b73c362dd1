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
import java.util.Set;
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
 *
 * <p>A class may instead name, with a tag {@value #SAME_AS}{@code CLASS}, a tagged class that drives the same
 * part of JUnit's API, so that it runs once: a suite whose minute goes to booting QEMU guests or cutting a
 * database's power, where JUnit only sees a dynamic test or an extension that a quicker class already runs on
 * JUnit 6. The named class must use every extension of flushcheck's it uses, and start a launcher if it does.
 */
class RerunOnJunit6Tests {

    static final String TAG = "junit-api";

    /** A tag's prefix naming the class that runs, on JUnit 6, the part of its API a class drives. */
    static final String SAME_AS = "junit-api-as:";

    /** Class-file names that mean a class drives a launcher of its own. */
    private static final List<String> LAUNCHING = List.of("org/junit/platform/launcher/",
            "org/junit/platform/testkit/", "io/flushcheck/testing/RunFixture");

    @Test
    void everyTestClassOutsideTheExtensionsSuiteThatDrivesJunitsApiIsTaggedToRunAgain() throws Exception {
        List<String> scanned = new ArrayList<>();
        List<String> drive = new ArrayList<>();
        List<String> untagged = new ArrayList<>();
        List<String> taggedIdle = new ArrayList<>();
        List<String> coveredWrongly = new ArrayList<>();
        for (String name : testClasses()) {
            if (name.startsWith("io.flushcheck.jupiter.") || name.startsWith("io.flushcheck.junit6.")) {
                continue;
            }
            scanned.add(name);
            Class<?> c = load(name);
            Set<String> uses = apiUses(c);
            boolean drives = !uses.isEmpty();
            boolean tagged = tags(c).contains(TAG);
            String sameAs = tags(c).stream().filter(t -> t.startsWith(SAME_AS)).map(t -> t.substring(SAME_AS.length()))
                    .findFirst().orElse(null);
            if (drives) {
                drive.add(name);
            }
            if (sameAs != null) {
                String why = sameAsRefused(uses, sameAs);
                if (why != null) {
                    coveredWrongly.add(name + " names " + sameAs + ", which " + why);
                }
            } else if (drives && !tagged) {
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
        assertThat(coveredWrongly).as("test classes that name another to run their part of JUnit's API on JUnit 6")
                .isEmpty();
        assertThat(taggedIdle).as("test classes tagged %s that do not drive JUnit's API: they would run twice for"
                + " nothing", TAG).isEmpty();
    }

    /** Why {@code sameAs} cannot stand for a class that uses {@code uses}; null when it can. */
    private String sameAsRefused(Set<String> uses, String sameAs) {
        Class<?> other;
        try {
            other = load(sameAs);
        } catch (ClassNotFoundException e) {
            return "is not a test class of any module";
        }
        if (!tags(other).contains(TAG)) {
            return "is not tagged " + TAG + " itself";
        }
        Set<String> missing = new TreeSet<>(uses);
        missing.removeAll(apiUses(other));
        return missing.isEmpty() ? null : "does not use " + missing;
    }

    private Class<?> load(String name) throws ClassNotFoundException {
        return Class.forName(name, false, getClass().getClassLoader());
    }

    private static Set<String> tags(Class<?> c) {
        Set<String> out = new TreeSet<>();
        AnnotationSupport.findRepeatableAnnotations(c, Tag.class).forEach(t -> out.add(t.value()));
        return out;
    }

    /** The extensions of flushcheck's a class uses, by name, and {@value #LAUNCHER} if it starts a launcher. */
    private static Set<String> apiUses(Class<?> c) {
        Set<String> out = new TreeSet<>();
        extensions(c, out);
        try {
            if (launches(c)) {
                out.add(LAUNCHER);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static final String LAUNCHER = "a launcher";

    private static void extensions(Class<?> c, Set<String> out) {
        extensions((AnnotatedElement) c, out);
        for (Method m : c.getDeclaredMethods()) {
            extensions(m, out);
        }
        for (Field f : c.getDeclaredFields()) {
            extensions(f, out);
            if (AnnotationSupport.isAnnotated(f, RegisterExtension.class) && ours(f.getType())) {
                out.add(f.getType().getName());
            }
        }
        for (Class<?> nested : c.getDeclaredClasses()) {
            extensions(nested, out);
        }
    }

    /** The extensions of flushcheck's on an element (JUnit's own, as {@code @ParameterizedTest}'s, do not count). */
    private static void extensions(AnnotatedElement e, Set<String> out) {
        AnnotationSupport.findRepeatableAnnotations(e, ExtendWith.class).stream().flatMap(w -> Stream.of(w.value()))
                .filter(RerunOnJunit6Tests::ours).forEach(x -> out.add(x.getName()));
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
