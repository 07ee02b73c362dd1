package io.flushcheck.powercut;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * One invocation of a test template that runs its test method's workload on a fresh {@link SimulatedDisk}
 * ({@code @RepeatedPowerCut}, {@code @FailingSyncs}): resolves the disk parameter, refuses a method without
 * one, arms the disk ({@link #arm}), runs the test method, hands what happened to {@link #ran}, and releases
 * the disk after the test.
 */
abstract class DiskInvocation implements TestTemplateInvocationContext, ParameterResolver, InvocationInterceptor,
        AfterEachCallback {

    /** The test templates whose invocations bring their own disk: a method with one of them takes no other. */
    static final List<Class<? extends Annotation>> TEMPLATES = List.of(RepeatedPowerCut.class, FailingSyncs.class,
            CorruptedBlocks.class);

    private final ExtensionContext.Namespace namespace;
    private final String annotation;
    private final String purpose;

    /**
     * @param annotation how the annotation is named in messages ({@code @RepeatedPowerCut})
     * @param purpose    what the disk is for, after "to run its workload on" in the message for a method without one
     */
    DiskInvocation(ExtensionContext.Namespace namespace, String annotation, String purpose) {
        this.namespace = namespace;
        this.annotation = annotation;
        this.purpose = purpose;
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
        return List.of(this);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SimulatedDisk.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(namespace).getOrComputeIfAbsent("disk",
                k -> Disks.create(Disks.config(context), annotation, context), SimulatedDisk.class);
    }

    @Override
    public final void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                                  ExtensionContext context) throws Throwable {
        SimulatedDisk disk = context.getStore(namespace).get("disk", SimulatedDisk.class);
        if (disk == null) {
            invocation.skip();
            throw new ExtensionConfigurationException(annotation + " on " + context.getRequiredTestMethod().getName()
                    + ": the test method needs a SimulatedDisk parameter, to run its workload on" + purpose);
        }
        long base = disk.flushes();
        try {
            arm(disk, base);
        } catch (TestAbortedException e) {
            invocation.skip(); // what the invocation was to do cannot be done on this disk: the workload does not run
            throw e;
        }
        Throwable failure = proceed(invocation);
        ran(disk, base, failure, disk.cuts(), context);
    }

    /** What running the test method threw, or null. */
    private static Throwable proceed(Invocation<Void> invocation) {
        try {
            invocation.proceed();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /**
     * Arms {@code disk} as this invocation says, before the test method runs; its drive has made {@code base} flushes.
     * A {@link TestAbortedException} aborts the invocation without running the test method.
     */
    abstract void arm(SimulatedDisk disk, long base);

    /**
     * Reports how the test method ran its workload on {@code disk} and throws what that comes to: the
     * method's {@code failure} (or null) with where it happened, {@code cuts} the disk's cuts once it ended,
     * {@code base} its drive's flushes before it began.
     */
    abstract void ran(SimulatedDisk disk, long base, Throwable failure, List<PowerCut> cuts, ExtensionContext context)
            throws Throwable;

    @Override
    public void afterEach(ExtensionContext context) {
        Disks.release(context, namespace);
    }
}
