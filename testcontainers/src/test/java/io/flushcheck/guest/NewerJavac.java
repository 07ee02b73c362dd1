package io.flushcheck.guest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Class files of a newer Java than the guests' 17: compiled by the javac of a JDK of that release or later in
 * /usr/lib/jvm where there is one (as Temurin's packages install it); elsewhere (Debian bookworm has no JDK 21)
 * compiled by this JDK for 17 and given the newer release's major version in their header, which is all the
 * version reader and the refusal read.
 */
final class NewerJavac {

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private NewerJavac() {
    }

    /**
     * Compiles {@code source} (a class named {@code className}, default package) for {@code release} into a
     * directory under {@code dir}, and returns that directory.
     */
    static Path compile(Path dir, String className, String source, int release) throws IOException, InterruptedException {
        Path src = Files.createDirectories(dir.resolve("src")).resolve(className + ".java");
        Files.writeString(src, source);
        Path out = Files.createDirectories(dir.resolve("classes"));
        Path javac = find(release);
        if (javac != null) {
            Process p = new ProcessBuilder(javac.toString(), "--release", String.valueOf(release), "-d", out.toString(),
                    src.toString()).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(javac + " failed: " + log);
            }
            return out;
        }
        JavaCompiler here = ToolProvider.getSystemJavaCompiler();
        if (here == null || here.run(null, null, null, "--release", "17", "-d", out.toString(), src.toString()) != 0) {
            throw new IllegalStateException("cannot compile " + src + " with this JVM's compiler");
        }
        Path classFile = out.resolve(className + ".class");
        byte[] b = Files.readAllBytes(classFile);
        int major = ClassFileVersion.majorOf(release);
        b[6] = (byte) (major >>> 8);
        b[7] = (byte) major;
        Files.write(classFile, b);
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
