package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.flushcheck.storage.MountTable;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.RunFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.opentest4j.TestAbortedException;

/**
 * The directory judged is the one the test writes to: where the JDK really creates temp files, the
 * test's {@code @TempDir} directories, a directory the test has yet to create.
 */
class JudgedDirectoryTests {

    static Path disk;
    static Path shm;

    @BeforeAll
    static void directories() throws IOException {
        disk = Files.createDirectories(Path.of("target", "flushcheck-it", "judged").toAbsolutePath()).toRealPath();
        shm = Files.createTempDirectory(Path.of("/dev/shm"), "flushcheck-it-judged-");
    }

    @AfterAll
    static void removeShm() throws IOException {
        try (var s = Files.walk(shm)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static EngineExecutionResults run(Class<?> fixture, Map<String, String> config) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).configurationParameters(config).execute();
    }

    static String tmpfs(Path dir) {
        return dir + " is on tmpfs (/dev/shm, mount " + MountTable.live().mountOf("/dev/shm").mountId() + "): syncs reach no device";
    }

    /** {@code java -Djava.io.tmpdir=START ... LateTmpdir LATER fixture}: the property changed after start-up, as Surefire does. */
    static ChildJvm.Result childWithTmpdirs(String atStart, String later, Class<?> fixture, String... config) {
        List<String> args = new ArrayList<>(List.of(later, fixture.getName()));
        args.addAll(List.of(config));
        return ChildJvm.run(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=" + atStart), LateTmpdir.class.getName(), args), 120);
    }

    @Test
    void aTmpdirSetAfterStartUpOnADiskCannotHideTheTmpfsTheJdkWritesTo() {
        ChildJvm.Result o = childWithTmpdirs("/dev/shm", disk.toString(), Fixtures.DefaultDirectory.class);
        assertThat(o.stdout()).as("%s", o).startsWith("FAILED durable(): @RequiresRealFlush: /dev/shm is NO_REAL_FLUSH: "
                + tmpfs(Path.of("/dev/shm")) + "; the JDK creates temp files in /dev/shm (java.io.tmpdir when this JVM started),"
                + " not in " + disk + ", which java.io.tmpdir names now: a property set after start-up (Surefire's"
                + " systemPropertyVariables, mvn -Djava.io.tmpdir) moves no temp file (set java.io.tmpdir on the test JVM's own"
                + " command line (Surefire's argLine or JAVA_TOOL_OPTIONS) to a disk directory, or point flushcheck.target at one,");
        ChildJvm.Result t = childWithTmpdirs("/dev/shm", disk.toString(), Fixtures.DefaultTempDir.class);
        assertThat(t.stdout()).as("%s", t).startsWith("FAILED durable(Path): @RequiresRealFlush: the @TempDir parameter ")
                .contains("; the JDK creates temp files in /dev/shm (java.io.tmpdir when this JVM started), not in " + disk + ",");
    }

    @Test
    void aTmpdirSetAfterStartUpOnTmpfsDoesNotFailATestWhoseTempFilesGoToADisk() {
        ChildJvm.Result o = childWithTmpdirs(disk.toString(), "/dev/shm", Fixtures.DefaultDirectory.class);
        assertThat(o.stdout()).as("%s", o).isEqualTo("wrote in " + disk + "/\nSUCCESSFUL durable()\n");
        assertThat(o.stderr()).as("%s", o).contains("flushcheck: warning: the JDK creates temp files in " + disk
                + " (java.io.tmpdir when this JVM started), not in /dev/shm, which java.io.tmpdir names now");
    }

    @Test
    void classLevelAnnotationJudgesTheTempDirTheFactoryMovedToADisk(@TempDir Path project) throws IOException {
        Path target = Files.createDirectories(project.resolve("target"));
        ChildJvm.Result o = ChildJvm.run(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=/dev/shm"), RunFixture.class.getName(),
                List.of(Fixtures.ClassLevelWithRealDiskTempDir.class.getName())), 120, project);
        assertThat(o.stdout()).as("%s", o).isEqualTo("SUCCESSFUL writes()\n");
        assertThat(o.stderr()).as("%s", o).contains("flushcheck: " + target.toRealPath() + " is REAL_FLUSH: ");
    }

    @Test
    void classLevelAnnotationFailsATempDirOnTmpfsNamingIt() {
        EngineExecutionResults r = run(Fixtures.ClassLevelWithTempDirs.class, Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                "junit.jupiter.tempdir.factory.default", ShmTempDirs.class.getName()));
        r.testEvents().assertStatistics(s -> s.started(2).failed(2));
        r.testEvents().assertThatEvents()
                .haveExactly(1, event(test("field"), finishedWithFailure(instanceOf(NoRealFlushError.class), message(m ->
                        m.matches("@RequiresRealFlush: the @TempDir field ClassLevelWithTempDirs\\.dir " + shm
                                + "/junit\\d+ is NO_REAL_FLUSH: " + shm + " is on tmpfs .*\\(give it a directory on a disk: "
                                + "@TempDir\\(factory = RealDiskTempDirFactory.class\\), or set java.io.tmpdir on the test JVM's own "
                                + "command line to a disk directory, or set flushcheck.on-no-real-flush=skip or warn where that is "
                                + "acceptable\\)")))))
                .haveExactly(1, event(test("parameter"), finishedWithFailure(message(m ->
                        m.startsWith("@RequiresRealFlush: the @TempDir parameter ")))));
    }

    @Test
    void aTempDirOnADiskPassesWhateverTheTargetKeySays() {
        run(Fixtures.ClassLevelWithTempDirs.class, Map.of(FlushcheckConfig.TARGET_KEY, "/dev/shm",
                "junit.jupiter.tempdir.factory.default", DiskTempDirs.class.getName()))
                .testEvents().assertStatistics(s -> s.started(2).succeeded(2));
    }

    @Test
    void aPathThatDoesNotExistYetIsJudgedByItsNearestExistingAncestor() {
        String missing = shm + "/not-yet/db";
        run(Fixtures.NotYetCreated.class, Map.of(FlushcheckConfig.TARGET_KEY, missing)).testEvents()
                .assertThatEvents().haveExactly(1, event(test("createsItsOwnDirectory"), finishedWithFailure(
                        instanceOf(NoRealFlushError.class), message(m -> m.startsWith("@RequiresRealFlush: " + missing
                                + " is NO_REAL_FLUSH: " + tmpfs(shm) + "; " + missing + " does not exist yet, so its nearest"
                                + " existing ancestor " + shm + ", where it would be created, was judged (")))));
        run(Fixtures.NotYetCreated.class, Map.of(FlushcheckConfig.TARGET_KEY, disk + "/not-yet/db")).testEvents()
                .assertStatistics(s -> s.started(1).succeeded(1));
    }

    @Test
    void aMissingPathUnderARegularFileStaysAConfigurationError() throws IOException {
        Path file = Files.writeString(disk.resolve("a-file"), "x");
        run(Fixtures.NotYetCreated.class, Map.of(FlushcheckConfig.TARGET_KEY, file + "/db")).testEvents()
                .assertThatEvents().haveExactly(1, event(test("createsItsOwnDirectory"), finishedWithFailure(
                        instanceOf(org.junit.jupiter.api.extension.ExtensionConfigurationException.class),
                        message("@RequiresRealFlush: cannot reach " + file + "/db: a parent of it is not a directory; name a directory"))));
    }

    @Test
    void assertRealFlushFailsWithTheSameEvidence() {
        Path data = shm.resolve("own/data");
        assertThatThrownBy(() -> FlushAssertions.assertRealFlush(data)).isInstanceOf(NoRealFlushError.class)
                .hasMessageStartingWith("FlushAssertions.assertRealFlush: " + data + " is NO_REAL_FLUSH: " + tmpfs(shm)
                        + "; " + data + " does not exist yet, so its nearest existing ancestor " + shm + ", where it would be"
                        + " created, was judged (run on a disk directory");
        FlushAssertions.assertRealFlush(disk.resolve("own/data"));
    }

    @Test
    void aClassLevelSkipSkipsEachTestWithTheReason() {
        EngineExecutionResults r = run(Fixtures.ClassLevelNoTempDir.class, Map.of(FlushcheckConfig.TARGET_KEY, shm.toString(),
                FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, "skip"));
        r.containerEvents().assertStatistics(s -> s.aborted(0).failed(0));
        r.testEvents().assertStatistics(s -> s.started(2).aborted(2))
                .assertThatEvents().haveExactly(2, event(abortedWithReason(instanceOf(TestAbortedException.class),
                        message("@RequiresRealFlush: " + shm + " is NO_REAL_FLUSH: " + tmpfs(shm)
                                + " (skipped, as flushcheck.on-no-real-flush=skip asks)"))));
    }

    @Test
    void eachJudgedStorageGetsOneLineNamingVerdictFigureAndTime() {
        Path other = disk.resolve("other");
        ChildJvm.Result o = ChildJvm.run(ChildJvm.command(List.of(), RunFixture.class.getName(),
                List.of(Fixtures.TwoDirectoriesOneDisk.class.getName(), FlushcheckConfig.TARGET_KEY + "=" + disk)), 120);
        assertThat(o.stdout()).as("%s", o).isEqualTo("SUCCESSFUL one()\nSUCCESSFUL two()\n");
        List<String> lines = o.stderr().lines().filter(l -> l.startsWith("flushcheck: ")).toList();
        assertThat(lines).as("%s", o).hasSize(1);
        assertThat(lines.get(0)).matches("flushcheck: " + disk + " is REAL_FLUSH: \\d+\\.\\d\\d flushes per sync in [a-z-]+ "
                + "\\(the fewest of \\d+ modes, \\d+ rounds\\) \\((judged in this JVM|the verdict of PID \\d+ in this build, \\d+ s old),"
                + " \\d+ ms, 20\\d\\d-\\d\\d-\\d\\dT[0-9:]+Z\\)");
        assertThat(other).doesNotExist();
    }

    /** Sets java.io.tmpdir after start-up, as Surefire does with its system property variables, then runs a fixture. */
    public static final class LateTmpdir {
        private LateTmpdir() {
        }

        public static void main(String[] args) throws Exception {
            System.setProperty("java.io.tmpdir", args[0]);
            RunFixture.main(java.util.Arrays.copyOfRange(args, 1, args.length));
        }
    }

    /** Creates temp dirs in the tmpfs directory of these tests. */
    public static final class ShmTempDirs implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
            return Files.createTempDirectory(shm, "junit");
        }
    }

    /** Creates temp dirs in the disk directory of these tests. */
    public static final class DiskTempDirs implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
            return Files.createTempDirectory(disk, "junit");
        }
    }

    /** Run by the tests above, in this JVM or a child. */
    static final class Fixtures {
        private Fixtures() {
        }

        static class DefaultDirectory {
            @Test
            @RequiresRealFlush
            void durable() throws IOException {
                Path dir = Files.createTempDirectory("fixture");
                System.out.println("wrote in " + dir.getParent() + "/");
                Files.delete(dir);
            }
        }

        static class DefaultTempDir {
            @Test
            @RequiresRealFlush
            void durable(@TempDir Path dir) {
            }
        }

        @RequiresRealFlush
        static class ClassLevelWithRealDiskTempDir {
            @TempDir(factory = RealDiskTempDirFactory.class)
            Path dir;

            @Test
            void writes() throws IOException {
                Files.writeString(dir.resolve("journal"), "x");
            }
        }

        @RequiresRealFlush
        static class ClassLevelWithTempDirs {
            @TempDir
            Path dir;

            @Test
            void field() {
            }

            @Test
            void parameter(@TempDir Path other) {
            }
        }

        @RequiresRealFlush
        static class ClassLevelNoTempDir {
            @Test
            void one() {
            }

            @Test
            void two() {
            }
        }

        static class NotYetCreated {
            @Test
            @RequiresRealFlush
            void createsItsOwnDirectory() {
            }
        }

        static class TwoDirectoriesOneDisk {
            @Test
            @RequiresRealFlush
            void one() {
            }

            @Test
            @RequiresRealFlush(path = "target/flushcheck-it/judged/other")
            void two() {
            }
        }
    }
}
