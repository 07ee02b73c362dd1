package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/** The extension behind {@link SimulatedPowerLoss}. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SimulatedPowerLossExtension implements ParameterResolver, AfterEachCallback, TestExecutionExceptionHandler {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(SimulatedPowerLossExtension.class);
    private static final AtomicInteger DISKS = new AtomicInteger();

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SimulatedDisk.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NS).getOrComputeIfAbsent("disk", k -> create(context), SimulatedDisk.class);
    }

    private static SimulatedDisk create(ExtensionContext context) {
        SimulatedPowerLoss config = AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), SimulatedPowerLoss.class)
                .or(() -> AnnotationSupport.findAnnotation(context.getRequiredTestClass(), SimulatedPowerLoss.class))
                .orElseThrow(() -> new ExtensionConfigurationException("a SimulatedDisk parameter needs @SimulatedPowerLoss"));
        if (config.sizeMiB() < 16) {
            throw new ExtensionConfigurationException("@SimulatedPowerLoss(sizeMiB = " + config.sizeMiB()
                    + "): a drive needs at least 16 MiB for " + config.fs());
        }
        require(isRoot(), "root (to mount a filesystem)");
        require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse (the FUSE kernel module)");
        // Images and survivors in memory where there is a tmpfs for it: they need no durability.
        Path base = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
        Path work = base.resolve("flushcheck-powercut-" + ProcessHandle.current().pid() + "-" + DISKS.incrementAndGet());
        try {
            return SimulatedDisk.create(work, (long) config.sizeMiB() << 20, config.fs(), List.of(config.mkfsOptions()));
        } catch (IOException e) {
            throw new ExtensionConfigurationException("cannot make a simulated disk: " + e.getMessage(), e);
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        SimulatedDisk disk = context.getStore(NS).get("disk", SimulatedDisk.class);
        if (disk == null || disk.cuts().isEmpty() || throwable instanceof TestAbortedException) {
            throw throwable;
        }
        List<String> cuts = new ArrayList<>();
        for (PowerCut c : disk.cuts()) {
            cuts.add(c + " (" + c.reproducedBy() + " repeats it)");
        }
        AssertionError withCuts = new AssertionError(throwable.getMessage() + "\npower cuts in this test: "
                + String.join("; ", cuts), throwable);
        withCuts.setStackTrace(throwable.getStackTrace());
        throw withCuts;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        SimulatedDisk disk = context.getStore(NS).remove("disk", SimulatedDisk.class);
        if (disk == null) {
            return;
        }
        try {
            List<PowerCut> cuts = disk.cuts();
            for (int i = 0; i < cuts.size(); i++) {
                context.publishReportEntry("flushcheck.powercut." + (i + 1), cuts.get(i).toString());
            }
        } finally {
            disk.close();
        }
    }

    private static void require(boolean ok, String what) {
        if (ok) {
            return;
        }
        String message = "@SimulatedPowerLoss needs " + what;
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new ExtensionConfigurationException(message + ", and CI=true does not skip");
        }
        throw new TestAbortedException(message);
    }

    private static boolean isRoot() {
        try {
            return "0".equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid").toString());
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
