package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.RunFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A Surefire fork that finds its verdict in the build's shared store pays for loading classes, not for a
 * probe: what it loads beyond a plain test's JVM is the cost of {@code @RequiresRealFlush} per fork. These
 * tests watch a fresh JVM's class loading and fail when the hit path starts loading the probe's native
 * binding, another library, or a heap of classes again.
 */
class SharedVerdictClassLoadingTests {

    /**
     * Classes a fork that reads a shared verdict loads beyond a plain test's JVM, lambdas and the JDK's
     * generated method-handle classes included: about 140 on JDK 17 and JUnit 5.14, a third of them JUnit's
     * timestamp of the report entry. The bound leaves room for another JDK's or JUnit's differences, not for a
     * library's worth of classes, nor for method handles spun for records' {@code hashCode} and {@code toString}.
     */
    static final int MOST_EXTRA_CLASSES = 200;

    /**
     * flushcheck's classes on the hit path (the fixture and lambdas included): 61, the storage facts among them, with
     * every device the filesystem writes to (FilesystemDevices) and the namespace the path leads into (KernelPath,
     * MountIdentity).
     */
    static final int MOST_FLUSHCHECK_CLASSES = 63;

    @Test
    void aForkThatReadsASharedVerdictLoadsNoNativeBindingAndFewClasses() throws IOException {
        Path project = SharedVerdictTests.project("classes");
        ChildJvm.Result first = ChildJvm.run(fork(Fixtures.Durable.class, List.of()), 120, project);
        assertThat(first.stderr()).as("%s", first).contains(SharedVerdictTests.JUDGED);

        Path hitLog = project.resolve("hit.log");
        ChildJvm.Result hit = ChildJvm.run(fork(Fixtures.Durable.class, classLog(hitLog)), 120, project);
        assertThat(hit.stdout()).as("%s", hit).isEqualTo("SUCCESSFUL durable()\n");
        assertThat(hit.stderr()).as("the fork reads the shared verdict: %s", hit).contains(" is REAL_FLUSH: ")
                .contains("(the verdict of PID ").doesNotContain(SharedVerdictTests.JUDGED);
        Path plainLog = project.resolve("plain.log");
        ChildJvm.Result plain = ChildJvm.run(fork(Fixtures.Plain.class, classLog(plainLog)), 120, project);
        assertThat(plain.stdout()).as("%s", plain).isEqualTo("SUCCESSFUL plain()\n");

        Set<String> loaded = classes(hitLog);
        List<String> extra = new ArrayList<>(loaded);
        extra.removeAll(classes(plainLog));
        assertThat(extra).as("the probe's native binding, JSON and histogram libraries")
                .noneMatch(c -> c.startsWith("com.sun.jna.") || c.startsWith("com.google.gson.") || c.startsWith("org.HdrHistogram."));
        assertThat(extra).as("the probe's classes").doesNotContain("io.flushcheck.probe.SyncProbe",
                "io.flushcheck.probe.NativeSyncCalls", "io.flushcheck.probe.SyncSymbols");
        List<String> flushcheck = extra.stream().filter(c -> c.startsWith("io.flushcheck.")).toList();
        assertThat(flushcheck).as("flushcheck classes a shared verdict loads").hasSizeLessThanOrEqualTo(MOST_FLUSHCHECK_CLASSES);
        assertThat(extra).as("classes a shared verdict loads beyond a plain test").hasSizeLessThanOrEqualTo(MOST_EXTRA_CLASSES);
    }

    private static List<String> fork(Class<?> fixture, List<String> jvmOptions) {
        return ChildJvm.command(List.of(), jvmOptions, RunFixture.class.getName(), List.of(fixture.getName()));
    }

    private static List<String> classLog(Path file) {
        return List.of("-Xlog:class+load=info:file=" + file);
    }

    /**
     * The names of the classes a JVM loaded. A generated class (lambda, method handle form, proxy) is named by
     * what made it and how many such it follows, without the numbers the JVM gave it, so that two runs' lists compare.
     */
    static Set<String> classes(Path log) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> generated = new HashMap<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int at = line.indexOf("] ");
            int end = line.indexOf(' ', at + 2);
            if (at < 0 || end < 0) {
                continue;
            }
            String name = line.substring(at + 2, end);
            if (name.contains("/0x") || name.contains("$Proxy")) {
                name = withoutNumbers(name.substring(0, name.contains("/0x") ? name.indexOf("/0x") : name.length()));
                name = name + "#" + generated.merge(name, 1, Integer::sum);
            }
            out.add(name);
        }
        return out;
    }

    private static String withoutNumbers(String name) {
        StringBuilder sb = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (!Character.isDigit(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Run only in child JVMs, in a project directory: the target is the disk directory beside it. */
    static final class Fixtures {
        private Fixtures() {
        }

        @RequiresRealFlush(path = "..")
        static class Durable {
            @org.junit.jupiter.api.Test
            void durable() {
            }
        }

        static class Plain {
            @org.junit.jupiter.api.Test
            void plain() {
            }
        }
    }
}
