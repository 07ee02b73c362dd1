package io.flushcheck.vm;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

    /** The probe's guest: the arguments on the kernel command line, the results on the serial console. */
    static List<String> command(BootImage image, Accelerator accel, CacheMode cache, LoopDevice disk, ProbePlan plan) {
        StringBuilder args = new StringBuilder().append(plan.rounds()).append(',').append(plan.blockSize());
        for (SyncMode m : plan.modes()) {
            args.append(',').append(m.id());
        }
        return machine(image, accel, 256, "flushcheck.args=" + args, disk, cache);
    }

    /**
     * A guest that runs the host's JVM ({@code flushcheck.run=jre} in the init): the host's root read only over
     * 9p, and {@code runDir} (with the {@code run.sh} the guest runs) writable over 9p.
     */
    static List<String> jreCommand(BootImage image, Accelerator accel, CacheMode cache, LoopDevice disk, Path runDir,
                                   int memoryMiB) {
        List<String> cmd = machine(image, accel, memoryMiB, "flushcheck.run=jre", disk, cache);
        // multidevs=remap: the host's root spans several filesystems, whose inode numbers would collide in one share.
        cmd.addAll(List.of("-fsdev", "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap",
                "-device", "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot",
                "-fsdev", "local,id=hostio,path=" + runDir + ",security_model=none",
                "-device", "virtio-9p-pci,fsdev=hostio,mount_tag=hostio"));
        return cmd;
    }

    private static List<String> machine(BootImage image, Accelerator accel, int memoryMiB, String initArgs, LoopDevice disk,
                                        CacheMode cache) {
        List<String> cmd = new ArrayList<>();
        cmd.addAll(List.of(Exec.require("setpriv", "util-linux").toString(), "--pdeathsig", "KILL", "--"));
        cmd.addAll(List.of(Exec.require(QEMU, "qemu-system-x86").toString(),
                // microvm hangs under TCG; pc boots the same kernel in seconds.
                "-machine", "pc,accel=" + accel.name(),
                "-cpu", accel.name().equals("kvm") ? "host" : "max",
                "-m", String.valueOf(memoryMiB), "-smp", "1",
                "-nodefaults", "-no-user-config", "-display", "none", "-monitor", "none", "-serial", "stdio",
                "-no-reboot",
                "-kernel", image.kernel().toString(),
                "-initrd", image.initramfs().toString(),
                "-append", "console=ttyS0 quiet loglevel=1 panic=-1 " + initArgs,
                "-drive", "file=" + disk.path() + ",format=raw,if=virtio,cache=" + cache.id()));
        return cmd;
    }

    /**
     * Runs the guest to its end.
     *
     * @throws IllegalStateException with the cause and the guest's last lines when it brings back no result
     */
    static GuestOutput run(List<String> command, LoopDevice disk, long timeoutMillis) {
        GuestOutput out = new GuestOutput();
        try (QemuProcess qemu = QemuProcess.start(command, timeoutMillis)) {
            String line;
            while ((line = qemu.readLine()) != null) {
                GuestOutput.Step step;
                try {
                    step = out.accept(line, qemu.nanos());
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("the guest printed a line the host cannot read: '" + line + "'");
                }
                if (step == GuestOutput.Step.BEGIN) {
                    out.current().hostBefore = disk.stat();
                    qemu.send("go");
                } else if (step == GuestOutput.Step.END) {
                    out.current().hostAfter = disk.stat();
                    qemu.send("go");
                }
            }
            int exit = qemu.awaitExit();
            if (!out.done) {
                throw new IllegalStateException(qemu.whyEnded(out.error, exit, "the probe finished") + "; the guest's last lines: "
                        + out.tail());
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + QEMU + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the guest ran", e);
        }
    }
}
