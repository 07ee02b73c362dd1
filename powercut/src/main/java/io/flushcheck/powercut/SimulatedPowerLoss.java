package io.flushcheck.powercut;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Gives each test a fresh {@link SimulatedDisk} parameter: a real filesystem on a drive whose power the
 * test cuts. Each cut is published as a report entry, and a failing test's message names the cuts it
 * made and the call that repeats each. Needs root, {@code /dev/fuse} and a free loop device: without
 * them the test is skipped with the reason, or fails where {@code CI=true}. Tests using it run one at a
 * time (resource lock {@value #LOCK}). Usable on a class, a method, or another annotation.
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(SimulatedPowerLossExtension.class)
@ResourceLock(SimulatedPowerLoss.LOCK)
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public @interface SimulatedPowerLoss {

    /** The resource lock every simulated disk holds: loop devices and mounts are few. */
    String LOCK = "io.flushcheck.powercut";

    /** The filesystem made on the drive: {@code ext4}, or {@code xfs}, {@code btrfs} where their mkfs is installed. */
    String fs() default "ext4";

    /** The drive's size in MiB. */
    int sizeMiB() default 256;

    /** Options for mkfs, before the device. */
    String[] mkfsOptions() default {};
}
