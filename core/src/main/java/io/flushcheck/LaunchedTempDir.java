package io.flushcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The JDK's temp directory read from how this JVM was launched, where that is certain: on Linux the JDK takes
 * {@code java.io.tmpdir} at startup and, unless an option sets it, it is {@code /tmp} (the C library's
 * {@code P_tmpdir}; {@code TMPDIR} plays no part). So when no option could have set it (none of the command
 * line's arguments, the argument files it names, {@code JDK_JAVA_OPTIONS}, {@code JAVA_TOOL_OPTIONS} or
 * {@code _JAVA_OPTIONS} mentions it, and no VM options file is named), the answer is {@code /tmp} without
 * creating anything. Anything else (an option that names it, a file that cannot be read, another OS) is left to
 * the JDK itself ({@link JdkTempDir}): {@code Files.createTempDirectory} costs the JVM its first
 * {@code SecureRandom}, about 25 ms of loading the security providers, which every forked test JVM would pay.
 */
final class LaunchedTempDir {

    static final String PROPERTY = "java.io.tmpdir";
    private static final List<String> OPTION_VARIABLES = List.of("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS");

    private LaunchedTempDir() {
    }

    /** {@code /tmp} when this JVM's launch certainly left the temp directory at the default, else null. */
    static Path of() {
        if (!"Linux".equals(System.getProperty("os.name"))) {
            return null;
        }
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc/self/cmdline"));
            return of(new String(raw, StandardCharsets.UTF_8).split("\0"), System.getenv());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** As {@link #of()}, from the launch's arguments and environment; argument files are read from the disk. */
    static Path of(String[] arguments, Map<String, String> environment) throws IOException {
        for (String variable : OPTION_VARIABLES) {
            String value = environment.get(variable);
            // An argument file named there would have to be read as the launcher reads it: left to the JDK.
            if (value != null && (couldSet(value) || value.contains("@"))) {
                return null;
            }
        }
        for (String argument : arguments) {
            if (couldSet(argument)) {
                return null;
            }
            if (argument.startsWith("@") && argument.length() > 1) {
                Path file = Path.of(argument.substring(1));
                if (!Files.isReadable(file) || couldSet(Files.readString(file, StandardCharsets.UTF_8))) {
                    return null;
                }
            }
        }
        return Path.of("/tmp");
    }

    /** True when {@code text} names the property or a file of VM options that might. */
    private static boolean couldSet(String text) {
        return text.contains(PROPERTY) || text.contains("VMOptionsFile") || text.contains("-XX:Flags");
    }
}
