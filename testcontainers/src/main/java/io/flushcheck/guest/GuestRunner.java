package io.flushcheck.guest;

import io.flushcheck.report.ResultData;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import io.flushcheck.probe.ProbeLock;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * Runs a {@link GuestRequest} in an environment and brings everything back as a {@link GuestOutcome}.
 *
 * <p>A guest is a container of a {@link GuestImage} started with {@code sleep infinity}; this JVM's classpath
 * is copied into it (so a remote Docker host works too, except for bind mounts, whose source is a directory
 * of this machine), then {@link GuestMain} runs in it with {@code java.io.tmpdir} on the chosen mount, and
 * its JSON result file is copied out. The host runs the same {@link GuestMain} in a child JVM. Everything made
 * for a run (container, named volume, bind and host directories) is removed when it ends, failed or not.
 *
 * <p>Docker is found the Testcontainers way; on machines that look like a container themselves set
 * {@code TESTCONTAINERS_RYUK_DISABLED=true} and {@code TESTCONTAINERS_HOST_OVERRIDE=localhost}.
 */
public final class GuestRunner {

    private static final String CP_DIR = "/flushcheck/cp";
    private static final String OUT_FILE = "/flushcheck/out/result.json";
    private static final int LOG_TAIL = 4000;
    /** How long one environment's run may take before it is stopped and reported as timed out. */
    static final int TIMEOUT_MINUTES = 30;

    private final Consumer<String> progress;

    public GuestRunner(Consumer<String> progress) {
        this.progress = progress;
    }

    /** True when a Docker engine answers; never throws. */
    public static boolean dockerAvailable() {
        if (!anEngineMayBeConfigured()) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Cheap first look, since Testcontainers can spend minutes probing before it gives up: some socket,
     * DOCKER_HOST or a Testcontainers configuration must exist for an engine to be found at all.
     */
    private static boolean anEngineMayBeConfigured() {
        String home = System.getProperty("user.home", "");
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        return System.getenv("DOCKER_HOST") != null
                || java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock"))
                || java.nio.file.Files.exists(java.nio.file.Path.of(home, ".testcontainers.properties"))
                || java.nio.file.Files.exists(java.nio.file.Path.of(home, ".docker", "run", "docker.sock"))
                || runtime != null && java.nio.file.Files.exists(java.nio.file.Path.of(runtime, "docker.sock"));
    }

    /**
     * Runs one environment. Holds the JVM-wide {@link ProbeLock}: a guest's syncs land on the host's
     * disks, whose counters every other measurement in this JVM reads too.
     */
    public GuestOutcome run(GuestEnvironment env, GuestRequest request) {
        long t0 = System.nanoTime();
        return ProbeLock.exclusively(() -> {
            try {
                return env.isHost() ? runOnHost(request, t0) : runInGuest(env, request, t0);
            } catch (IOException e) {
                throw new UncheckedIOException(env.name() + ": " + e.getMessage(), e);
            }
        });
    }

    public List<GuestOutcome> runAll(List<GuestEnvironment> envs, GuestRequest request) {
        List<GuestOutcome> out = new ArrayList<>();
        for (GuestEnvironment e : envs) {
            out.add(run(e, request));
        }
        return out;
    }

    // ------------------------------------------------------------------ host: a child JVM

    private GuestOutcome runOnHost(GuestRequest request, long t0) throws IOException {
        GuestEnvironment env = GuestEnvironment.host();
        Path data = Files.createTempDirectory(request.hostDir(), ".flushcheck-host-");
        Path out = Files.createTempFile("flushcheck-host-", ".json");
        Path log = Files.createTempFile("flushcheck-host-", ".log");
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-cp");
            List<String> cp = new ArrayList<>();
            Classpath.current().forEach(p -> cp.add(p.toString()));
            cmd.add(String.join(java.io.File.pathSeparator, cp));
            cmd.add("-Djava.io.tmpdir=" + data);
            cmd.add(GuestMain.class.getName());
            cmd.addAll(request.guestArgs(env.name(), data.toString(), out.toString()));
            progress.accept("host: running in a child JVM, data in " + data);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("FLUSHCHECK_GUEST_ENVIRONMENT", env.name());
            pb.environment().put("FLUSHCHECK_GUEST_DATA_DIR", data.toString());
            Process p = pb.start();
            // If this JVM is stopped (SIGTERM, Ctrl-C), the child goes too, before the files are removed.
            Thread stopChild = new Thread(() -> stop(p), "flushcheck-stop-host-guest");
            Runtime.getRuntime().addShutdownHook(stopChild);
            int code;
            try {
                if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    stop(p);
                    code = -1;
                } else {
                    code = p.exitValue();
                }
            } catch (InterruptedException e) {
                stop(p);
                Thread.currentThread().interrupt();
                code = -1;
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopChild);
                } catch (IllegalStateException e) {
                    // The JVM is already shutting down: the hook stops the child.
                }
            }
            String json = Files.size(out) > 0 ? Files.readString(out) : null;
            String why = code == -1 ? "\nflushcheck: the host run did not end within " + TIMEOUT_MINUTES + " minutes" : "";
            return outcome(env, json, code, tail(Files.readString(log) + why), t0);
        } finally {
            deleteTree(data);
            Files.deleteIfExists(out);
            Files.deleteIfExists(log);
        }
    }

    private static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ guest: a container

    private GuestOutcome runInGuest(GuestEnvironment env, GuestRequest request, long t0) throws IOException {
        String image = env.image().build(progress);
        MountKind mount = env.mount();
        String dataDir = mount.containerPath();
        Path bindDir = null;
        String volume = null;
        DockerClient docker = DockerClientFactory.instance().client();
        try (GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image))) {
            c.withCommand("sleep", "infinity")
                    .withEnv("FLUSHCHECK_GUEST_ENVIRONMENT", env.name())
                    .withEnv("FLUSHCHECK_GUEST_DATA_DIR", dataDir)
                    .withLabel("io.flushcheck.guest", env.name());
            switch (mount) {
                case OVERLAY -> { }
                case BIND -> {
                    bindDir = Files.createTempDirectory(request.hostDir(), ".flushcheck-bind-");
                    // A Mount, not withFileSystemBind: Testcontainers checks bind support by running alpine:3.17
                    // first, which without a registry costs minutes of pull retries.
                    String src = bindDir.toAbsolutePath().toString();
                    c.withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withMounts(
                            List.of(new Mount().withType(MountType.BIND).withSource(src).withTarget(dataDir))));
                }
                case VOLUME -> {
                    volume = "flushcheck-" + UUID.randomUUID();
                    // Testcontainers' session labels too, so that its reaper can find the volume if this JVM dies.
                    Map<String, String> labels = new java.util.HashMap<>(DockerClientFactory.DEFAULT_LABELS);
                    labels.put("io.flushcheck.guest", env.name());
                    docker.createVolumeCmd().withName(volume).withLabels(labels).exec();
                    String v = volume;
                    c.withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withMounts(
                            List.of(new Mount().withType(MountType.VOLUME).withSource(v).withTarget(dataDir))));
                }
                case TMPFS -> c.withTmpFs(Map.of(dataDir, "rw,exec,size=512m"));
                default -> throw new IllegalStateException(mount.toString());
            }
            List<String> cp = new ArrayList<>();
            int i = 0;
            for (Path p : Classpath.current()) {
                String target = String.format("%s/%03d-%s", CP_DIR, i++, p.getFileName());
                c.withCopyToContainer(MountableFile.forHostPath(p), target);
                cp.add(target);
            }
            progress.accept(env.name() + ": starting a container of " + image + " (" + cp.size()
                    + " classpath entries copied in), data on " + mount.id() + " at " + dataDir);
            c.start();
            // timeout(1): Testcontainers waits for an exec without limit, and a guest test may hang.
            List<String> cmd = new ArrayList<>(List.of("timeout", "--kill-after=10s", TIMEOUT_MINUTES + "m",
                    "java", "-cp", String.join(":", cp),
                    "-Djava.io.tmpdir=" + dataDir, "-Djna.tmpdir=/flushcheck/jna", GuestMain.class.getName()));
            cmd.addAll(request.guestArgs(env.name(), dataDir, OUT_FILE));
            exec(c, "mkdir", "-p", dataDir, "/flushcheck/jna", "/flushcheck/out");
            progress.accept(env.name() + ": running " + (request.probe() ? "the probe" : "")
                    + (request.probe() && !request.testClasses().isEmpty() ? " and " : "")
                    + (request.testClasses().isEmpty() ? "" : request.testClasses().size() + " test classes"));
            try {
                ExecResult r = exec(c, cmd.toArray(String[]::new));
                String json;
                try {
                    json = c.copyFileFromContainer(OUT_FILE, in -> new String(in.readAllBytes(), StandardCharsets.UTF_8));
                } catch (RuntimeException e) {
                    json = null;
                }
                String why = r.getExitCode() == 124 ? "\nflushcheck: the guest run did not end within " + TIMEOUT_MINUTES
                        + " minutes" : "";
                return outcome(env, json, r.getExitCode(), tail(r.getStdout() + r.getStderr() + why), t0);
            } finally {
                if (mount == MountKind.BIND) {
                    // The guest wrote as its root; empty the directory from inside so the host can remove it.
                    try {
                        exec(c, "find", dataDir, "-mindepth", "1", "-delete");
                    } catch (IOException | RuntimeException e) {
                        progress.accept(env.name() + ": cannot empty " + dataDir + ": " + e.getMessage());
                    }
                }
            }
        } finally {
            if (volume != null) {
                try {
                    docker.removeVolumeCmd(volume).exec();
                } catch (RuntimeException e) {
                    progress.accept(env.name() + ": cannot remove volume " + volume + ": " + e.getMessage());
                }
            }
            if (bindDir != null) {
                deleteTree(bindDir);
            }
        }
    }

    private static ExecResult exec(GenericContainer<?> c, String... cmd) throws IOException {
        try {
            return c.execInContainer(cmd);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + cmd[0] + " in the guest", e);
        }
    }

    private static GuestOutcome outcome(GuestEnvironment env, String json, int exitCode, String log, long t0) {
        List<String> errors = new ArrayList<>();
        List<ResultData> results = List.of();
        List<TestOutcome> tests = List.of();
        if (json == null) {
            errors.add("no result file came back");
        } else {
            try {
                GuestProtocol doc = GuestProtocol.parse(json);
                results = doc.results();
                tests = doc.tests();
                errors.addAll(doc.errors());
            } catch (IllegalArgumentException e) {
                errors.add("the result file is not the expected JSON: " + e.getMessage());
            }
        }
        return new GuestOutcome(env, results, tests, errors, exitCode, log, (System.nanoTime() - t0) / 1_000_000);
    }

    private static String tail(String s) {
        return s.length() <= LOG_TAIL ? s : "..." + s.substring(s.length() - LOG_TAIL);
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort; what stays is named in the next line
                }
            });
        } catch (IOException ignored) {
            // fall through
        }
        if (Files.exists(root)) {
            System.err.println("flushcheck guest: could not remove " + root);
        }
    }
}
