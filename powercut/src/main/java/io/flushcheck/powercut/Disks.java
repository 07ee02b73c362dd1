package io.flushcheck.powercut;

import io.flushcheck.MissingTool;
import io.flushcheck.powercut.internal.kernel.Filesystems;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/** Disks for the extensions: configured by {@link SimulatedPowerLoss}, made where a test can have one. */
final class Disks {

    /** The defaults of {@link SimulatedPowerLoss}, for a test that has none in scope. */
    @SimulatedPowerLoss
    private static final class Defaults {
    }

    private Disks() {
    }

    /** The {@link SimulatedPowerLoss} on the test method, else its class, else the defaults. */
    static SimulatedPowerLoss config(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), SimulatedPowerLoss.class)
                .or(() -> AnnotationSupport.findAnnotation(context.getRequiredTestClass(), SimulatedPowerLoss.class))
                .orElseGet(() -> Defaults.class.getAnnotation(SimulatedPowerLoss.class));
    }

    /**
     * A fresh disk as {@code config} says, the model it simulates published as the report entry
     * {@code flushcheck.powercut.model} (with why, where AUTO chose). Without what the model needs (the block
     * model: root, {@code /dev/fuse}, the filesystem's mkfs, a free loop device; the file model:
     * {@code /dev/fuse}, and fusermount where not root) the test is skipped with the reason, or fails with it
     * where {@link MissingTool#KEY} is {@code fail}.
     */
    static SimulatedDisk create(SimulatedPowerLoss config, String annotation, ExtensionContext context) {
        DiskModel model = config.model().resolved();
        String why = config.model() == DiskModel.AUTO ? " (AUTO: " + DiskModel.autoReason() + ")" : "";
        SimulatedDisk disk;
        if (model == DiskModel.FILE) {
            disk = createFiles(config, annotation);
        } else {
            try {
                disk = createBlock(config, annotation);
            } catch (TestAbortedException | ExtensionConfigurationException e) {
                if (config.model() != DiskModel.AUTO || !e.getMessage().contains("a free loop device")) {
                    throw e;
                }
                disk = createFiles(config, annotation);
                why = " (AUTO: no free loop device, which the block model needs)";
            }
        }
        context.publishReportEntry("flushcheck.powercut.model", disk.model() + why + ": " + describe(disk));
        return disk;
    }

    /** The disk in a few words, for the report entry and a progress line. */
    static String describe(SimulatedDisk disk) {
        return disk.model() == DiskModel.FILE
                ? "files over FUSE, " + disk.fileRules().describe()
                        + "; no syncfs(2) or sync(2) reaches it (FUSE_SYNCFS goes to virtiofs only)"
                : disk.fsType() + " on a simulated drive with a volatile write cache";
    }

    /** A disk's work directory, in the temporary directory, under a name no one can guess before the disk makes it. */
    private static Path workDir() {
        // Not under /dev/shm: a program the test starts on the disk (SimulatedDisk.start) has a /dev/shm of its own.
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        return Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("flushcheck-powercut-" + HexFormat.of().formatHex(random));
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A file model's disk of {@code sizeMiB} (0: the block model's default for ext4, 256 MiB). */
    private static SimulatedDisk createFiles(SimulatedPowerLoss config, String annotation) {
        DiskRequirements.Lack lack = DiskRequirements.lacking(DiskModel.FILE, null);
        require(lack != DiskRequirements.Lack.FUSE_DEVICE, "/dev/fuse (the FUSE kernel module)", annotation);
        require(lack != DiskRequirements.Lack.FUSERMOUNT,
                "fusermount3 or fusermount to mount FUSE without root (apt-get install fuse3)", annotation);
        try {
            long size = config.sizeMiB() == 0 ? SimulatedDisk.defaultSizeBytes("ext4") : (long) config.sizeMiB() << 20;
            return SimulatedDisk.builder().model(DiskModel.FILE).sizeBytes(size).rules(config.rules()).create(workDir());
        } catch (IOException e) {
            throw new ExtensionConfigurationException("cannot make a simulated disk of the file model: " + e.getMessage(), e);
        }
    }

    private static SimulatedDisk createBlock(SimulatedPowerLoss config, String annotation) {
        long size = config.sizeMiB() == 0 ? SimulatedDisk.defaultSizeBytes(config.fs()) : (long) config.sizeMiB() << 20;
        if (size < SimulatedDisk.minimumSizeBytes(config.fs())) {
            throw new ExtensionConfigurationException("@SimulatedPowerLoss(fs = \"" + config.fs() + "\", sizeMiB = "
                    + config.sizeMiB() + "): " + Filesystems.tool(config.fs()) + " needs a drive of at least "
                    + (SimulatedDisk.minimumSizeBytes(config.fs()) + (1 << 20) - 1 >> 20) + " MiB");
        }
        if (!SimulatedDisk.validAtomicWriteBytes(config.atomicWriteBytes())) {
            throw new ExtensionConfigurationException("@SimulatedPowerLoss(atomicWriteBytes = " + config.atomicWriteBytes()
                    + "): a drive writes 512, 1024, 2048 or 4096 bytes atomically");
        }
        DiskRequirements.Lack lack = DiskRequirements.lacking(DiskModel.BLOCK, config.fs());
        require(lack != DiskRequirements.Lack.ROOT, "root (to mount a filesystem)", annotation);
        require(lack != DiskRequirements.Lack.FUSE_DEVICE, "/dev/fuse (the FUSE kernel module)", annotation);
        require(lack != DiskRequirements.Lack.MKFS, DiskRequirements.mkfs(config.fs()) + " (apt-get install "
                + DiskRequirements.mkfsPackage(config.fs()) + ")", annotation);
        Path work = workDir();
        try {
            return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(size).fs(config.fs())
                    .mkfsOptions(config.mkfsOptions()).directIo(config.directIo()).atomicWriteBytes(config.atomicWriteBytes())
                    .create(work);
        } catch (NoFreeLoopDeviceException e) {
            require(false, "a free loop device, and found " + e.getMessage(), annotation);
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new ExtensionConfigurationException("cannot make a simulated disk: " + e.getMessage(), e);
        }
    }

    /** Each cut as the test's message names it, with the call that repeats it. */
    static String describeCuts(SimulatedDisk disk) {
        List<String> cuts = new ArrayList<>();
        for (PowerCut c : disk.cuts()) {
            cuts.add(c + " (" + c.reproducedBy() + " repeats it)");
        }
        return String.join("; ", cuts);
    }

    /** {@code throwable} with {@code more} added to its message, where JUnit shows it. */
    static AssertionError withMessage(Throwable throwable, String more) {
        AssertionError e = new AssertionError((throwable.getMessage() == null ? throwable.toString() : throwable.getMessage())
                + "\n" + more, throwable);
        e.setStackTrace(throwable.getStackTrace());
        return e;
    }

    /** Removes the test's disk from {@code ns}, publishes its cuts and closes it: nothing stays mounted or attached. */
    static void release(ExtensionContext context, ExtensionContext.Namespace ns) {
        SimulatedDisk disk = context.getStore(ns).remove("disk", SimulatedDisk.class);
        if (disk == null) {
            return;
        }
        try {
            publishCuts(context, disk);
        } finally {
            disk.close();
        }
    }

    static void publishCuts(ExtensionContext context, SimulatedDisk disk) {
        List<PowerCut> cuts = disk.cuts();
        for (int i = 0; i < cuts.size(); i++) {
            context.publishReportEntry("flushcheck.powercut." + (i + 1), cuts.get(i).toString());
            List<String> discarded = cuts.get(i).discarded();
            if (!discarded.isEmpty()) {
                context.publishReportEntry("flushcheck.powercut." + (i + 1) + ".discarded",
                        AcknowledgedRecords.discardedSummary(discarded, 5));
            }
        }
    }

    private static void require(boolean ok, String what, String annotation) {
        if (ok) {
            return;
        }
        String message = annotation + " needs " + what;
        MissingTool missing;
        try {
            missing = MissingTool.current();
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(message + "; and " + e.getMessage());
        }
        if (missing == MissingTool.FAIL) {
            throw new ExtensionConfigurationException(message + " (" + missing + ")");
        }
        throw new TestAbortedException(message);
    }
}
