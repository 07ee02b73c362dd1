package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.DocumentedCommand;
import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.MarkedProgram;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code flushcheck powercut} on programs that outlive their command: a daemon that detaches itself, and a
 * real PostgreSQL server (from the machine's packages) whose workers are session leaders and whose start
 * refuses a data directory while the PID in its pid file is alive. After a real power cut no process of
 * the old machine exists; VERIFY must find the same.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class ServerPowerCutTests {

    @TempDir
    Path tmp;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.requireCommand("unshare", "util-linux");
        Requirements.requireCommand("setpriv", "util-linux");
    }

    @Test
    void aDaemonTheCommandDetachedIsGoneBeforeEveryVerifyAndAfterTheRun() throws IOException {
        MarkedProgram daemon = MarkedProgram.copy(Path.of("/bin/sh"), Files.createDirectory(tmp.resolve("bin")));
        Path beats = tmp.resolve("heartbeat");
        Path seen = tmp.resolve("ps");
        // The daemon is a session leader that syncs on the disk in a loop and beats outside it.
        String loop = "while :; do echo x >> {dir}/log; sync {dir}/log; echo . >> " + beats + "; done";
        String command = "setsid " + daemon.path() + " -c '" + loop + "' & sleep 0.3";
        // VERIFY: what ps shows, and no beat for a while (nothing of the old world still runs).
        String verify = "test -d {dir} && ps -e -o comm= >> " + seen + "; echo --- >> " + seen + "; s=$(stat -c %s " + beats
                + "); sleep 0.3; test \"$(stat -c %s " + beats + ")\" = \"$s\"";
        Run r = run("powercut", "--json", "--cuts", "3", "--seed", "4", "--verify", verify, "--", "sh", "-c", command, "{dir}");
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(((Number) json.get("passed")).intValue()).isEqualTo(3);
        String ps = Files.readString(seen);
        assertThat(ps.split("---\n")).as("the run with the power on and three cuts: %s", ps).hasSize(4)
                .allSatisfy(one -> assertThat(one).contains("ps").doesNotContain(daemon.name()));
        assertThat(daemon.processes()).as("nothing of the command after the run, not even a zombie").isEmpty();
    }

    @Test
    void aProgramThatLosesAcknowledgedDataOnACrashIsCutOnlyWhenTheUserSaysSo() throws IOException {
        // It acknowledges, then writes a moment later in the background: the end of its world loses the write.
        Path acks = tmp.resolve("acks");
        String command = "echo 1 > " + acks + "; (sleep 2; echo 1 > {dir}/value; sync {dir}/value) & sleep 0.2";
        String verify = "test \"$(cat {dir}/value 2>/dev/null)\" = \"$(cat " + acks + ")\"";
        Run refused = run("powercut", "--cuts", "2", "--seed", "8", "--verify", verify, "--", "sh", "-c", command);
        assertThat(refused.exit()).as(refused.err()).isEqualTo(2);
        assertThat(refused.err()).contains("with the power on").contains("--no-power-on-check");

        Run r = run("powercut", "--json", "--no-power-on-check", "--cuts", "2", "--seed", "8", "--verify", verify,
                "--", "sh", "-c", command);
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("VERIFY not run there: --no-power-on-check");
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(json.get("powerOnChecked")).isEqualTo(false);
        assertThat(((Number) json.get("failed")).intValue()).isEqualTo(2);

        Run text = run("powercut", "--no-power-on-check", "--cuts", "1", "--seed", "8", "--verify", verify,
                "--", "sh", "-c", command);
        assertThat(text.out()).contains("VERIFY was not run with the power on (--no-power-on-check)");
    }

    @Test
    void aPostgresqlServerRecoversFromEveryCut() throws Exception {
        Requirements.requireRoot();
        Path bin = postgresBin();
        Requirements.require(bin != null, "PostgreSQL's server (apt-get install postgresql)");
        Path pg = Files.createDirectory(tmp.resolve("pg"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path sockets = Files.createDirectory(pg.resolve("sockets"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(sockets, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path template = template(bin, pg, sockets);
        Path acks = pg.resolve("acks");
        Path command = copy("pg-command.sh");
        Path verify = copy("pg-verify.sh");
        Run r = run(DocumentedCommand.of(ServerPowerCutTests.class, "postgres-server")
                .with("$BIN", bin).with("$TEMPLATE", template).with("$ACKS", acks).with("$SOCKETS", sockets)
                .with("pg-command.sh", command).with("pg-verify.sh", verify).adding("--json", "--seed", "19").args());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(((Number) json.get("passed")).intValue()).as(r.out()).isEqualTo(3);
        List<Map<String, Object>> cuts = new ArrayList<>();
        for (Object c : MiniJson.array(json.get("cuts"))) {
            cuts.add(MiniJson.object(c));
        }
        assertThat(cuts).allSatisfy(c -> assertThat((String) c.get("verifyOutput")).contains("acknowledged rows present"));
        assertThat(Shell.run("sh", "-c", "ps -e -o args= | grep '[p]ostgres: ' || true")).as("no server left running").isEmpty();
        assertThat(Shell.run("sh", "-c", "ls /dev/shm | grep PostgreSQL || true")).as("no shared memory of a killed server left")
                .isEmpty();
        assertThat(Shell.run("sh", "-c", "ipcs -m | grep postgres || true")).as("no System V segment of a killed server left")
                .isEmpty();
    }

    private Path copy(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream(name)) {
            Path p = tmp.resolve(name);
            Files.write(p, in.readAllBytes());
            return p;
        }
    }

    /** The newest installed server's bin directory (Debian puts each major version under /usr/lib/postgresql). */
    static Path postgresBin() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                    .orElse(null);
        }
    }

    /** A cluster with table t, cleanly shut down, owned by postgres: each cut starts from a copy of it. */
    private static Path template(Path bin, Path dir, Path sockets) throws IOException {
        Path data = dir.resolve("template");
        Shell.run("install", "-d", "-o", "postgres", "-g", "postgres", "-m", "700", data.toString());
        String asPg = "setpriv --reuid=postgres --regid=postgres --init-groups -- ";
        Shell.run("sh", "-c", asPg + bin + "/initdb -D " + data + " -A trust -U postgres --no-sync --wal-segsize=1 >/dev/null");
        String opts = "-o '-c listen_addresses= -c unix_socket_directories=" + sockets + "'";
        Shell.run("sh", "-c", asPg + bin + "/pg_ctl -D " + data + " -w -s -l " + data + "/template.log " + opts + " start");
        try {
            Shell.run("sh", "-c", asPg + bin + "/psql -h " + sockets + " -d postgres -qAtX -c 'create table t (id int primary key)'");
        } finally {
            Shell.run("sh", "-c", asPg + bin + "/pg_ctl -D " + data + " -w -s -m fast stop");
        }
        return data;
    }
}
