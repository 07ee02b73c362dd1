package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The command's own files, against real signals: SIGTERM and SIGINT at any instant leave nothing; SIGKILL
 * leaves a file that the next run in the directory removes and reports; nobody else's file is touched.
 */
class SignalHygieneTests {

    /** Beyond any Linux pid_max (2^22): never a live process. */
    static final long DEAD_PID = 4_194_305;
    static final String MODES = "append-fsync,append-fdatasync,overwrite-fdatasync,dsync,flush-only,no-sync";

    private Path dir;

    @BeforeEach
    void directory() throws IOException {
        Path base = Files.createDirectories(Path.of("target", "signal-tests").toAbsolutePath());
        dir = Files.createTempDirectory(base, "d");
    }

    static List<String> ours(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".flushcheck-")).sorted().toList();
        }
    }

    static void signal(Process p, String sig) throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-" + sig, String.valueOf(p.pid())).start().waitFor()).isZero();
    }

    /** Waits until the child has a file of ours in dir; returns its names. */
    static List<String> awaitFile(Process p, Path dir) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && p.isAlive()) {
            List<String> seen = ours(dir);
            if (!seen.isEmpty()) {
                return seen;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("no file of the child appeared in " + dir + " (alive: " + p.isAlive() + ")");
    }

    /**
     * Modes change every few milliseconds (6 modes of 3 rounds, for 200 paths): each signal lands near a
     * probe file's creation or removal. Bounded to a few seconds; the deterministic half of this is
     * ProbeFileHygieneTests#everyProbeFileIsRegisteredBeforeItIsCreated and OwnFilesTests.
     */
    @Test
    void sigtermOrSigintWhileModesChangeLeavesNoProbeFile() throws Exception {
        List<String> args = new ArrayList<>(List.of("--quiet", "--modes", MODES, "--rounds", "3"));
        for (int i = 0; i < 200; i++) {
            args.add(dir.toString());
        }
        List<String> cmd = ChildJvm.withDefaultSignals(ChildJvm.command(List.of(), Main.class.getName(), args));
        Random random = new Random(42);
        List<String> failures = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        int runs = 0;
        while (runs < 4 || System.nanoTime() < end) {
            String sig = runs % 2 == 0 ? "TERM" : "INT";
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            try {
                awaitFile(p, dir);
                Thread.sleep(random.nextInt(40));
                signal(p, sig);
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as("exit after SIG" + sig).isEqualTo(sig.equals("TERM") ? 143 : 130);
            } finally {
                p.destroyForcibly().waitFor();
            }
            List<String> left = ours(dir);
            if (!left.isEmpty()) {
                failures.add("run " + runs + " (SIG" + sig + "): " + left);
                for (String n : left) {
                    Files.deleteIfExists(dir.resolve(n));
                }
            }
            runs++;
        }
        assertThat(failures).as("files left after %d runs", runs).isEmpty();
    }

    @Test
    void aLaterProbeRemovesTheFilesOfKilledProcessesAndSaysSoLeavingAllElse() throws Exception {
        List<String> cmd = ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--quiet", "--modes", "overwrite-fdatasync", "--rounds", "250000", dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<String> killed;
        try {
            killed = awaitFile(p, dir);
            p.destroyForcibly(); // SIGKILL: no hook runs
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        // The probe file, and the control file its idle windows write to once it exists.
        killed = ours(dir);
        assertThat(killed).as("SIGKILL leaves the probe files").hasSizeBetween(1, 2)
                .allSatisfy(n -> assertThat(n).startsWith(".flushcheck-" + p.pid() + "-overwrite-fdatasync-"));
        String dead = ".flushcheck-" + DEAD_PID + "-dsync-0123456789ab.probe";
        String deadDb = ".flushcheck-" + DEAD_PID + "-sqlite-0123456789ab.db-wal";
        String live = ".flushcheck-1-append-fsync-0123456789ab.probe"; // PID 1 is alive, whoever it is
        String notOurs = ".flushcheck-" + DEAD_PID + "-notes.txt";
        for (String n : List.of(dead, deadDb, live, notOurs)) {
            Files.writeString(dir.resolve(n), "x");
        }
        List<String> keep = new ArrayList<>(List.of(live, notOurs));
        if (Requirements.isRoot()) {
            String foreign = ".flushcheck-" + DEAD_PID + "-flush-only-0123456789ab.probe";
            Files.setOwner(Files.writeString(dir.resolve(foreign), "x"), dir.getFileSystem()
                    .getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            keep.add(foreign);
        }
        List<String> removed = new ArrayList<>(killed);
        removed.addAll(List.of(dead, deadDb));
        removed.sort(null);

        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--json", "--quiet", "--modes", "overwrite-fdatasync", "--rounds", "20", dir.toString())), 60);
        assertThat(r.exit()).as("%s", r).isZero();
        String message = "removed " + removed.size() + " files in " + dir + " left by flushcheck processes that no longer run (PID "
                + p.pid() + ", " + DEAD_PID + " not alive; files of live PIDs are left alone): " + String.join(", ", removed);
        assertThat(r.stderr()).as("one line, even with --quiet").isEqualTo("flushcheck: " + message + "\n");
        Map<String, Object> result = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(r.stdout()))
                .get("results")).get(0));
        assertThat(MiniJson.array(result.get("findings"))).anySatisfy(f -> {
            assertThat(MiniJson.object(f).get("code")).isEqualTo("STALE_FILES_REMOVED");
            assertThat(MiniJson.object(f).get("message")).isEqualTo(message);
        });
        keep.sort(null);
        assertThat(ours(dir)).isEqualTo(keep);

        // Again: nothing stale is left, so nothing is said.
        ChildJvm.Result again = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(),
                List.of("--quiet", "--modes", "overwrite-fdatasync", "--rounds", "20", dir.toString())), 60);
        assertThat(again.exit()).as("%s", again).isZero();
        assertThat(again.stderr()).isEmpty();
        assertThat(ours(dir)).isEqualTo(keep);
    }

    /** A verdict the storage facts decide (tmpfs) writes nothing and reads no directory listing. */
    @Test
    void aVerdictWithoutAProbeSweepsNothing() throws Exception {
        Path shm = Path.of("/dev/shm");
        Requirements.require(Files.isDirectory(shm) && Files.isWritable(shm), "a writable /dev/shm (tmpfs)");
        Path d = Files.createTempDirectory(shm, "flushcheck-sweep");
        Path dead = Files.writeString(d.resolve(".flushcheck-" + DEAD_PID + "-dsync-0123456789ab.probe"), "x");
        try {
            ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), Main.class.getName(),
                    List.of("--quiet", d.toString())), 60);
            assertThat(r.exit()).as("%s", r).isZero();
            assertThat(r.stdout()).contains("verdict: NO_REAL_FLUSH");
            assertThat(r.stderr()).isEmpty();
            assertThat(dead).exists();
        } finally {
            Files.deleteIfExists(dead);
            Files.deleteIfExists(d);
        }
    }
}
