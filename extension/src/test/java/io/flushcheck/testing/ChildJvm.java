package io.flushcheck.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this test classpath in a child JVM, optionally under a wrapper such as eatmydata. */
public final class ChildJvm {

    /** What the child printed and how it ended. */
    public record Outcome(int exitCode, String stdout, String stderr) {
    }

    private ChildJvm() {
    }

    public static Outcome run(List<String> wrapper, List<String> jvmOptions, Class<?> main, List<String> args, Path workDir)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().remove("LD_PRELOAD");
        Path err = java.nio.file.Files.createTempFile("flushcheck-child", ".err");
        try {
            pb.redirectError(err.toFile());
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("child JVM did not finish in 120 s: " + cmd);
            }
            return new Outcome(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                    java.nio.file.Files.readString(err));
        } finally {
            java.nio.file.Files.deleteIfExists(err);
        }
    }
}
