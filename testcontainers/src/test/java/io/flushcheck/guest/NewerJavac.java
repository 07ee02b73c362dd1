package io.flushcheck.guest;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A real javac of a JDK 21 or later from /usr/lib/jvm, to compile classes the guests' Java 17 cannot load. */
final class NewerJavac {

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private NewerJavac() {
    }

    /** Compiles {@code source} (a class named {@code className}, default package) with {@code --release} into {@code dir}. */
    static Path compile(Path dir, String className, String source, int release) throws IOException, InterruptedException {
        Path javac = find(release);
        Requirements.require(javac != null, "a JDK " + release + " or later in /usr/lib/jvm (apt-get install openjdk-"
                + release + "-jdk-headless, or Temurin's)");
        Path src = Files.createDirectories(dir.resolve("src")).resolve(className + ".java");
        Files.writeString(src, source);
        Path out = Files.createDirectories(dir.resolve("classes"));
        Process p = new ProcessBuilder(javac.toString(), "--release", String.valueOf(release), "-d", out.toString(),
                src.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(javac + " failed: " + log);
        }
        return out;
    }

    /** The javac of a JDK whose release file says {@code release} or later, or null. */
    static Path find(int release) throws IOException {
        Path jvm = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvm)) {
            return null;
        }
        try (Stream<Path> jdks = Files.list(jvm)) {
            for (Path jdk : jdks.sorted().toList()) {
                Path javac = jdk.resolve("bin/javac");
                Path releaseFile = jdk.resolve("release");
                if (Files.isExecutable(javac) && Files.isRegularFile(releaseFile)) {
                    Matcher m = VERSION.matcher(Files.readString(releaseFile));
                    if (m.find() && Integer.parseInt(m.group(1)) >= release) {
                        return javac;
                    }
                }
            }
        }
        return null;
    }
}
