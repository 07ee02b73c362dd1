package io.flushcheck.guest;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A guest's run: a container of the environment's {@link GuestImage} started with {@code sleep infinity}, the
 * data directory on the environment's kind of mount (overlay root, bind mount, named volume, tmpfs), this
 * JVM's class path copied in (so a remote Docker host works too, except for bind mounts, whose source is a
 * directory of this machine; {@link ClasspathArchive}), then {@link GuestMain} run in it under {@code timeout(1)} and its result file
 * copied out. The container, the volume and the bind directory are removed when it ends, failed or not. Before
 * any container starts, the image's JRE is checked against the classes' Java release ({@link ClassesRelease}).
 */
final class ContainerRun {

    private static final String CP_DIR = "/flushcheck/cp";
    private static final String OUT_FILE = "/flushcheck/out/result.json";

    private ContainerRun() {
    }

    static RunOutput run(GuestEnvironment env, GuestRequest request, Consumer<String> progress) throws IOException {
        String image = env.image().build(progress);
        DockerClient docker = DockerClientFactory.instance().client();
        List<Path> classpath = Classpath.current();
        int java = ImageJavaRelease.of(docker, image);
        String refusal = ClassesRelease.of(request.testClasses(), classpath, loader()).refusal(java,
                env.image().describe());
        if (refusal != null) {
            throw new IllegalStateException(env.name() + ": " + refusal);
        }
        String about = "image " + env.image().describe() + ", Java " + java;
        MountKind mount = env.mount();
        String dataDir = mount.containerPath();
        Path bindDir = null;
        String volume = null;
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
            progress.accept(env.name() + ": starting a container of " + about + " (" + classpath.size()
                    + " classpath entries copied in), data on " + mount.id() + " at " + dataDir);
            c.start();
            List<String> cp = ClasspathArchive.copy(docker, c.getContainerId(), CP_DIR, classpath);
            // timeout(1): Testcontainers waits for an exec without limit, and a guest test may hang.
            List<String> cmd = new ArrayList<>(List.of("timeout", "--kill-after=10s", GuestRunner.TIMEOUT_MINUTES + "m",
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
                String why = r.getExitCode() == 124 ? "\nflushcheck: the guest run did not end within "
                        + GuestRunner.TIMEOUT_MINUTES + " minutes" : "";
                return new RunOutput(json, r.getExitCode(), "flushcheck: " + about + "\n" + r.getStdout() + r.getStderr()
                        + why);
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
                Trees.delete(bindDir);
            }
        }
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : ContainerRun.class.getClassLoader();
    }

    private static ExecResult exec(GenericContainer<?> c, String... cmd) throws IOException {
        try {
            return c.execInContainer(cmd);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + cmd[0] + " in the guest", e);
        }
    }
}
