package io.flushcheck.cli.probe;

import io.flushcheck.cli.common.Converters;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.verdict.Thresholds;
import org.apiguardian.api.API;
import picocli.CommandLine.Option;

/** {@code --min-flushes-per-sync} and {@code --suspicious-micros}, validated by {@link Thresholds}. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ThresholdOptions {

    @Option(names = "--min-flushes-per-sync", paramLabel = "X", converter = Converters.MinFlushes.class,
            description = "flushes per sync a device must show (default 0.5)")
    public Double minFlushesPerSync;

    @Option(names = "--suspicious-micros", paramLabel = "X", converter = Converters.SuspiciousMicros.class,
            description = "a median sync below this is too fast to be a flush (default 20)")
    public Double suspiciousMicros;

    Thresholds thresholds() throws UsageException {
        double min = minFlushesPerSync == null ? Thresholds.DEFAULT.minFlushesPerSync() : minFlushesPerSync;
        double fast = suspiciousMicros == null ? Thresholds.DEFAULT.suspiciousSyncMicros() : suspiciousMicros;
        try {
            return new Thresholds(Thresholds.checkMinFlushesPerSync("--min-flushes-per-sync " + min, min),
                    Thresholds.checkSuspiciousSyncMicros("--suspicious-micros " + fast, fast));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
