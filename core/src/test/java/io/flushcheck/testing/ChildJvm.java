package io.flushcheck.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts the test's own classpath in a fresh JVM, optionally behind a wrapper such as {@code eatmydata}. */
public final class ChildJvm {

    private ChildJvm() {
    }

    /** The java binary of this JVM. */
    public static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The test classpath. Surefire puts the real classpath in {@code java.class.path} even when it boots
     * through a manifest-only jar, so a child started with it sees the same classes.
     */
    public static String classpath() {
        String cp = System.getProperty("java.class.path");
        if (cp == null || cp.isBlank()) {
            throw new IllegalStateException("java.class.path is empty");
        }
        return cp;
    }

    /** {@code [wrapper...] java -cp <classpath> mainClass args...}. */
    public static List<String> command(List<String> wrapper, String mainClass, List<String> args) {
        return command(wrapper, List.of(), mainClass, args);
    }

    /** {@code [wrapper...] java [jvmOptions...] -cp <classpath> mainClass args...}. */
    public static List<String> command(List<String> wrapper, List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(javaBinary());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classpath());
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * {@code command} started with SIGINT, SIGTERM and SIGHUP at their default dispositions, for a test that
     * signals its child. A program started in the background by a shell without job control inherits SIGINT
     * ignored (POSIX, asynchronous lists), nohup leaves SIGHUP ignored, and a JVM keeps a signal ignored that
     * was ignored when it started: without this, such a test measures how it was launched. GNU coreutils'
     * {@code env --default-signal} resets them and executes the command in the same process.
     */
    public static List<String> withDefaultSignals(List<String> command) {
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT,TERM,HUP"));
        cmd.addAll(command);
        return cmd;
    }

    /** Runs a command to completion, stdout and stderr kept apart. */
    public static Result run(List<String> command, int timeoutSeconds) {
        return run(command, timeoutSeconds, Path.of("."));
    }

    /** Runs a command to completion in {@code workDir}, stdout and stderr kept apart. */
    public static Result run(List<String> command, int timeoutSeconds, Path workDir) {
        try {
            File out = File.createTempFile("child", ".out");
            File err = File.createTempFile("child", ".err");
            try {
                Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectOutput(out).redirectError(err).start();
                p.getOutputStream().close();
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                    throw new AssertionError("timed out after " + timeoutSeconds + " s: " + command);
                }
                return new Result(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
                        Files.readString(err.toPath(), StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out.toPath());
                Files.deleteIfExists(err.toPath());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public record Result(int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }
}
