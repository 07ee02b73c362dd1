package io.flushcheck.guest;

import io.flushcheck.report.ResultData;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What came back from one environment, as data.
 *
 * @param environment   where it ran
 * @param results       the probe's results, each with its {@code environment} (empty when no probe was asked
 *                      for)
 * @param tests         every test's outcome
 * @param errors        what went wrong around the tests (a probe or launcher failure, a missing result file)
 * @param exitCode      the in-guest JVM's exit code
 * @param log           the tail of the in-guest JVM's stdout and stderr
 * @param elapsedMillis the whole run, container start and image build included
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record GuestOutcome(GuestPlace environment, List<ResultData> results, List<TestOutcome> tests,
                           List<String> errors, int exitCode, String log, long elapsedMillis) {

    public GuestOutcome {
        results = List.copyOf(results);
        tests = List.copyOf(tests);
        errors = List.copyOf(errors);
    }

    public String name() {
        return environment.name();
    }

    public List<TestOutcome> failedTests() {
        return tests.stream().filter(TestOutcome::failed).toList();
    }

    public long count(TestOutcome.Status status) {
        return GuestProtocol.count(tests, status);
    }

    /** The probe's verdict, or null when no probe ran. */
    public Verdict verdict() {
        return results.isEmpty() ? null : results.get(0).verdict();
    }

    /** True when the environment ran and no test failed. */
    public boolean ok() {
        return errors.isEmpty() && exitCode == 0 && failedTests().isEmpty();
    }

    /** One paragraph naming the environment, what failed and why. */
    public String failureReason() {
        List<String> lines = new ArrayList<>();
        List<TestOutcome> failed = failedTests();
        if (!failed.isEmpty()) {
            lines.add(String.format("%s: %d of %d tests failed", name(), failed.size(), tests.size()));
            for (TestOutcome t : failed) {
                lines.add("  " + t.label() + ": " + firstLine(t.message()));
            }
        }
        if (exitCode != 0) {
            lines.add(name() + ": the in-guest JVM exited with " + exitCode);
        }
        for (String e : errors) {
            lines.add(name() + ": " + e);
        }
        if (lines.isEmpty()) {
            return name() + ": ok";
        }
        if ((exitCode != 0 || !errors.isEmpty()) && !log.isBlank()) {
            lines.add("  log:\n" + log.indent(4).stripTrailing());
        }
        return String.join("\n", lines);
    }

    /** One line: tests by status and the verdict. */
    public String summary() {
        return String.format("%s: %d tests, %d succeeded, %d failed, %d aborted, %d skipped%s (%.1f s)", name(),
                tests.size(), count(TestOutcome.Status.SUCCESSFUL), count(TestOutcome.Status.FAILED),
                count(TestOutcome.Status.ABORTED), count(TestOutcome.Status.SKIPPED),
                verdict() == null ? "" : ", verdict " + verdict(), elapsedMillis / 1000.0);
    }

    static String firstLine(String s) {
        if (s == null) {
            return "(no message)";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
