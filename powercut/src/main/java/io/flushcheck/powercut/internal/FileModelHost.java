package io.flushcheck.powercut.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The process that serves this JVM's file-model disks ({@code DiskServerMain --files-host}), started with
 * the first and shared by all, so that a disk costs a tree and a mount, not a JVM's start. It is never
 * this JVM: a program here that maps a file of a mount faults with this process's memory map locked, and
 * a server thread here that then needed that lock would wait on the fault it must answer. It ends when
 * this JVM does (its input closes), unmounting every disk; should it die, the next disk starts another.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileModelHost {

    private static FileModelHost shared;
    private static final AtomicLong IDS = new AtomicLong();

    private final Process process;
    private final BufferedReader replies;
    private final PrintStream commands;

    private FileModelHost(Process process) {
        this.process = process;
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * The running host, started with {@code command} (a {@code java ... DiskServerMain --files-host} line)
     * when there is none or it has died.
     */
    public static synchronized FileModelHost shared(List<String> command) throws IOException {
        if (shared == null || !shared.process.isAlive()) {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            FileModelHost host = new FileModelHost(p);
            String ready = host.replies.readLine();
            if (!"ready".equals(ready)) {
                p.destroyForcibly();
                throw new IOException("the file model's server did not start: " + ready);
            }
            shared = host;
        }
        return shared;
    }

    /** Mounts a fresh tree on {@code mountPoint}; returns how to ask that disk's commands. */
    public Function<String, String> mount(Path mountPoint) throws IOException {
        String id = String.valueOf(IDS.incrementAndGet());
        String r = ask("new " + id + " " + mountPoint);
        if (!r.equals("ready")) {
            throw new IOException("the file model's server could not mount " + mountPoint + ": " + r);
        }
        return command -> {
            try {
                return ask(id + " " + command);
            } catch (IOException e) {
                return "error " + e.getMessage();
            }
        };
    }

    /** The server's PID. */
    public long pid() {
        return process.pid();
    }

    private synchronized String ask(String line) throws IOException {
        commands.println(line);
        String reply = replies.readLine();
        if (reply == null) {
            throw new IOException("the file model's server exited");
        }
        return reply;
    }
}
