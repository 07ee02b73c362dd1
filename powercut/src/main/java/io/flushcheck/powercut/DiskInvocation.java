package io.flushcheck.powercut;

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

/**
 * One invocation of a test template that runs its test method's workload on a fresh {@link SimulatedDisk}
 * ({@code @RepeatedPowerCut}, {@code @FailingSyncs}): resolves the disk parameter, refuses a method without
 * one, hands the disk to {@link #intercept}, and releases it after the test.
 */
abstract class DiskInvocation implements TestTemplateInvocationContext, ParameterResolver, InvocationInterceptor,
        AfterEachCallback {

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
        intercept(invocation, disk, context);
    }

    /** What running the test method threw, or null. */
    static Throwable proceed(Invocation<Void> invocation) {
        try {
            invocation.proceed();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Runs the test method ({@link #proceed}) with its workload on {@code disk}, armed as this invocation says. */
    abstract void intercept(Invocation<Void> invocation, SimulatedDisk disk, ExtensionContext context) throws Throwable;

    @Override
    public void afterEach(ExtensionContext context) {
        Disks.release(context, namespace);
    }
}
