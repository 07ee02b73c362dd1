package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry of flushcheck's own files: names, and what the shutdown hook does with creations in flight. */
class OwnFilesTests {

    @TempDir(factory = BuildDirTempDirs.class)
    Path dir;

    @Test
    void theShutdownHookWaitsForACreationInFlightAndRemovesTheFile() throws IOException {
        Path p = dir.resolve(".flushcheck-1-append-fsync-0123456789ab.probe");
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), OwnFilesShutdownChild.class.getName(),
                List.of("created", p.toString())), 60);
        assertThat(r.exit()).as("%s", r).isEqualTo(3);
        assertThat(r.stdout()).as("no name can be reserved once the hook runs")
                .startsWith("refused: creating " + p + "-later failed: the JVM is shutting down");
        assertThat(p).as("created in the kernel, not yet settled when the JVM began to stop").doesNotExist();
        assertThat(Files.list(dir)).isEmpty();
    }

    @Test
    void theShutdownHookNeverRemovesAFileWhoseCreationFailed() throws IOException {
        Path p = Files.writeString(dir.resolve(".flushcheck-1-append-fsync-0123456789ab.probe"), "someone else's");
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), OwnFilesShutdownChild.class.getName(),
                List.of("failed", p.toString())), 60);
        assertThat(r.exit()).as("%s", r).isEqualTo(3);
        assertThat(Files.readString(p)).isEqualTo("someone else's");
    }

    @Test
    void namesCarryThePidAndOnlyExactlyOurNamesAreRecognised() {
        long pid = ProcessHandle.current().pid();
        Path probe = OwnFiles.probeName(dir, "append-fdatasync");
        Path db = OwnFiles.databaseName(dir);
        assertThat(probe.getFileName().toString()).matches("\\.flushcheck-" + pid + "-append-fdatasync-[0-9a-f]{12}\\.probe");
        assertThat(db.getFileName().toString()).matches("\\.flushcheck-" + pid + "-sqlite-[0-9a-f]{12}\\.db");
        assertThat(OwnFiles.pidOf(probe.getFileName().toString())).isEqualTo(pid);
        for (String s : List.of("", "-journal", "-wal", "-shm")) {
            assertThat(OwnFiles.pidOf(db.getFileName() + s)).as(s).isEqualTo(pid);
        }
        assertThat(OwnFiles.pidOf(".flushcheck-123-dsync-00000000000f.probe")).isEqualTo(123);
        for (String notOurs : List.of(".flushcheck-123-dsync-00000000000F.probe", ".flushcheck-123-dsync-0000000000.probe",
                ".flushcheck-123-0123456789ab.probe", ".flushcheck-x23-dsync-0123456789ab.probe",
                ".flushcheck--dsync-0123456789ab.probe", ".flushcheck-123-dsync-0123456789ab.probe.bak",
                ".flushcheck-123-dsync-0123456789ab.db", ".flushcheck-123-sqlite-0123456789ab.db-other",
                ".flushcheck-sqlite-2b0d6f0e-7c1a-4a43-9d1e-0123456789ab.db", "flushcheck-123-dsync-0123456789ab.probe",
                ".flushcheck-123-Dsync-0123456789ab.probe", ".flushcheck-12345678901-dsync-0123456789ab.probe")) {
            assertThat(OwnFiles.pidOf(notOurs)).as(notOurs).isEqualTo(-1);
        }
    }
}
