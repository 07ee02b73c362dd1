package io.flushcheck.verdict;

import java.util.List;

/**
 * A verdict and the findings behind it, deciding ones first.
 *
 * @param verdict  the verdict
 * @param findings every finding, those that decided the verdict first
 */
public record Judgement(Verdict verdict, List<Finding> findings) {

    public Judgement {
        findings = List.copyOf(findings);
    }

    /** The findings that decided the verdict (for UNKNOWN: the informative ones). */
    public List<Finding> reasons() {
        List<Finding> decisive = findings.stream().filter(f -> f.code().effect() == verdict).toList();
        return decisive.isEmpty() ? findings : decisive;
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
        return findings.stream().anyMatch(f -> f.code() == code);
    }
}
