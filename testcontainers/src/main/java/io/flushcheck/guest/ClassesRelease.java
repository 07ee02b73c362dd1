package io.flushcheck.guest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Java release a guest's JVM needs to load what it runs: the highest class-file version among the guest's
 * entry ({@link GuestMain}), the test classes named and every class in the class path's directories (a build's
 * compiled classes and test classes). Jars are not read: a library built for a newer Java than the guest's stops
 * in the guest with its {@code UnsupportedClassVersionError}.
 *
 * @param release  the Java feature release, 17 or more (the guest's entry is built for 17)
 * @param major    its class-file major version
 * @param example  a class of that version, by name
 * @param testClass whether {@code example} is one of the test classes named
 */
record ClassesRelease(int release, int major, String example, boolean testClass) {

    /** Multi-release directories hold classes for newer releases that older JVMs never load. */
    private static final String VERSIONED = "META-INF/versions/";

    /** The release of the guest's entry, the test classes named (found through {@code loader}) and the class directories. */
    static ClassesRelease of(List<String> testClasses, List<Path> classpath, ClassLoader loader) {
        ClassesRelease highest = ofResource(GuestMain.class.getName(), loader, false);
        for (String name : testClasses) {
            ClassesRelease r = ofResource(name, loader, true);
            if (r != null && (highest == null || r.major > highest.major)) {
                highest = r;
            }
        }
        for (Path entry : classpath) {
            if (Files.isDirectory(entry)) {
                ClassesRelease r = ofDirectory(entry);
                if (r != null && (highest == null || r.major > highest.major)) {
                    highest = r;
                }
            }
        }
        if (highest == null) {
            throw new IllegalStateException("cannot read the class file of " + GuestMain.class.getName());
        }
        return highest;
    }

    /** The class's release, or null when the loader has no class file of that name or it is no class file. */
    private static ClassesRelease ofResource(String className, ClassLoader loader, boolean testClass) {
        try (InputStream in = loader.getResourceAsStream(className.replace('.', '/') + ".class")) {
            if (in == null) {
                return null;
            }
            ClassFileVersion v = ClassFileVersion.read(in);
            return new ClassesRelease(v.release(), v.major(), className, testClass);
        } catch (IOException | IllegalArgumentException e) {
            return null; // the guest's launcher reports a class it cannot load
        }
    }

    /** The highest release of the class files under a directory, without following links; null when there are none. */
    private static ClassesRelease ofDirectory(Path dir) {
        ClassesRelease highest = null;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String relative = dir.relativize(f).toString().replace('\\', '/');
                if (!relative.endsWith(".class") || relative.startsWith(VERSIONED) || !Files.isRegularFile(f)) {
                    continue;
                }
                ClassFileVersion v;
                try (InputStream in = Files.newInputStream(f)) {
                    v = ClassFileVersion.read(in);
                } catch (IOException | IllegalArgumentException e) {
                    continue; // not a class the JVM would load either
                }
                if (highest == null || v.major() > highest.major) {
                    String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                    highest = new ClassesRelease(v.release(), v.major(), name, false);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            return highest; // a directory that cannot be read all through: what was read
        }
        return highest;
    }

    /**
     * Why a JRE of {@code jreRelease} cannot run these classes, naming both versions and what to do, or null when it
     * can.
     *
     * @param image the guest image, as the message should name it
     */
    String refusal(int jreRelease, String image) {
        if (jreRelease >= release) {
            return null;
        }
        return String.format("%s are Java %d (class file %d, as %s); the guest image's JRE is Java %d (%s): set %s "
                + "to an image with Java %d or later (such as %s), or compile for %d",
                testClass ? "the test classes" : "the classes on the class path", release, major, example, jreRelease,
                image, GuestImage.BASE_IMAGE_KEY, release, GuestImageChoice.temurinImage(release), jreRelease);
    }
}
