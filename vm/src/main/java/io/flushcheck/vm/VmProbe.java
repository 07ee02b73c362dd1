package io.flushcheck.vm;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.ProbeLock;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Thresholds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * Runs flushcheck's probe inside a QEMU guest whose data disk is a raw file in a host directory on a loop
 * device made for the run, and judges the guest's flushes by what reached that device
 * ({@code /sys/block/loopN/stat}): QEMU's own block statistics count what the guest sent, which proves
 * nothing about the host.
 *
 * <p>Needs root (the loop device), {@code qemu-system-x86_64}, {@code mkfs.ext4}, and what the guest image is
 * built from: {@code linux-image-amd64}, {@code busybox-static}, {@code gcc}, {@code cpio}
 * ({@link #requirements()}). The image is built once per set of inputs and cached. One loop device per guest,
 * released when the guest ends, whatever happens; QEMU never outlives the run, not even a killed JVM.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public final class VmProbe {

    /** The modes the guest's probe has: the Linux modes of {@link SyncMode} that need no JVM. */
    public static final Set<SyncMode> GUEST_MODES = EnumSet.of(SyncMode.APPEND_FSYNC, SyncMode.APPEND_FDATASYNC,
            SyncMode.OVERWRITE_FDATASYNC, SyncMode.DSYNC, SyncMode.FLUSH_ONLY, SyncMode.NO_SYNC);

    private final Path cache;
    private final Consumer<String> progress;
    private BootImage image;
    private Accelerator accelerator;

    /**
     * @param cache    where guest images are kept (null: {@code flushcheck.vm.cache}, else
     *                 {@code $XDG_CACHE_HOME/flushcheck/vm}, else {@code ~/.cache/flushcheck/vm})
     * @param progress one line per step (building the image, booting a guest)
     */
    public VmProbe(Path cache, Consumer<String> progress) {
        this.cache = cache == null ? BootImage.defaultCache() : cache;
        this.progress = progress;
    }

    /**
     * Checks that a guest can run here.
     *
     * @throws VmUnavailableException naming what is missing and how to get it
     */
    public static void requirements() {
        Exec.require(QemuGuest.QEMU, "qemu-system-x86");
        Exec.require("setpriv", "util-linux");
        Exec.require("mkfs.ext4", "e2fsprogs");
        Exec.require("cpio", "cpio");
        Exec.require("gzip", "gzip");
        Exec.require("gcc", "gcc");
        Exec.require("busybox", "busybox-static");
        if (!Files.isWritable(Path.of("/dev/loop-control"))) {
            throw new VmUnavailableException("/dev/loop-control cannot be opened for writing: the guest's disk needs a loop "
                    + "device, which needs root");
        }
        GuestKernel.resolve();
    }

    /** The guest image, built now unless cached. */
    public String prepare() {
        image();
        return image.key();
    }

    synchronized BootImage image() {
        if (image == null) {
            requirements();
            image = BootImage.obtain(cache, BootImage.Inputs.ofThisMachine(), progress);
            accelerator = Accelerator.choose();
        }
        return image;
    }

    /** The accelerator guests use here. */
    Accelerator chosenAccelerator() {
        image();
        return accelerator;
    }

    /** The accelerator guests use here, and why. */
    public String accelerator() {
        image();
        return accelerator.name() + " (" + accelerator.reason() + ")";
    }

    /**
     * Runs the plan in a guest whose disk image lies in {@code hostDir}.
     *
     * @param hostStorage the host's own check of {@code hostDir} (null: not judged), which the verdict takes in
     * @throws IllegalArgumentException for a mode the guest's probe does not have
     * @throws IllegalStateException    with the cause when the guest brings back no result
     */
    public VmResult run(CacheMode cacheMode, Path hostDir, ProbePlan plan, CheckResult hostStorage, Thresholds thresholds) {
        for (SyncMode m : plan.modes()) {
            if (!GUEST_MODES.contains(m)) {
                throw new IllegalArgumentException("the guest's probe has no mode " + m.id());
            }
        }
        BootImage img = image();
        return ProbeLock.exclusively(() -> runLocked(img, cacheMode, hostDir, plan, hostStorage, thresholds));
    }

    private VmResult runLocked(BootImage img, CacheMode cacheMode, Path hostDir, ProbePlan plan, CheckResult hostStorage,
                               Thresholds thresholds) {
        long start = System.nanoTime();
        try (DataDisk disk = DataDisk.create(hostDir, DataDisk.sizeFor(plan.rounds(), plan.blockSize()))) {
            String loop = disk.loop().name();
            progress.accept(cacheMode.environment() + ": booting (" + accelerator.name() + ", disk " + disk.file().getFileName()
                    + " on /dev/" + loop + ")");
            List<String> cmd = QemuGuest.command(img, accelerator, cacheMode, disk.loop(), plan);
            long timeout = 120_000L + (long) plan.rounds() * plan.modes().size() * 20L;
            GuestOutput out = QemuGuest.run(cmd, disk.loop(), timeout);
            List<SyncCost> costs = new ArrayList<>();
            for (SyncMode m : plan.modes()) {
                GuestOutput.Mode gm = out.modes.get(m.id());
                if (gm == null || gm.guest == null || gm.host() == null || gm.latencies.size() != plan.rounds()) {
                    throw new IllegalStateException("the guest's probe gave no complete figures for " + m.id() + "; its last lines: "
                            + out.tail());
                }
                long[] nanos = new long[gm.latencies.size()];
                for (int i = 0; i < nanos.length; i++) {
                    nanos[i] = gm.latencies.get(i);
                }
                DeviceStat host = gm.host();
                costs.add(new SyncCost(m, plan.blockSize(), plan.rounds(), LatencyDistribution.ofNanos(nanos), gm.loopNanos,
                        List.of(new DeviceDelta(VmResult.GUEST_DEVICE, false, gm.guest), new DeviceDelta(loop, true, host)),
                        List.of(), null));
            }
            Judgement j = EdgeJudge.judge(cacheMode, out.writeCache, VmResult.GUEST_DEVICE, loop, costs, hostStorage, thresholds);
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            CheckResult r = new CheckResult("qemu:/data (" + disk.file() + " on /dev/" + loop + ")", null, costs, j, elapsed);
            return new VmResult(cacheMode, accelerator.name(), accelerator.reason(), out.writeCache, loop, r,
                    out.readyNanos / 1_000_000);
        }
    }
}
