package io.flushcheck;

import io.flushcheck.probe.SyncCost;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Everything known about one directory.
 *
 * @param path          the directory as asked
 * @param facts         its storage facts, or null where they could not be inspected (non-Linux)
 * @param costs         the measured modes; empty when the verdict needed no probe or the probe failed
 * @param judgement     verdict and findings
 * @param elapsedMillis time from start to verdict, probes included
 */
@API(status = API.Status.STABLE, since = "0.1")
public record CheckResult(String path, StorageFacts facts, List<SyncCost> costs, Judgement judgement, long elapsedMillis) {

    public CheckResult {
        costs = List.copyOf(costs);
    }

    public Verdict verdict() {
        return judgement.verdict();
    }
}
