package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pure parts: module order, the kernel's package, the accelerator, the guest's output, the edge's verdict. */
class VmPartsTests {

    @Test
    void modulesLoadAfterWhatTheyNeedEachOnce(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("modules.dep"), String.join("\n",
                "kernel/fs/ext4/ext4.ko.xz: kernel/lib/crc16.ko.xz kernel/fs/mbcache.ko.xz kernel/fs/jbd2/jbd2.ko.xz",
                "kernel/fs/jbd2/jbd2.ko.xz:",
                "kernel/crypto/crc32c_generic.ko.xz:",
                "kernel/drivers/virtio/virtio.ko.xz: kernel/drivers/virtio/virtio_ring.ko.xz",
                "kernel/drivers/virtio/virtio_ring.ko.xz:",
                "kernel/drivers/virtio/virtio_pci.ko.xz: kernel/drivers/virtio/virtio.ko.xz kernel/drivers/virtio/virtio_ring.ko.xz",
                "kernel/drivers/block/virtio_blk.ko.xz: kernel/drivers/virtio/virtio.ko.xz kernel/drivers/virtio/virtio_ring.ko.xz",
                "kernel/lib/crc16.ko.xz:", "kernel/fs/mbcache.ko.xz:", ""));
        Files.writeString(dir.resolve("modules.builtin"), "kernel/lib/libcrc32c.ko\n");
        List<String> order = KernelModules.read(dir).loadOrder(List.of("virtio_pci", "virtio-blk", "libcrc32c", "ext4"));
        assertThat(order).containsExactly("kernel/drivers/virtio/virtio_ring.ko.xz", "kernel/drivers/virtio/virtio.ko.xz",
                "kernel/drivers/virtio/virtio_pci.ko.xz", "kernel/drivers/block/virtio_blk.ko.xz", "kernel/lib/crc16.ko.xz",
                "kernel/fs/mbcache.ko.xz", "kernel/fs/jbd2/jbd2.ko.xz", "kernel/fs/ext4/ext4.ko.xz");
        assertThatThrownBy(() -> KernelModules.read(dir).loadOrder(List.of("btrfs")))
                .isInstanceOf(VmUnavailableException.class).hasMessageContaining("no module btrfs");
    }

    @Test
    void theKernelPackageIsTheMetaPackagesDependency() {
        assertThat(GuestKernel.kernelPackage("linux-image-6.1.0-57-amd64 (= 6.1.192-3)")).isEqualTo("linux-image-6.1.0-57-amd64");
        assertThat(GuestKernel.kernelPackage("linux-image-6.12.9-amd64-unsigned (= 6.12.9-1) | linux-image-6.12.9-amd64"))
                .isEqualTo("linux-image-6.12.9-amd64-unsigned");
        assertThat(GuestKernel.kernelPackage("initramfs-tools, linux-base")).isNull();
    }

    @Test
    void kvmOnlyWhereTheCpuHasItAndDevKvmIsNotPvm(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("proc"));
        Files.createDirectories(root.resolve("dev"));
        Files.writeString(root.resolve("proc/cpuinfo"), "processor\t: 0\nflags\t\t: fpu vme svm sse\n");
        Files.writeString(root.resolve("dev/kvm"), "");
        assertThat(Accelerator.choose(root).name()).isEqualTo("kvm");
        Files.createDirectories(root.resolve("sys/module/kvm_pvm"));
        assertThat(Accelerator.choose(root)).satisfies(a -> {
            assertThat(a.name()).isEqualTo("tcg");
            assertThat(a.reason()).contains("kvm_pvm");
        });
        Files.delete(root.resolve("sys/module/kvm_pvm"));
        Files.writeString(root.resolve("proc/cpuinfo"), "flags\t\t: fpu vme sse hypervisor\n");
        assertThat(Accelerator.choose(root).reason()).contains("no vmx or svm");
    }

    @Test
    void theGuestsLinesGiveEachModesFiguresAndTheHostsSteps() {
        GuestOutput out = new GuestOutput();
        assertThat(out.accept("flushcheck-guest: ready write back", 5)).isEqualTo(GuestOutput.Step.NONE);
        assertThat(out.writeCache).isEqualTo("write back");
        assertThat(out.accept("begin overwrite-fdatasync", 6)).isEqualTo(GuestOutput.Step.BEGIN);
        out.accept("stat overwrite-fdatasync 6 48 3\r", 7);
        out.accept("lat overwrite-fdatasync 1000 2000", 7);
        out.accept("lat overwrite-fdatasync 3000", 7);
        assertThat(out.accept("end overwrite-fdatasync 7000", 8)).isEqualTo(GuestOutput.Step.END);
        assertThat(out.accept("done", 9)).isEqualTo(GuestOutput.Step.DONE);
        GuestOutput.Mode m = out.modes.get("overwrite-fdatasync");
        assertThat(m.guest).isEqualTo(new DeviceStat(6, 48, 3));
        assertThat(m.latencies).containsExactly(1000L, 2000L, 3000L);
        assertThat(m.loopNanos).isEqualTo(7000);
        assertThat(out.done).isTrue();
        out.accept("error append-fsync open: No space left on device", 10);
        assertThat(out.error).isEqualTo("error append-fsync open: No space left on device");
    }

    @Test
    void theEdgeDecidesByWhatReachedTheHost() {
        // flushes acknowledged in the guest, none on the host: NO_REAL_FLUSH naming the cache mode
        Judgement unsafe = EdgeJudge.judge(CacheMode.UNSAFE, "write back", "vda", "loop5",
                List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 100, 100, 0, 100)), null, Thresholds.DEFAULT);
        assertThat(unsafe.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(unsafe.reasons().get(0).code()).isEqualTo(FindingCode.HOST_FLUSHES_MISSING);
        assertThat(unsafe.reasons().get(0).message()).contains("cache=unsafe", "0 received by the host's loop5");
        // passed on
        assertThat(EdgeJudge.judge(CacheMode.NONE, "write back", "vda", "loop5",
                List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 100, 100, 100, 100)), null, Thresholds.DEFAULT).reasons())
                .extracting(f -> f.code()).containsExactly(FindingCode.HOST_FLUSHES_REACHED);
        // write-through: no guest flushes, every write synced on the host
        assertThat(EdgeJudge.judge(CacheMode.WRITETHROUGH, "write through", "vda", "loop5",
                List.of(cost(SyncMode.APPEND_FSYNC, 100, 0, 300, 300)), null, Thresholds.DEFAULT).verdict())
                .isEqualTo(Verdict.REAL_FLUSH);
        assertThat(EdgeJudge.judge(CacheMode.WRITETHROUGH, "write through", "vda", "loop5",
                List.of(cost(SyncMode.APPEND_FSYNC, 100, 0, 10, 300)), null, Thresholds.DEFAULT).verdict())
                .isEqualTo(Verdict.NO_REAL_FLUSH);
        // a guest that never flushed its own disk
        assertThat(EdgeJudge.judge(CacheMode.NONE, "write back", "vda", "loop5",
                List.of(cost(SyncMode.APPEND_FSYNC, 100, 3, 3, 300)), null, Thresholds.DEFAULT).reasons().get(0).code())
                .isEqualTo(FindingCode.FLUSHES_MISSING);
        // no-sync alone decides nothing
        assertThat(EdgeJudge.judge(CacheMode.NONE, "write back", "vda", "loop5",
                List.of(cost(SyncMode.NO_SYNC, 100, 0, 0, 100)), null, Thresholds.DEFAULT).verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void cacheModesParseByName() {
        assertThat(CacheMode.parseList("unsafe, NONE,unsafe")).containsExactly(CacheMode.UNSAFE, CacheMode.NONE);
        assertThatThrownBy(() -> CacheMode.parse("")).hasMessageContaining("unknown cache mode ''");
        assertThat(CacheMode.DIRECTSYNC.writeThrough()).isTrue();
        assertThat(CacheMode.UNSAFE.environment()).isEqualTo("qemu/cache=unsafe");
    }

    static SyncCost cost(SyncMode mode, int rounds, long guestFlushes, long hostFlushes, long guestWrites) {
        long[] nanos = new long[rounds];
        java.util.Arrays.fill(nanos, 100_000);
        return new SyncCost(mode, 4096, rounds, LatencyDistribution.ofNanos(nanos), rounds * 100_000L,
                List.of(new DeviceDelta("vda", false, new DeviceStat(guestWrites, guestWrites * 8, guestFlushes)),
                        new DeviceDelta("loop5", true, new DeviceStat(guestWrites, guestWrites * 8, hostFlushes))),
                List.of(), null);
    }
}
