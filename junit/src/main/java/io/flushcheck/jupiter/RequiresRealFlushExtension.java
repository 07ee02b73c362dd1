package io.flushcheck.jupiter;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.JunitFloor;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Verdict;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/**
 * Judges the directories a test writes to before it runs. Where the test gets {@code @TempDir}
 * directories, those are judged, as each invocation receives them; otherwise the configured directory,
 * once in {@code beforeAll} when the annotation is on the class (or an enclosing class).
 *
 * <p>A class-level skip aborts each test with the reason rather than the class: build tools such as
 * Maven Surefire count and show skipped tests, not skipped classes.
 */
class RequiresRealFlushExtension implements BeforeAllCallback, BeforeEachCallback, InvocationInterceptor {

    static final String NAME = "@RequiresRealFlush";
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RequiresRealFlushExtension.class);
    private static final String SKIP_REASON = "skip reason";
    private static final Set<String> ANNOUNCED_SKIPS = ConcurrentHashMap.newKeySet();

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    RequiresRealFlushExtension() {
        JunitFloor.require(ExtensionContext.class, AnnotationSupport.class, ExtensionConfigurationException::new);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        Optional<RequiresRealFlush> onClass = findOnClass(testClass);
        if (onClass.isEmpty() || TempDirs.declared(testClass)) {
            return; // judged per invocation, with the directories it gets
        }
        Plan plan = Run.of(context).plan(context, onClass.get());
        String skip = enforce(context, onClass.get(), plan.configured(), plan);
        if (skip != null) {
            context.getStore(NAMESPACE).put(SKIP_REASON, skip);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        for (Optional<ExtensionContext> c = context.getParent(); c.isPresent(); c = c.get().getParent()) {
            String reason = c.get().getStore(NAMESPACE).get(SKIP_REASON, String.class);
            if (reason != null) {
                throw new TestAbortedException(reason);
            }
        }
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                    ExtensionContext extensionContext) throws Throwable {
        judgeInvocation(invocation, invocationContext, extensionContext);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                            ExtensionContext extensionContext) throws Throwable {
        judgeInvocation(invocation, invocationContext, extensionContext);
    }

    private static void judgeInvocation(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                        ExtensionContext context) throws Throwable {
        Method method = invocationContext.getExecutable();
        Run run = Run.of(context);
        Optional<RequiresRealFlush> annotation = run.onMethod(method);
        if (annotation.isEmpty() && TempDirs.declared(context.getRequiredTestClass())) {
            annotation = findOnClass(context.getRequiredTestClass());
        }
        if (annotation.isEmpty()) {
            invocation.proceed();
            return;
        }
        try {
            Plan plan = run.plan(context, annotation.get());
            // An explicit path is what the user asked to judge; else the @TempDir directories, else the default.
            List<JudgedDir> dirs = annotation.get().path().isBlank() ? TempDirs.of(invocationContext, context) : List.of();
            if (dirs.isEmpty()) {
                dirs = List.of(plan.configured());
            }
            for (JudgedDir dir : dirs) {
                String skip = enforce(context, annotation.get(), dir, plan);
                if (skip != null) {
                    throw new TestAbortedException(skip);
                }
            }
        } catch (Throwable t) {
            invocation.skip();
            throw t;
        }
        invocation.proceed();
    }

    /**
     * What an annotation asks in this run: its policies, options and configured directory. Read once per
     * annotation and run, so that the thousandth annotated test pays for a map lookup.
     */
    private record Plan(FlushPolicy onNo, FlushPolicy onUnknown, CheckOptions options, JudgedDir configured) {
    }

    /**
     * What one run has found out: the annotation of each test method, and the plan of each annotation. JUnit's
     * annotation search walks a method's annotations and their meta-annotations on every call, and a parameterized
     * or repeated test would ask once per invocation. Plans are found first by annotation instance: the JVM hands out
     * one instance per annotated element, so an identity lookup finds it without the annotation's own
     * {@code hashCode}, which reads every attribute reflectively; an instance not seen yet (a thousand annotated
     * methods are a thousand instances) finds its plan by value, so equal annotations share one.
     * Held in the root store (made there by JUnit, so no lambda class is loaded), so nothing outlives the run.
     */
    private static final class Run {
        private final Map<Method, Optional<RequiresRealFlush>> onMethods = new ConcurrentHashMap<>();
        private final Map<RequiresRealFlush, Plan> byInstance = Collections.synchronizedMap(new IdentityHashMap<>());
        private final Map<RequiresRealFlush, Plan> byValue = new ConcurrentHashMap<>();

        static Run of(ExtensionContext context) {
            return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Run.class);
        }

        Optional<RequiresRealFlush> onMethod(Method method) {
            Optional<RequiresRealFlush> a = onMethods.get(method);
            if (a == null) {
                a = AnnotationSupport.findAnnotation(method, RequiresRealFlush.class);
                onMethods.put(method, a);
            }
            return a;
        }

        Plan plan(ExtensionContext context, RequiresRealFlush annotation) {
            Plan plan = byInstance.get(annotation);
            if (plan == null) {
                plan = byValue.get(annotation);
                if (plan == null) {
                    plan = plan(new ConfigReader(context), annotation);
                    byValue.put(annotation, plan);
                }
                byInstance.put(annotation, plan);
            }
            return plan;
        }

        private static Plan plan(ConfigReader settings, RequiresRealFlush annotation) {
            // Both policies first: a bad value is a configuration error wherever the test runs.
            FlushPolicy onNo = settings.policy(annotation.onNoRealFlush(), FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, FlushPolicy.FAIL);
            FlushPolicy onUnknown = settings.policy(annotation.onUnknown(), FlushcheckConfig.ON_UNKNOWN_KEY, FlushPolicy.WARN);
            CheckOptions options = new CheckOptions(settings.verificationPlan(), settings.thresholds(), false, true);
            return new Plan(onNo, onUnknown, options, Targets.configured(settings, annotation.path(), NAME));
        }
    }

    /** On the class, a superclass (inherited) or a class enclosing a {@code @Nested} one. */
    static <A extends java.lang.annotation.Annotation> Optional<A> findOnClass(Class<?> testClass, Class<A> type) {
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            Optional<A> a = AnnotationSupport.findAnnotation(c, type);
            if (a.isPresent()) {
                return a;
            }
        }
        return Optional.empty();
    }

    private static Optional<RequiresRealFlush> findOnClass(Class<?> testClass) {
        return findOnClass(testClass, RequiresRealFlush.class);
    }

    /**
     * Judges one directory: returns normally on REAL_FLUSH and on warn, throws on fail, and returns the
     * skip reason on skip (a class-level skip is applied to each test).
     */
    private static String enforce(ExtensionContext context, RequiresRealFlush annotation, JudgedDir dir, Plan plan) {
        FlushPolicy onNo = plan.onNo();
        FlushPolicy onUnknown = plan.onUnknown();
        CheckResult result = CheckCache.check(context, dir.judged(), plan.options(), NAME);
        Verdict verdict = result.verdict();
        VerdictEntries.publish(context, dir, verdict);
        if (verdict == Verdict.REAL_FLUSH) {
            return null;
        }
        boolean no = verdict == Verdict.NO_REAL_FLUSH;
        FlushPolicy attribute = no ? annotation.onNoRealFlush() : annotation.onUnknown();
        String key = no ? FlushcheckConfig.ON_NO_REAL_FLUSH_KEY : FlushcheckConfig.ON_UNKNOWN_KEY;
        FlushPolicy policy = no ? onNo : onUnknown;
        // The message names the setting that chose the policy: the attribute when set, else the key.
        String setting = attribute != FlushPolicy.CONFIGURED
                ? NAME + "(" + (no ? "onNoRealFlush" : "onUnknown") + " = " + attribute + ")"
                : key + "=" + policy.name().toLowerCase(java.util.Locale.ROOT);
        String message = message(dir, result, setting, policy);
        switch (policy) {
            case FAIL -> throw new NoRealFlushError(message, result);
            case SKIP -> {
                String where = context.getRequiredTestClass().getName();
                if (ANNOUNCED_SKIPS.add(where + "\0" + message)) {
                    System.err.println("flushcheck: skipping tests of " + where + ": " + message);
                }
                return message;
            }
            default -> {
                context.publishReportEntry("flushcheck.warning", message);
                System.err.println("flushcheck: warning: " + message);
                return null;
            }
        }
    }

    /** The verdict, its evidence, and what the user can do about it (fail) or why it was skipped (skip). */
    static String message(JudgedDir dir, CheckResult result, String setting, FlushPolicy policy) {
        return message(NAME, dir, result, setting, policy);
    }

    static String message(String what, JudgedDir dir, CheckResult result, String setting, FlushPolicy policy) {
        // Escaped: the message reaches terminals and XML reports, whatever the directory's name holds.
        StringBuilder text = new StringBuilder(what).append(": ").append(dir.subject()).append(" is ")
                .append(result.verdict()).append(": ").append(Escape.of(result.judgement().summary()));
        for (String note : dir.notes()) {
            text.append("; ").append(note);
        }
        if (policy == FlushPolicy.WARN) {
            return text.toString();
        }
        if (policy == FlushPolicy.SKIP) {
            return text.append(" (skipped, as ").append(setting).append(" asks)").toString();
        }
        String relax = setting.startsWith("@") ? "change " + setting + " to skip or warn"
                : "set " + setting.substring(0, setting.indexOf('=')) + "=skip or warn";
        if (result.verdict() == Verdict.UNKNOWN) {
            return text + " (the evidence here decides nothing; " + relax + " where that is acceptable)";
        }
        String fix = Remedies.of(result.judgement(), dir.advice());
        return text + " (" + fix + ", or " + relax + " where that is acceptable)";
    }
}
