package io.flushcheck.jupiter;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test only where syncs reach a device: before the test (once per class when on the class)
 * the directory it writes to is judged, and a NO_REAL_FLUSH verdict fails it with the evidence
 * ("/tmp is on tmpfs (/tmp, mount 25): syncs reach no device").
 *
 * <p>The directories judged are {@link #path()} when given, else the test's {@code @TempDir} fields and
 * parameters, whatever factory made them, else the key {@value FlushcheckConfig#TARGET_KEY}, else the directory where the
 * JDK creates temp files ({@code java.io.tmpdir} as it was when the JVM started; a later change of the
 * property moves no temp file, and the message says so). A path that does not exist yet is judged by its
 * nearest existing ancestor. tmpfs and sync interposers (eatmydata) are
 * judged from the storage facts alone; anything else by a short probe that counts the flushes the device
 * completes. Each storage is probed once per run however many tests carry the annotation, and probes
 * never overlap when tests run in parallel.
 *
 * <p>Usable as a meta-annotation.
 */
@API(status = API.Status.STABLE, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RequiresRealFlushExtension.class)
public @interface RequiresRealFlush {

    /**
     * The directory to judge, instead of the test's {@code @TempDir} directories; empty means those, else the
     * key {@value FlushcheckConfig#TARGET_KEY}, else the JDK's temp dir. It need not exist yet.
     */
    String path() default "";

    /** What NO_REAL_FLUSH does; {@code CONFIGURED} reads {@value FlushcheckConfig#ON_NO_REAL_FLUSH_KEY} (default fail). */
    FlushPolicy onNoRealFlush() default FlushPolicy.CONFIGURED;

    /** What UNKNOWN does; {@code CONFIGURED} reads {@value FlushcheckConfig#ON_UNKNOWN_KEY} (default warn). */
    FlushPolicy onUnknown() default FlushPolicy.CONFIGURED;
}
