package io.flushcheck.jupiter;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import org.apiguardian.api.API;

/**
 * What {@link MeasureSyncCost} measured; declare a parameter of this type to assert on it:
 * <pre>{@code
 * @Test @MeasureSyncCost(modes = SyncMode.OVERWRITE_FDATASYNC)
 * void commitLatency(SyncCostMeasurement m) {
 *     assertTrue(m.cost(SyncMode.OVERWRITE_FDATASYNC).p99Micros() < 10_000);
 * }
 * }</pre>
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class SyncCostMeasurement {

    private final CheckResult result;
    private final Path jsonReport;
    private final Path textReport;

    SyncCostMeasurement(CheckResult result, Path jsonReport, Path textReport) {
        this.result = result;
        this.jsonReport = jsonReport;
        this.textReport = textReport;
    }

    /** Verdict, findings, storage facts and every cost. */
    public CheckResult result() {
        return result;
    }

    public Verdict verdict() {
        return result.verdict();
    }

    public List<SyncCost> costs() {
        return result.costs();
    }

    /**
     * The cost of one mode, by its name ({@code "overwrite-fdatasync"}).
     *
     * @throws IllegalArgumentException when no mode has this name
     * @throws NoSuchElementException naming the measured modes when this one was not measured
     */
    public SyncCost cost(String mode) {
        return cost(SyncMode.parse(mode));
    }

    /**
     * The cost of one mode.
     *
     * @throws NoSuchElementException naming the measured modes when this one was not measured
     */
    public SyncCost cost(SyncMode mode) {
        return result.costs().stream().filter(c -> c.mode() == mode).findFirst()
                .orElseThrow(() -> new NoSuchElementException("mode " + mode + " was not measured; measured: "
                        + result.costs().stream().map(c -> c.mode().id()).toList()));
    }

    /** The JSON report written for this measurement. */
    public Path jsonReport() {
        return jsonReport;
    }

    /** The text report written for this measurement. */
    public Path textReport() {
        return textReport;
    }

    @Override
    public String toString() {
        return "SyncCostMeasurement[" + result.path() + ": " + result.verdict() + ", " + result.costs().size() + " modes]";
    }
}
