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
 * the next command of each of its disks throws {@link ServerFailure}, naming the death and the last lines
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

    private DriveHost(Process process) {
        this.process = process;
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * The running host, started with {@code command} (a {@code java ... DiskServerMain --host} line) when
     * there is none or it has died.
     */
    public static synchronized DriveHost shared(List<String> command) throws IOException {
        DriveHost shared = SHARED.get(command);
        if (shared == null || !shared.process.isAlive()) {
            Process p = new ProcessBuilder(command).start();
            DriveHost host = new DriveHost(p);
            host.passOnStderr();
            String ready = host.replies.readLine();
            if (!"ready".equals(ready)) {
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

    /** One disk served by the host: its commands, answered one line for one line. */
    public final class Disk {
        private final String id;
        private final boolean templated;

        private Disk(String id, boolean templated) {
            this.id = id;
            this.templated = templated;
        }

        /** True when the drive started from a template ({@link #mountDrive}), with its filesystem made already. */
        public boolean templated() {
            return templated;
        }

        /**
         * The reply to {@code command}.
         *
         * @throws ServerFailure when the server died, or says it failed ({@code failed REASON})
         */
        public String ask(String command) throws IOException {
            String reply = DriveHost.this.ask(id + " " + command);
            if (reply.startsWith("failed ")) {
                throw new ServerFailure("the simulated drives' server (pid " + process.pid() + ") failed: "
                        + reply.substring("failed ".length()));
            }
            return reply;
        }

        /**
         * Where the journal of the filesystem on this drive lies ({@link JournalPlace}), {@code image} being the
         * drive's image: found on the first drive of template {@code key} that asks, then the same for every drive
         * of it, since mkfs placed it once and the drives start from its sectors. A failure is not kept.
         */
        public List<JournalPlace.Range> journalPlace(String key, String fsType, Path image) throws IOException {
            synchronized (DriveHost.this) {
                List<JournalPlace.Range> known = journals.get(key);
                if (known != null) {
                    return known;
                }
            }
            List<JournalPlace.Range> found = JournalPlace.of(fsType, image);
            synchronized (DriveHost.this) {
                journals.putIfAbsent(key, found);
            }
            return found;
        }

        /** What this drive reads now becomes the template {@code key} names ({@link #mountDrive}). */
        public void keepAsTemplate(String key) throws IOException {
            synchronized (DriveHost.this) {
                String name = "t" + (templates.size() + 1);
                String r = DriveHost.this.ask("template " + name + " " + id);
                if (!r.equals("template")) {
                    throw new IOException("the simulated drives' server could not keep a template: " + r);
                }
                templates.put(key, name);
            }
        }
    }

    /** Mounts a fresh tree of the file model of {@code size} bytes on {@code mountPoint}, under {@code rules} ({@code journaled}, {@code posix}). */
    public Disk mountFiles(Path mountPoint, long size, String rules) throws IOException {
        return add("files " + PathWord.of(mountPoint) + " " + size + " " + rules, mountPoint, false);
    }

    /**
     * Serves a block model's drive of {@code size} bytes writing {@code atomicUnit} bytes atomically on
     * {@code mountPoint}: holding the sectors of the template {@code key} names when this host keeps one ({@link Disk#keepAsTemplate}), empty
     * otherwise ({@link Disk#templated()} tells which).
     */
    public Disk mountDrive(Path mountPoint, long size, int atomicUnit, String key) throws IOException {
        String template;
        synchronized (this) {
            template = templates.get(key);
        }
        return add("drive " + PathWord.of(mountPoint) + " " + size + " " + atomicUnit + (template == null ? "" : " " + template),
                mountPoint, template != null);
    }

    private Disk add(String what, Path mountPoint, boolean templated) throws IOException {
        String id = String.valueOf(IDS.incrementAndGet());
        String r = ask("new " + id + " " + what);
        if (!r.equals("ready")) {
            throw new IOException("the simulated drives' server could not mount " + mountPoint + ": " + r);
        }
        return new Disk(id, templated);
    }

    /** The server's PID. */
    public long pid() {
        return process.pid();
    }

    private synchronized String ask(String line) throws IOException {
        commands.println(line);
        String reply = replies.readLine();
        if (reply == null) {
            throw died("died");
        }
        return reply;
    }
}
