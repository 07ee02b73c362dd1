package io.flushcheck.guest;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.apiguardian.api.API;

/** This JVM's classpath as files, with manifest-only jars (Surefire's booter) expanded: what a place runs. */
@API(status = API.Status.INTERNAL, since = "0.1.0")
public final class Classpath {

    private Classpath() {
    }

    public static List<Path> current() {
        Set<Path> out = new LinkedHashSet<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                add(Path.of(e).toAbsolutePath().normalize(), out);
            }
        }
        return new ArrayList<>(out);
    }

    private static void add(Path p, Set<Path> out) {
        if (!Files.exists(p) || out.contains(p)) {
            return;
        }
        out.add(p);
        if (!Files.isRegularFile(p) || !p.toString().endsWith(".jar")) {
            return;
        }
        try (JarFile jar = new JarFile(p.toFile())) {
            Manifest mf = jar.getManifest();
            String cp = mf == null ? null : mf.getMainAttributes().getValue("Class-Path");
            if (cp == null) {
                return;
            }
            for (String ref : cp.trim().split("\\s+")) {
                if (ref.isEmpty()) {
                    continue;
                }
                try {
                    URI uri = p.toUri().resolve(ref);
                    if ("file".equals(uri.getScheme())) {
                        add(Path.of(uri).normalize(), out);
                    }
                } catch (IllegalArgumentException ignored) {
                    // not a file reference
                }
            }
        } catch (IOException ignored) {
            // unreadable jar: it still goes over as it is
        }
    }
}
