package io.flushcheck.cli.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * An environment that gave no result, as the {@code failures} of {@code guests --json} and {@code vm --json}.
 * Public only so that the JSON writer, in another module, can read its components.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record EnvironmentFailure(String environment, String reason) {

    /** One per entry of {@code failures} (environment to why), in its order. */
    public static List<EnvironmentFailure> of(Map<String, String> failures) {
        List<EnvironmentFailure> out = new ArrayList<>(failures.size());
        for (Map.Entry<String, String> f : failures.entrySet()) {
            out.add(new EnvironmentFailure(f.getKey(), f.getValue()));
        }
        return out;
    }
}
