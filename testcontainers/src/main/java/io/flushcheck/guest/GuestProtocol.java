package io.flushcheck.guest;

import io.flushcheck.report.Json;
import io.flushcheck.report.JsonInput;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.ResultJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The document {@link GuestMain} writes in an environment and {@link GuestRunner} reads back on the host,
 * both directions here:
 *
 * <pre>{@code
 * {"environment": "debian-bookworm-jre17/tmpfs", "dataDir": "/data", "java": "17.0.15",
 *  "results": [ ...ResultJson elements, each with "environment"... ],
 *  "tests": [{"id","class","displayName","status","message","durationMillis"}],
 *  "summary": {"tests": 3, "successful": 2, "failed": 1, "aborted": 0, "skipped": 0},
 *  "errors": ["..."]}
 * }</pre>
 *
 * @param results the probe's results (empty when no probe was asked for)
 * @param errors  what went wrong around the tests (a probe or launcher failure)
 */
record GuestProtocol(String environment, String dataDir, String java, List<ResultData> results, List<TestOutcome> tests,
                     List<String> errors) {

    GuestProtocol {
        results = List.copyOf(results);
        tests = List.copyOf(tests);
        errors = List.copyOf(errors);
    }

    String json() {
        return Json.write(new Document(environment, dataDir, java, results, tests, Summary.of(tests), errors));
    }

    // The two records below are public, in a package-private type, only so that core's JSON writer may read their
    // components: each component is a field of the document, in this order.

    /** The document as written: this protocol's components, with the tests' {@link Summary} before the errors. */
    public record Document(String environment, String dataDir, String java, List<ResultData> results,
                           List<TestOutcome> tests, Summary summary, List<String> errors) {
    }

    /** How many tests ended each way ({@link TestOutcome.Status}). */
    public record Summary(long tests, long successful, long failed, long aborted, long skipped) {

        static Summary of(List<TestOutcome> tests) {
            return new Summary(tests.size(), count(tests, TestOutcome.Status.SUCCESSFUL),
                    count(tests, TestOutcome.Status.FAILED), count(tests, TestOutcome.Status.ABORTED),
                    count(tests, TestOutcome.Status.SKIPPED));
        }
    }

    static long count(List<TestOutcome> tests, TestOutcome.Status status) {
        long n = 0;
        for (TestOutcome t : tests) {
            if (t.status() == status) {
                n++;
            }
        }
        return n;
    }

    /** @throws IllegalArgumentException when the text is not such a document */
    static GuestProtocol parse(String json) {
        Map<String, Object> doc = JsonInput.parseObject(json);
        List<ResultData> results = new ArrayList<>();
        for (Object o : JsonInput.list(doc, "results")) {
            results.add(ResultJson.read(o));
        }
        List<TestOutcome> tests = new ArrayList<>();
        for (Object o : JsonInput.list(doc, "tests")) {
            Map<String, Object> t = JsonInput.object(o, "a test outcome");
            TestOutcome.Status status = JsonInput.constant(t, "status", TestOutcome.Status.class);
            if (status == null) {
                throw new IllegalArgumentException("a test outcome without a status: " + t.keySet());
            }
            tests.add(new TestOutcome(JsonInput.string(t, "id"), JsonInput.string(t, "class"),
                    JsonInput.string(t, "displayName"), status, JsonInput.string(t, "message"),
                    JsonInput.longValue(t, "durationMillis", 0)));
        }
        List<String> errors = new ArrayList<>();
        for (Object o : JsonInput.list(doc, "errors")) {
            errors.add(String.valueOf(o));
        }
        return new GuestProtocol(JsonInput.string(doc, "environment"), JsonInput.string(doc, "dataDir"),
                JsonInput.string(doc, "java"), results, tests, errors);
    }
}
