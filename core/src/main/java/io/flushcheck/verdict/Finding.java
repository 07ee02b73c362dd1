package io.flushcheck.verdict;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * One reason behind a verdict.
 *
 * @param code     stable code
 * @param message  one sentence with its evidence ("/dev/shm is on tmpfs (mount 30): syncs reach no device")
 * @param evidence the raw figures behind the sentence, by name
 */
@API(status = API.Status.STABLE, since = "0.1")
public record Finding(FindingCode code, String message, Map<String, String> evidence) {

    public Finding {
        evidence = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(evidence));
    }

    public static Finding of(FindingCode code, String message) {
        return new Finding(code, message, Map.of());
    }

    /** Evidence in the order given (Map.of would scramble it in reports). */
    static Map<String, String> evidenceOf(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    @Override
    public String toString() {
        return code + ": " + message;
    }
}
