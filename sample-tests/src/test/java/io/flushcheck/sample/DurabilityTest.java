package io.flushcheck.sample;

import io.flushcheck.jupiter.RequiresRealFlush;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Our own shorthand: a test whose claim is only meaningful where syncs reach a disk. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Test
@Tag("durability")
@RequiresRealFlush
@interface DurabilityTest {
}
