package io.flushcheck.vm;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the host's tools (dpkg-query, gcc, cpio, mkfs.ext4, xz) and says in one sentence why one failed. */
final class Exec {

    private Exec() {
    }

    /** The command's full path on PATH (and in the sbin directories, which a user's PATH may lack), or null. */
    static Path which(String command) {
        String path = System.getenv("PATH");
        String dirs = (path == null ? "" : path) + File.pathSeparator + "/usr/sbin" + File.pathSeparator + "/sbin";
        for (String dir : dirs.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** The tool's path, or a {@link VmUnavailableException} naming the Debian package that brings it. */
    static Path require(String command, String debianPackage) {
        Path p = which(command);
        if (p == null) {
            throw new VmUnavailableException("'" + command + "' is not installed (apt-get install " + debianPackage + ")");
        }
        return p;
    }

    /** Runs {@code command} in {@code dir} (null: here), stdout returned; a non-zero exit throws with its stderr. */
    static String run(Path dir, List<String> command) {
        Result r = exec(dir, command, null);
        if (r.exit != 0) {
            throw new IllegalStateException(command.get(0) + " exited " + r.exit + ": " + r.err.trim());
        }
        return r.out;
    }

    static String run(List<String> command) {
        return run(null, command);
    }

    /** Runs it with {@code input} on stdin (null: none), and stdout to {@code output} when given. */
    static Result exec(Path dir, List<String> command, byte[] input) {
        return exec(dir, command, input, null);
    }

    static Result exec(Path dir, List<String> command, byte[] input, Path output) {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        if (output != null) {
            pb.redirectOutput(output.toFile());
        }
        try {
            Process p = pb.start();
            try {
                // stderr read on its own thread, into memory: no temporary file for a killed JVM to leave behind
                StringBuilder err = new StringBuilder();
                Thread drain = new Thread(() -> {
                    try (var in = p.getErrorStream()) {
                        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                        synchronized (err) {
                            err.append(text);
                        }
                    } catch (IOException e) {
                        // the tool is gone
                    }
                }, "flushcheck-exec-stderr");
                drain.setDaemon(true);
                drain.start();
                try (var in = p.getOutputStream()) {
                    if (input != null) {
                        in.write(input);
                    }
                } catch (IOException e) {
                    // The tool stopped reading (xz at the end of its stream): its exit status and output decide.
                }
                String out = output != null ? "" : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(10, TimeUnit.MINUTES)) {
                    throw new IllegalStateException(command.get(0) + " did not finish within 10 minutes");
                }
                drain.join(5000);
                synchronized (err) {
                    return new Result(p.exitValue(), out, err.toString());
                }
            } finally {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + command.get(0) + " ran", e);
        }
    }

    record Result(int exit, String out, String err) {
    }
}
