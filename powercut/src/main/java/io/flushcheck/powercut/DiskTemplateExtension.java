package io.flushcheck.powercut;

import io.flushcheck.JunitFloor;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * What the extensions behind the test templates whose invocations bring their own disk share
 * ({@link DiskInvocation#TEMPLATES}): each refuses a JUnit older than flushcheck supports when JUnit makes it, takes
 * the test methods that carry its annotation, and makes their invocations from that annotation ({@link #invocations}).
 *
 * @param <A> the annotation, as {@link RepeatedPowerCut}
 */
abstract class DiskTemplateExtension<A extends Annotation> implements TestTemplateInvocationContextProvider {

    private final Class<A> annotation;

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    DiskTemplateExtension(Class<A> annotation) {
        JunitFloor.require(ExtensionContext.class, AnnotationSupport.class, ExtensionConfigurationException::new);
        this.annotation = annotation;
    }

    @Override
    public final boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, annotation)).orElse(false);
    }

    @Override
    public final Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        return invocations(context, method, AnnotationSupport.findAnnotation(method, annotation).orElseThrow());
    }

    /** The invocations of {@code method}, as its annotation {@code config} says; refused with an ExtensionConfigurationException. */
    abstract Stream<TestTemplateInvocationContext> invocations(ExtensionContext context, Method method, A config);
}
