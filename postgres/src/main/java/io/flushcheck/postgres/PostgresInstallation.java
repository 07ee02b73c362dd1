package io.flushcheck.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * An installed PostgreSQL server: its bin directory (with {@code postgres} and {@code initdb}), and the
 * account its programs run as. PostgreSQL refuses to run as root, so as root they run as the
 * {@code postgres} user (through util-linux's {@code setpriv}); otherwise as the user itself.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class PostgresInstallation {

    /** Where Debian and Ubuntu put each major version's programs. */
    static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");
    static final String USER = "postgres";

    private final Path bin;
    private final boolean root;

    private PostgresInstallation(Path bin, boolean root) {
        this.bin = bin;
        this.root = root;
    }

    /**
     * The server in {@code bin} when given, else the one {@code pg_config --bindir} names, else the newest
     * under /usr/lib/postgresql.
     *
     * @throws IOException naming what was tried, when none is found
     */
    public static PostgresInstallation find(Path bin) throws IOException {
        boolean root = isRoot();
        if (root && !userExists(USER)) {
            throw new IOException("PostgreSQL refuses to run as root, and there is no '" + USER
                    + "' user to run it as (Debian's postgresql package makes one)");
        }
        if (bin != null) {
            if (!isServer(bin)) {
                throw new IOException(bin + " holds no PostgreSQL server (postgres and initdb)");
            }
            return new PostgresInstallation(bin, root);
        }
        List<String> tried = new ArrayList<>();
        Path fromPgConfig = pgConfigBindir();
        tried.add("pg_config --bindir" + (fromPgConfig == null ? " (no pg_config)" : " (" + fromPgConfig + ")"));
        if (fromPgConfig != null && isServer(fromPgConfig)) {
            return new PostgresInstallation(fromPgConfig, root);
        }
        Path newest = newestUnder(DEBIAN_ROOT);
        tried.add(DEBIAN_ROOT + "/*/bin");
        if (newest != null) {
            return new PostgresInstallation(newest, root);
        }
        throw new IOException("no PostgreSQL server found (tried " + String.join(", ", tried)
                + "); install one (Debian: apt-get install postgresql) or name its bin directory");
    }

    /** The JDBC driver's class, which the client needs: {@code org.postgresql:postgresql}. */
    public static final String DRIVER_CLASS = "org.postgresql.Driver";

    /** Whether the PostgreSQL JDBC driver is on the class path. */
    public static boolean driverAvailable() {
        try {
            Class.forName(DRIVER_CLASS, false, PostgresInstallation.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The server's bin directory. */
    public Path bin() {
        return bin;
    }

    /** {@code program}'s full path in the bin directory. */
    public String program(String program) {
        return bin.resolve(program).toString();
    }

    /** {@code argv} as the server's account runs it: through setpriv as root, as it is otherwise. */
    public List<String> asServerUser(List<String> argv) {
        if (!root) {
            return List.copyOf(argv);
        }
        List<String> line = new ArrayList<>(List.of("setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups", "--"));
        line.addAll(argv);
        return line;
    }

    /**
     * The settings of {@code rows} this server does not know: not among those {@code postgres --describe-config}
     * lists (which needs no cluster), and refused by {@code postgres -C NAME} (which shows also the settings the
     * list leaves out, such as {@code zero_damaged_pages}) on an empty directory with no configuration file. A
     * name with a dot is an extension's, which PostgreSQL accepts unseen.
     */
    public List<String> unknownSettings(List<List<String>> rows) throws IOException {
        Set<String> known = new HashSet<>();
        for (String line : run(asServerUser(List.of(program("postgres"), "--describe-config"))).split("\n")) {
            known.add(line.split("\t", 2)[0].toLowerCase(Locale.ROOT));
        }
        List<String> unknown = new ArrayList<>();
        Path empty = null;
        try {
            for (List<String> row : rows) {
                for (String setting : row) {
                    String name = setting.substring(0, setting.indexOf('=')).toLowerCase(Locale.ROOT);
                    if (name.contains(".") || known.contains(name) || unknown.contains(name)) {
                        continue;
                    }
                    if (empty == null) {
                        empty = Files.createTempDirectory("flushcheck-pg-settings-");
                        own(empty);
                    }
                    if (!shows(name, empty)) {
                        unknown.add(name);
                    }
                }
            }
        } finally {
            if (empty != null) {
                Files.deleteIfExists(empty);
            }
        }
        return unknown;
    }

    /** Whether {@code postgres -C name} answers (exit 0) with no configuration but its built-in one. */
    private boolean shows(String name, Path dataDir) throws IOException {
        Process p = new ProcessBuilder(asServerUser(List.of(program("postgres"), "-C", name, "--config-file=/dev/null",
                "-D", dataDir.toString()))).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("postgres -C " + name + " did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return p.exitValue() == 0;
    }

    /** Makes {@code dir} the server account's own (a cluster's directory must be), recursively. */
    public void own(Path dir) throws IOException {
        if (root) {
            run(List.of("chown", "-R", USER + ":" + USER, dir.toString()));
        }
    }

    static boolean isServer(Path bin) {
        return Files.isExecutable(bin.resolve("postgres")) && Files.isExecutable(bin.resolve("initdb"));
    }

    private static Path pgConfigBindir() {
        try {
            Process p = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty() ? Path.of(out) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The bin directory of the highest major version under {@code root} that holds a server, or null. */
    static Path newestUnder(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(v -> v.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .map(v -> v.resolve("bin")).filter(PostgresInstallation::isServer)
                    .max(Comparator.comparingDouble(b -> Double.parseDouble(b.getParent().getFileName().toString())))
                    .orElse(null);
        }
    }

    private static boolean isRoot() {
        return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }

    private static boolean userExists(String user) {
        try {
            return Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(l -> l.startsWith(user + ":"));
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs a short command, throwing with its output when it fails. */
    static String run(List<String> argv) throws IOException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", argv) + " did not finish within 120 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", argv), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", argv) + " failed (exit " + p.exitValue() + ")" + (out.isEmpty() ? "" : ": " + out));
        }
        return out;
    }
}
