package io.flushcheck.powercut;

import io.flushcheck.JunitFloor;
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

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    public SimulatedPowerLossExtension() {
        JunitFloor.require(ExtensionContext.class, AnnotationSupport.class, ExtensionConfigurationException::new);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        // An invocation of @RepeatedPowerCut, @FailingSyncs or @CorruptedBlocks brings its own disk, configured by
        // this annotation.
        return parameter.getParameter().getType() == SimulatedDisk.class
                && context.getTestMethod().map(m -> DiskInvocation.TEMPLATES.stream()
                        .noneMatch(t -> AnnotationSupport.isAnnotated(m, t))).orElse(true);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NS).getOrComputeIfAbsent("disk", k -> Disks.create(Disks.config(context), "@SimulatedPowerLoss", context),
                SimulatedDisk.class);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        SimulatedDisk disk = context.getStore(NS).get("disk", SimulatedDisk.class);
        if (disk == null || disk.cuts().isEmpty() || throwable instanceof TestAbortedException) {
            throw throwable;
        }
        throw Disks.withMessage(throwable, "power cuts in this test: " + Disks.describeCuts(disk));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Disks.release(context, NS);
    }
}
