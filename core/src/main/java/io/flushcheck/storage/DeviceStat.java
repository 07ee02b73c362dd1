package io.flushcheck.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * The counters of {@code /sys/block/<dev>/stat} that tell whether syncs reached a device
 * (Documentation/block/stat.rst): field 7 is sectors written (512 bytes each, whatever the
 * device's sector size), field 16 completed flush requests (kernels since 5.5).
 *
 * @param writesCompleted field 5
 * @param sectorsWritten  field 7
 * @param flushes         field 16, or -1 when the kernel does not report flushes
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record DeviceStat(long writesCompleted, long sectorsWritten, long flushes) {

    public static DeviceStat parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 11) {
            throw new IllegalArgumentException("not a block device stat line (" + f.length + " fields): '"
                    + line.trim() + "'");
        }
        try {
            return new DeviceStat(Long.parseLong(f[4]), Long.parseLong(f[6]), f.length >= 17 ? Long.parseLong(f[15]) : -1);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a block device stat line: '" + line.trim() + "'", e);
        }
    }

    public static DeviceStat read(Path statFile) throws IOException {
        return parse(SysFiles.read(statFile));
    }

    public boolean countsFlushes() {
        return flushes >= 0;
    }

    /** What happened between {@code before} and this reading. */
    public DeviceStat minus(DeviceStat before) {
        return new DeviceStat(writesCompleted - before.writesCompleted, sectorsWritten - before.sectorsWritten,
                countsFlushes() && before.countsFlushes() ? flushes - before.flushes : -1);
    }

    public DeviceStat plus(DeviceStat other) {
        return new DeviceStat(writesCompleted + other.writesCompleted, sectorsWritten + other.sectorsWritten,
                countsFlushes() && other.countsFlushes() ? flushes + other.flushes : -1);
    }

    public long kibWritten() {
        return sectorsWritten / 2;
    }
}
