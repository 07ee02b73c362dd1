package io.flushcheck.powercut;

import org.apiguardian.api.API;

/**
 * The errors a simulated drive can fail a request with ({@link FaultPlan}): each is one the
 * Linux block layer has a status for (its {@code errno_to_blk_status} table), or {@link #EDQUOT}, which a
 * network or quota-enforcing store returns. What reaches the program is the kernel's business, and differs by
 * model and request: the block model's loop device reports every failed flush as EIO, whatever the drive said;
 * see the README's table of what each model passes up.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum Errno {
    /** Input/output error: what a disk returns for a failed flush or a bad sector. */
    EIO(5),
    /** No space left on device: a thin-provisioned volume out of space. */
    ENOSPC(28),
    /** Read-only file system. */
    EROFS(30),
    /** No data available: the block layer's status for a medium error. */
    ENODATA(61),
    /** Connection timed out: the block layer's status for a command that timed out. */
    ETIMEDOUT(110),
    /** Disk quota exceeded. */
    EDQUOT(122);

    private final int number;

    Errno(int number) {
        this.number = number;
    }

    /** Linux's number for it (x86-64 and arm64 agree). */
    public int number() {
        return number;
    }

    /** The errno of {@code number}, for one of these. */
    public static Errno of(int number) {
        for (Errno e : values()) {
            if (e.number == number) {
                return e;
            }
        }
        throw new IllegalArgumentException("not an errno a simulated drive returns: " + number);
    }
}
