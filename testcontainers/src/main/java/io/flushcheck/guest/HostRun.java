package io.flushcheck.guest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The host's run: {@link GuestMain} in a child JVM of this JVM's class path, its data directory a fresh
 * directory under the request's host directory, stopped with this JVM and after
 * {@link GuestRunner#TIMEOUT_MINUTES}; its data, result file and log removed when it ends.
 */
final class HostRun {

    private HostRun() {
    }

    static RunOutput run(GuestRequest request, Consumer<String> progress) throws IOException {
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
                if (!p.waitFor(GuestRunner.TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
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
            String why = code == -1 ? "\nflushcheck: the host run did not end within " + GuestRunner.TIMEOUT_MINUTES
                    + " minutes" : "";
            return new RunOutput(json, code, Files.readString(log) + why);
        } finally {
            Trees.delete(data);
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
}
