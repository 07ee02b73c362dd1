package io.flushcheck.powercut;

import java.util.List;

/** What a workload did after the power went, which a real cut would have prevented: the text of a report entry. */
final class AfterPowerCut {

    private AfterPowerCut() {
    }

    /** The acknowledgements and the throw after the power went, in a sentence; null when there were none. */
    static String describe(List<AcknowledgedRecords> records) {
        int acknowledged = 0;
        Throwable thrown = null;
        for (AcknowledgedRecords r : records) {
            acknowledged += r.afterPowerCut().size();
            thrown = thrown != null ? thrown : r.thrownAfterPowerCut();
        }
        if (acknowledged == 0 && thrown == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder("after the power went, the workload ");
        if (acknowledged > 0) {
            sb.append("acknowledged ").append(acknowledged).append(acknowledged == 1 ? " record" : " records")
                    .append(", not counted");
        }
        if (thrown != null) {
            sb.append(acknowledged > 0 ? ", and " : "").append("threw ").append(thrown)
                    .append(", which ended it as the cut would have");
        }
        if (acknowledged > 0) {
            sb.append(". A program that acknowledges once its syncs fail (as they do after a cut) loses those records"
                    + " with the power on too: @FailingSyncs tests that");
        }
        return sb.toString();
    }
}
