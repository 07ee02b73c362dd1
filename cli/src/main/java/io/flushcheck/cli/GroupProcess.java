package io.flushcheck.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A user's command in a process group of its own, held at a gate until {@link #release()}: its group can
 * then be armed to die with the power before it runs a line, and killed whole (its children too). Its
 * stdout and stderr go to a file, whose tail {@link #tail} reads.
 */
final class GroupProcess implements AutoCloseable {

    /** {@code read} in sh takes one byte at a time from a pipe, so the command sees nothing of the gate's line. */
    private static final String GATE = "read _ || exit 125; exec \"$@\"";

    private final Process process;
    private final Path log;

    private GroupProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code argv} under {@code setsid}: a child of this JVM is no process group's leader, so setsid
     * makes the new session in place and the command's PID is its process group's ID.
     */
    static GroupProcess start(List<String> argv) throws IOException {
        Path log = Files.createTempFile("flushcheck-powercut-", ".log");
        List<String> line = new ArrayList<>(List.of("setsid", "sh", "-c", GATE, "sh"));
        line.addAll(argv);
        try {
            Process p = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new GroupProcess(p, log);
        } catch (IOException e) {
            Files.deleteIfExists(log);
            throw e;
        }
    }

    /** The process group's ID. */
    long group() {
        return process.pid();
    }

    /** Lets the command run; its standard input then reads end of file. */
    void release() throws IOException {
        OutputStream in = process.getOutputStream();
        try {
            in.write('\n');
            in.close();
        } catch (IOException e) {
            if (process.isAlive()) {
                throw e;
            }
            // killed at the gate: the power went at a flush of the kernel's own before the command ran
        }
    }

    /** Waits for the command; true when it ended within {@code seconds}. */
    boolean waitFor(double seconds) throws InterruptedException {
        return process.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS);
    }

    /** The exit code, 128 + the signal when a signal ended it. */
    int exitCode() {
        return process.exitValue();
    }

    /** SIGKILL to every process of the group still running (a command's children outlive it otherwise). */
    void killGroup() {
        long group = group();
        java.io.File[] procs = new java.io.File("/proc").listFiles();
        if (procs != null) {
            for (java.io.File f : procs) {
                String name = f.getName();
                if (!name.isEmpty() && Character.isDigit(name.charAt(0)) && groupOf(f.toPath()) == group) {
                    ProcessHandle.of(Long.parseLong(name)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Field 5 of /proc/PID/stat, after the command name in parentheses (which may hold spaces). */
    private static long groupOf(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[2]);
        } catch (IOException | RuntimeException e) {
            return -1; // gone meanwhile
        }
    }

    /** The last {@code lines} non-empty lines of the command's output, joined with " | ". */
    String tail(int lines) {
        try {
            List<String> all = new ArrayList<>();
            for (String l : new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank()) {
                    all.add(l.strip());
                }
            }
            return String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        killGroup();
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temporary file; nothing of the user's
        }
    }
}
