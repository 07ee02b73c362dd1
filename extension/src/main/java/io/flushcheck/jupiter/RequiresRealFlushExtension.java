package io.flushcheck.jupiter;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Verdict;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/**
 * Judges the test's directory before the test: once in {@code beforeAll} when the annotation is on the
 * class (or an enclosing class), and in {@code beforeEach} when it is on the method.
 */
class RequiresRealFlushExtension implements BeforeAllCallback, BeforeEachCallback {

    static final String NAME = "@RequiresRealFlush";

    @Override
    public void beforeAll(ExtensionContext context) {
        Optional<RequiresRealFlush> onClass = findOnClass(context.getRequiredTestClass());
        if (onClass.isPresent()) {
            enforce(context, onClass.get());
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Optional<RequiresRealFlush> onMethod = AnnotationSupport.findAnnotation(context.getRequiredTestMethod(),
                RequiresRealFlush.class);
        if (onMethod.isPresent()) {
            enforce(context, onMethod.get());
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

    private static void enforce(ExtensionContext context, RequiresRealFlush annotation) {
        Settings settings = new Settings(context);
        FlushPolicy onNo = settings.policy(annotation.onNoRealFlush(), FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, FlushPolicy.FAIL);
        FlushPolicy onUnknown = settings.policy(annotation.onUnknown(), FlushcheckConfig.ON_UNKNOWN_KEY, FlushPolicy.WARN);
        CheckResult result = CheckCache.check(context, settings.target(annotation.path(), NAME),
                new CheckOptions(settings.verificationPlan(), settings.thresholds(), false), NAME);
        Verdict verdict = result.verdict();
        context.publishReportEntry("flushcheck.verdict", result.path() + ": " + verdict);
        if (verdict == Verdict.REAL_FLUSH) {
            return;
        }
        FlushPolicy policy = verdict == Verdict.NO_REAL_FLUSH ? onNo : onUnknown;
        String key = verdict == Verdict.NO_REAL_FLUSH ? FlushcheckConfig.ON_NO_REAL_FLUSH_KEY : FlushcheckConfig.ON_UNKNOWN_KEY;
        String message = message(result, key, policy);
        switch (policy) {
            case FAIL -> throw new NoRealFlushError(message, result);
            case SKIP -> throw new TestAbortedException(message);
            default -> {
                context.publishReportEntry("flushcheck.warning", message);
                System.err.println("flushcheck: warning: " + message);
            }
        }
    }

    static String message(CheckResult result, String key, FlushPolicy policy) {
        String fix;
        if (result.verdict() != Verdict.NO_REAL_FLUSH) {
            fix = " (set " + key + "=fail to fail, skip to skip)";
        } else if (result.judgement().has(FindingCode.SYNC_INTERPOSER)) {
            fix = " (run the tests without the interposer: unset LD_PRELOAD, or set " + key + "=skip or warn where that is acceptable)";
        } else {
            fix = " (run on a disk directory: point java.io.tmpdir or " + FlushcheckConfig.TARGET_KEY
                    + " at one, or set " + key + "=skip or warn where that is acceptable)";
        }
        return NAME + ": " + result.path() + " is " + result.verdict() + ": " + result.judgement().summary()
                + (policy == FlushPolicy.FAIL || policy == FlushPolicy.SKIP ? fix : "");
    }
}
