package io.flushcheck.vm;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One QEMU guest run: boots the image with the data disk on the run's loop device, answers the probe's
 * handshakes after reading the loop device's counters, and leaves nothing running. QEMU runs under
 * {@code setpriv --pdeathsig KILL}, so it dies with the thread that started it, a killed JVM included; a
 * watchdog kills it at the deadline.
 */
final class QemuGuest {

    static final String QEMU = "qemu-system-x86_64";

    private QemuGuest() {
    }

    static List<String> command(GuestImage image, Accelerator accel, CacheMode cache, LoopDevice disk, ProbePlan plan) {
        List<String> cmd = new ArrayList<>();
        cmd.addAll(List.of(Exec.require("setpriv", "util-linux").toString(), "--pdeathsig", "KILL", "--"));
        StringBuilder args = new StringBuilder().append(plan.rounds()).append(',').append(plan.blockSize());
        for (SyncMode m : plan.modes()) {
            args.append(',').append(m.id());
        }
        cmd.addAll(List.of(Exec.require(QEMU, "qemu-system-x86").toString(),
                // microvm hangs under TCG; pc boots the same kernel in seconds.
                "-machine", "pc,accel=" + accel.name(),
                "-cpu", accel.name().equals("kvm") ? "host" : "max",
                "-m", "256", "-smp", "1",
                "-nodefaults", "-no-user-config", "-display", "none", "-monitor", "none", "-serial", "stdio",
                "-no-reboot",
                "-kernel", image.kernel().toString(),
                "-initrd", image.initramfs().toString(),
                "-append", "console=ttyS0 quiet loglevel=1 panic=-1 flushcheck.args=" + args,
                "-drive", "file=" + disk.path() + ",format=raw,if=virtio,cache=" + cache.id()));
        return cmd;
    }

    /**
     * Runs the guest to its end.
     *
     * @throws IllegalStateException with the cause and the guest's last lines when it brings back no result
     */
    static GuestOutput run(List<String> command, LoopDevice disk, long timeoutMillis) {
        Process p = null;
        Thread watchdog = null;
        GuestOutput out = new GuestOutput();
        // QEMU's stderr into memory, not a file: a killed JVM leaves nothing behind.
        StringBuilder stderr = new StringBuilder();
        long start = System.nanoTime();
        try {
            p = new ProcessBuilder(command).start();
            Process proc = p;
            Thread drain = new Thread(() -> {
                try (var in = proc.getErrorStream()) {
                    byte[] buf = new byte[4096];
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        synchronized (stderr) {
                            if (stderr.length() < 8192) {
                                stderr.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                            }
                        }
                    }
                } catch (IOException e) {
                    // QEMU gone
                }
            }, "flushcheck-qemu-stderr");
            drain.setDaemon(true);
            drain.start();
            watchdog = new Thread(() -> {
                try {
                    if (!proc.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                        proc.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    // the run ended first
                }
            }, "flushcheck-qemu-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            OutputStream toGuest = p.getOutputStream();
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.ISO_8859_1));
            String line;
            while ((line = r.readLine()) != null) {
                GuestOutput.Step step;
                try {
                    step = out.accept(line, System.nanoTime() - start);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("the guest printed a line the host cannot read: '" + line + "'");
                }
                if (step == GuestOutput.Step.BEGIN) {
                    out.current().hostBefore = disk.stat();
                    go(toGuest);
                } else if (step == GuestOutput.Step.END) {
                    out.current().hostAfter = disk.stat();
                    go(toGuest);
                }
            }
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            p.waitFor();
            if (!out.done) {
                long ms = (System.nanoTime() - start) / 1_000_000;
                String why = out.error != null ? out.error
                        : ms >= timeoutMillis ? "no result within " + timeoutMillis / 1000 + " s, QEMU was killed"
                        : "QEMU exited " + p.exitValue() + " before the probe finished";
                drain.join(2000);
                String err;
                synchronized (stderr) {
                    err = stderr.toString().trim();
                }
                throw new IllegalStateException(why + (err.isEmpty() ? "" : "; QEMU: " + err.replace('\n', ' '))
                        + "; the guest's last lines: " + out.tail());
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + QEMU + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the guest ran", e);
        } finally {
            if (p != null) {
                p.destroyForcibly();
                try {
                    p.waitFor(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (watchdog != null) {
                watchdog.interrupt();
            }
        }
    }

    private static void go(OutputStream toGuest) throws IOException {
        toGuest.write("go\n".getBytes(StandardCharsets.US_ASCII));
        toGuest.flush();
    }
}
