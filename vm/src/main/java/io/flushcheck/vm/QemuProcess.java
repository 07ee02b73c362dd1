package io.flushcheck.vm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running QEMU: its serial console as lines and as input, its stderr kept in memory (a killed JVM leaves no
 * file behind), and a watchdog that kills it at the deadline. Closing it kills what is left.
 */
final class QemuProcess implements AutoCloseable {

    private static final int STDERR_LIMIT = 8192;

    private final Process process;
    private final BufferedReader console;
    private final StringBuilder stderr = new StringBuilder();
    private final Thread drain;
    private final Thread watchdog;
    private final long start = System.nanoTime();
    private final long timeoutMillis;

    private QemuProcess(Process process, long timeoutMillis) {
        this.process = process;
        this.timeoutMillis = timeoutMillis;
        // ISO-8859-1: every byte is a character, so a garbled console line cannot throw.
        this.console = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.ISO_8859_1));
        this.drain = new Thread(this::drainStderr, "flushcheck-qemu-stderr");
        drain.setDaemon(true);
        drain.start();
        this.watchdog = new Thread(() -> {
            try {
                if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                // the run ended first
            }
        }, "flushcheck-qemu-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    static QemuProcess start(List<String> command, long timeoutMillis) {
        try {
            return new QemuProcess(new ProcessBuilder(command).start(), timeoutMillis);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + QemuGuest.QEMU + ": " + e.getMessage(), e);
        }
    }

    /** The console's next line, or null when QEMU has closed it. */
    String readLine() throws IOException {
        return console.readLine();
    }

    /** Nanoseconds since QEMU started. */
    long nanos() {
        return System.nanoTime() - start;
    }

    void send(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        in.flush();
    }

    /** Waits for QEMU to exit after its console closed (killing it after 10 s) and gives its exit code. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return process.waitFor();
    }

    /**
     * Why a run that brought nothing back ended, with what QEMU said on stderr.
     *
     * @param guestError the guest's own error line, or null
     * @param what       what should have happened first ("the probe finished")
     */
    String whyEnded(String guestError, int exitCode, String what) throws InterruptedException {
        long ms = nanos() / 1_000_000;
        String why = guestError != null ? guestError
                : ms >= timeoutMillis ? "no result within " + timeoutMillis / 1000 + " s, QEMU was killed"
                : "QEMU exited " + exitCode + " before " + what;
        String err = stderr();
        return why + (err.isEmpty() ? "" : "; QEMU: " + err.replace('\n', ' '));
    }

    String stderr() throws InterruptedException {
        drain.join(2000);
        synchronized (stderr) {
            return stderr.toString().trim();
        }
    }

    private void drainStderr() {
        try (var in = process.getErrorStream()) {
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) > 0) {
                synchronized (stderr) {
                    if (stderr.length() < STDERR_LIMIT) {
                        stderr.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                    }
                }
            }
        } catch (IOException e) {
            // QEMU gone
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watchdog.interrupt();
    }
}
