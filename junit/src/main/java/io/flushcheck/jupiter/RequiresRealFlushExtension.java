package io.flushcheck.jupiter;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.report.Escape;
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
        // Both policies first: a bad value is a configuration error wherever the test runs.
        FlushPolicy onNo = settings.policy(annotation.onNoRealFlush(), FlushcheckConfig.ON_NO_REAL_FLUSH_KEY, FlushPolicy.FAIL);
        FlushPolicy onUnknown = settings.policy(annotation.onUnknown(), FlushcheckConfig.ON_UNKNOWN_KEY, FlushPolicy.WARN);
        CheckResult result = CheckCache.check(context, settings.target(annotation.path()),
                new CheckOptions(settings.verificationPlan(), settings.thresholds(), false), NAME);
        Verdict verdict = result.verdict();
        context.publishReportEntry("flushcheck.verdict", Escape.of(result.path()) + ": " + verdict);
        if (verdict == Verdict.REAL_FLUSH) {
            return;
        }
        boolean no = verdict == Verdict.NO_REAL_FLUSH;
        FlushPolicy attribute = no ? annotation.onNoRealFlush() : annotation.onUnknown();
        String key = no ? FlushcheckConfig.ON_NO_REAL_FLUSH_KEY : FlushcheckConfig.ON_UNKNOWN_KEY;
        FlushPolicy policy = no ? onNo : onUnknown;
        // Advice names the setting that chose the policy: the attribute when set, else the key.
        String setting = attribute != FlushPolicy.CONFIGURED
                ? NAME + "(" + (no ? "onNoRealFlush" : "onUnknown") + " = " + attribute + ")" : key;
        String message = message(result, setting, policy);
        switch (policy) {
            case FAIL -> throw new NoRealFlushError(message, result);
            case SKIP -> throw new TestAbortedException(message);
            default -> {
                context.publishReportEntry("flushcheck.warning", message);
                System.err.println("flushcheck: warning: " + message);
            }
        }
    }

    /** The verdict, its evidence, and (for fail and skip) what the user can do about it. */
    static String message(CheckResult result, String setting, FlushPolicy policy) {
        // Escaped: the message reaches terminals and XML reports, whatever the directory's name holds.
        String text = NAME + ": " + Escape.of(result.path()) + " is " + result.verdict() + ": "
                + Escape.of(result.judgement().summary());
        if (policy == FlushPolicy.WARN) {
            return text;
        }
        String other = policy == FlushPolicy.FAIL ? "skip or warn" : "fail or warn";
        String relax = setting.startsWith("@") ? "change " + setting + " to " + other : "set " + setting + "=" + other;
        if (result.verdict() == Verdict.UNKNOWN) {
            return text + " (the evidence here decides nothing; " + relax + " where that is acceptable)";
        }
        String fix = result.judgement().has(FindingCode.SYNC_INTERPOSER)
                ? "run the tests without the interposer (unset LD_PRELOAD)"
                : "run on a disk directory: point java.io.tmpdir or " + FlushcheckConfig.TARGET_KEY + " at one";
        return text + " (" + fix + ", or " + relax + " where that is acceptable)";
    }
}
