package io.flushcheck.verdict;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A verdict and the findings behind it, deciding ones first.
 *
 * @param verdict  the verdict
 * @param findings every finding, those that decided the verdict first
 */
@API(status = API.Status.STABLE, since = "0.1")
public record Judgement(Verdict verdict, List<Finding> findings) {

    public Judgement {
        findings = List.copyOf(findings);
    }

    /** Codes that explain an UNKNOWN verdict: what was missing. */
    private static final List<FindingCode> WHY_UNKNOWN = List.of(FindingCode.PROBE_FAILED, FindingCode.NATIVE_UNAVAILABLE,
            FindingCode.NO_DEVICE_COUNTERS, FindingCode.NO_DECIDING_MODE, FindingCode.UNSUPPORTED_OS,
            FindingCode.NETWORK_FILESYSTEM);

    /** The findings that decided the verdict; for UNKNOWN, what was missing first, then the rest. */
    public List<Finding> reasons() {
        List<Finding> decisive = new ArrayList<>();
        for (Finding f : findings) {
            if (f.code().effect() == verdict) {
                decisive.add(f);
            }
        }
        if (!decisive.isEmpty()) {
            return decisive;
        }
        List<Finding> ordered = new ArrayList<>();
        for (Finding f : findings) {
            if (WHY_UNKNOWN.contains(f.code())) {
                ordered.add(f);
            }
        }
        for (Finding f : findings) {
            if (!WHY_UNKNOWN.contains(f.code())) {
                ordered.add(f);
            }
        }
        return ordered;
    }

    /** The reasons as one line, for failure messages. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        for (Finding f : reasons()) {
            if (sb.length() > 0) {
                sb.append("; ");
            }
            sb.append(f.message());
        }
        return sb.toString();
    }

    public boolean has(FindingCode code) {
        for (Finding f : findings) {
            if (f.code() == code) {
                return true;
            }
        }
        return false;
    }
}
