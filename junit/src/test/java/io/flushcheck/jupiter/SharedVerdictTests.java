package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.RunFixture;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Verdicts shared by the JVMs of one build, as Surefire forks are: reused while fresh and matching, else never. */
class SharedVerdictTests {

    static final String JUDGED = "(judged in this JVM, ";

    /** A project directory with a build directory, on the disk, fresh for each test. */
    static Path project(String name) throws IOException {
        Path p = Path.of("target", "flushcheck-it", "shared-" + name + "-" + System.nanoTime()).toAbsolutePath();
        Files.createDirectories(p.resolve("target"));
        return p;
    }

    static List<String> fork() {
        return ChildJvm.command(List.of(), RunFixture.class.getName(), List.of(Fixtures.Durable.class.getName()));
    }

    static ChildJvm.Result runFork(Path project) {
        ChildJvm.Result r = ChildJvm.run(fork(), 120, project);
        assertThat(r.stdout()).as("%s", r).isEqualTo("SUCCESSFUL durable()\n");
        return r;
    }

    static Path entry(Path project) throws IOException {
        try (Stream<Path> s = Files.list(project.resolve("target/flushcheck/verdicts"))) {
            List<Path> entries = s.filter(p -> p.toString().endsWith(".properties")).toList();
            assertThat(entries).hasSize(1);
            return entries.get(0);
        }
    }

    static void edit(Path entry, Consumer<Properties> change) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(entry)) {
            p.load(in);
        }
        change.accept(p);
        try (OutputStream out = Files.newOutputStream(entry)) {
            p.store(out, null);
        }
    }

    @Test
    void aSecondForkReusesTheFirstForksVerdict() throws IOException {
        Path project = project("reuse");
        ChildJvm.Result first = runFork(project);
        assertThat(first.stderr()).as("%s", first).contains(" is REAL_FLUSH: ").contains(JUDGED);
        Properties written = new Properties();
        try (InputStream in = Files.newInputStream(entry(project))) {
            written.load(in);
        }
        ChildJvm.Result second = runFork(project);
        assertThat(second.stderr()).as("%s", second).doesNotContain(JUDGED)
                .containsPattern(" is REAL_FLUSH: \\d+\\.\\d\\d flushes per sync in [a-z-]+ \\(the fewest of \\d+ modes, \\d+ rounds\\)"
                        + " \\(the verdict of PID " + written.getProperty("pid") + " in this build, \\d+ s old, \\d+ ms, ");
    }

    @Test
    void aStaleOrForeignEntryIsNeverTrusted() throws IOException {
        Path project = project("untrusted");
        runFork(project);
        Path entry = entry(project);
        edit(entry, p -> p.setProperty("createdMillis", String.valueOf(System.currentTimeMillis() - 3_600_000)));
        assertThat(runFork(project).stderr()).as("an hour old").contains(JUDGED);

        edit(entry(project), p -> p.setProperty("key", p.getProperty("key").replaceFirst("boot [0-9a-f-]+", "boot 1234")));
        assertThat(runFork(project).stderr()).as("another boot").contains(JUDGED);

        edit(entry(project), p -> p.setProperty("key", p.getProperty("key").replaceFirst("mount MountInfo\\[mountId=\\d+",
                "mount MountInfo[mountId=99999")));
        assertThat(runFork(project).stderr()).as("another mount").contains(JUDGED);

        Path real = entry(project);
        Path elsewhere = Files.move(real, project.resolve("elsewhere.properties"));
        Files.createSymbolicLink(real, elsewhere);
        assertThat(runFork(project).stderr()).as("a symlink").contains(JUDGED);

        Files.writeString(entry(project), "key=garbage\n", StandardCharsets.UTF_8);
        assertThat(runFork(project).stderr()).as("malformed").contains(JUDGED);

        ChildJvm.Result off = ChildJvm.run(ChildJvm.command(List.of(), RunFixture.class.getName(), List.of(
                Fixtures.Durable.class.getName(), FlushcheckConfig.SHARED_VERDICT_SECONDS_KEY + "=0")), 120, project);
        assertThat(off.stderr()).as("turned off: %s", off).contains(JUDGED);
    }

    @Test
    void concurrentForksProbeOnce() throws Exception {
        Path project = project("concurrent");
        List<Process> forks = new ArrayList<>();
        List<File> errs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            File err = project.resolve("fork" + i + ".err").toFile();
            errs.add(err);
            forks.add(new ProcessBuilder(fork()).directory(project.toFile()).redirectError(err)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        }
        int judged = 0;
        int reused = 0;
        for (int i = 0; i < forks.size(); i++) {
            assertThat(forks.get(i).waitFor(120, TimeUnit.SECONDS)).isTrue();
            String err = Files.readString(errs.get(i).toPath());
            judged += err.contains(JUDGED) ? 1 : 0;
            reused += err.contains("in this build, ") ? 1 : 0;
        }
        assertThat(judged).as("one fork probes").isEqualTo(1);
        assertThat(reused).as("the others read its verdict").isEqualTo(2);
    }

    /** Run only in child JVMs, in a project directory: the target is the disk directory beside it. */
    static final class Fixtures {
        private Fixtures() {
        }

        static class Durable {
            @org.junit.jupiter.api.Test
            @RequiresRealFlush(path = "..")
            void durable() {
            }
        }
    }
}
