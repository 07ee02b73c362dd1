package io.flushcheck.cli.common;

import io.flushcheck.probe.SyncMode;
import java.util.List;
import org.apiguardian.api.API;
import picocli.CommandLine.Option;

/** {@code --modes} and {@code --rounds}: what a probe runs, in every command that probes. Unset: the command's default. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PlanOptions {

    @Option(names = "--modes", paramLabel = "a,b,...",
            description = "sync modes, comma-separated (default: every mode of this OS; guests: the Linux modes)")
    public String modes;

    @Option(names = "--rounds", paramLabel = "N", converter = Converters.Rounds.class,
            description = "rounds per mode (default: 1000; guests: 200)")
    public Integer rounds;

    public List<SyncMode> modes(List<SyncMode> fallback) throws UsageException {
        return modes(modes, fallback);
    }

    /** The sync modes a {@code --modes} value {@code list} names, {@code fallback} when it is null. */
    public static List<SyncMode> modes(String list, List<SyncMode> fallback) throws UsageException {
        if (list == null) {
            return fallback;
        }
        try {
            return SyncMode.parseList(list);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--modes: " + e.getMessage());
        }
    }

    public int rounds(int fallback) {
        return rounds == null ? fallback : rounds;
    }
}
