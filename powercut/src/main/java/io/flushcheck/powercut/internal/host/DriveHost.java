package io.flushcheck.powercut.internal.host;

import io.flushcheck.powercut.internal.kernel.JournalPlace;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The process that serves this JVM's simulated drives ({@code DiskServerMain --host}), started with the
 * first disk and shared by all, so that a disk costs a mount, not a JVM's start. It is never this JVM: a
 * program here that maps a file of a mount faults with this process's memory map locked, and a server
 * thread here that then needed that lock would wait on the fault it must answer. It ends when this JVM
 * does (its input closes), undoing what was left on its drives and unmounting every disk; should it die,
 * the next disk starts another.
 *
 * <p>Should it die or fail (an OutOfMemoryError ends it: it runs with {@code -XX:+ExitOnOutOfMemoryError}),
 * the next command of each of its disks ({@link DriveClient}) throws its {@link ServerFailure}, naming the death and the last lines
 * it wrote on stderr: a dead server's drive has no answer, and no cut of it can pass.
 *
 * <p>It also keeps the block model's templates: what a drive held right after its filesystem was made,
 * by which every later drive of the same filesystem, size and options starts, instead of running mkfs.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DriveHost {

    /** The running hosts, by the command that started them: one, unless a test asks for a server of its own. */
    private static final Map<List<String>, DriveHost> SHARED = new HashMap<>();
    private static final AtomicLong IDS = new AtomicLong();
    private static final int STDERR_LINES = 20;

    private final Process process;
    /** The last lines the server wrote on stderr (passed on to this JVM's stderr as they come). */
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final BufferedReader replies;
    private final PrintStream commands;
    /** The templates this process holds, by what made them (filesystem, size, options), and their names there. */
    private final Map<String, String> templates = new HashMap<>();
    /** Where each template's journal lies, by the template's key: every drive made from it holds it there. */
    private final Map<String, List<JournalPlace.Range>> journals = new HashMap<>();

    /** What a failure of the server becomes for the disks' users. */
    private final Function<ServerFailure, ? extends IOException> failures;

    private DriveHost(Process process, Function<ServerFailure, ? extends IOException> failures) {
        this.process = process;
        this.failures = failures;
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * The running host, started with {@code command} (a {@code java ... DiskServerMain --host} line) when
     * there is none or it has died. Its failures reach the disks' users as {@code failures} makes them.
     */
    public static synchronized DriveHost shared(List<String> command, Function<ServerFailure, ? extends IOException> failures)
            throws IOException {
        DriveHost shared = SHARED.get(command);
        if (shared == null || !shared.process.isAlive()) {
            Process p = new ProcessBuilder(command).start();
            DriveHost host = new DriveHost(p, failures);
            host.passOnStderr();
            String ready = host.replies.readLine();
            if (!DriveClient.ready(ready)) {
                p.destroyForcibly();
                throw host.died("did not start: " + ready);
            }
            shared = host;
            SHARED.put(command, shared);
        }
        return shared;
    }

    /** The server's failure: it died, or answers that it can no longer serve a disk. */
    public static final class ServerFailure extends IOException {
        private static final long serialVersionUID = 1L;

        ServerFailure(String message) {
            super(message);
        }
    }

    private void passOnStderr() {
        Thread t = new Thread(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = err.readLine(); line != null; line = err.readLine()) {
                    System.err.println(line);
                    synchronized (stderrTail) {
                        stderrTail.addLast(line);
                        if (stderrTail.size() > STDERR_LINES) {
                            stderrTail.removeFirst();
                        }
                    }
                }
            } catch (IOException e) {
                // the server is gone
            }
        }, "flushcheck-drive-host-stderr");
        t.setDaemon(true);
        t.start();
    }

    /** The failure of a server that stopped answering: how it ended, and what it said last on stderr. */
    private ServerFailure died(String how) {
        String exit;
        try {
            exit = process.waitFor(2, TimeUnit.SECONDS) ? "exited with " + process.exitValue()
                    + (process.exitValue() > 128 ? " (signal " + (process.exitValue() - 128) + ")" : "")
                    : "is still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = "is in an unknown state";
        }
        String tail;
        synchronized (stderrTail) {
            tail = String.join(" | ", stderrTail);
        }
        return new ServerFailure("the simulated drives' server (pid " + process.pid() + ") " + how + "; it " + exit
                + (tail.isEmpty() ? ", saying nothing on stderr" : "; its last lines on stderr: " + tail));
    }

    /** The name the host's template {@code key} has in the server, or null when it keeps none. */
    synchronized String template(String key) {
        return templates.get(key);
    }

    /** Has the server keep a template for {@code key} by a new name, which {@code keep} asks it to do. */
    synchronized void keepTemplate(String key, TemplateKeeper keep) throws IOException {
        String name = "t" + (templates.size() + 1);
        keep.keep(name);
        templates.put(key, name);
    }

    /** Asks the server to keep a drive's sectors as the template {@code name}. */
    @FunctionalInterface
    interface TemplateKeeper {
        void keep(String name) throws IOException;
    }

    /** Where the journal of template {@code key}'s filesystem lies, found once on {@code image} ({@link DriveClient#journalPlace}). */
    List<JournalPlace.Range> journalPlace(String key, String fsType, Path image) throws IOException {
        synchronized (this) {
            List<JournalPlace.Range> known = journals.get(key);
            if (known != null) {
                return known;
            }
        }
        List<JournalPlace.Range> found = JournalPlace.of(fsType, image);
        synchronized (this) {
            journals.putIfAbsent(key, found);
        }
        return found;
    }

    /** A new disk's id, unique in this JVM. */
    String nextId() {
        return String.valueOf(IDS.incrementAndGet());
    }

    /** The server's saying it can no longer serve a disk ({@code how}), as the disk's user gets it. */
    IOException failed(String how) {
        return failures.apply(new ServerFailure("the simulated drives' server (pid " + process.pid() + ") " + how));
    }

    /** The server's PID. */
    public long pid() {
        return process.pid();
    }

    /** The server's one-line reply to {@code line}. */
    synchronized String ask(String line) throws IOException {
        commands.println(line);
        String reply = replies.readLine();
        if (reply == null) {
            throw failures.apply(died("died"));
        }
        return reply;
    }
}
