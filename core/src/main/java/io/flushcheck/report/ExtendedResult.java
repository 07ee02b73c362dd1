package io.flushcheck.report;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A result element of the contract ({@link ResultData}, written by {@link ResultJson}) with a module's own
 * fields after the contract's: the components of {@code fields} on the result, and those of
 * {@code costFields.get(i)} on its i-th cost. For example the VM guests' {@code cacheMode} and their costs'
 * {@code hostFlushes}.
 *
 * @param costFields one record per cost, in the result's order, or empty for none
 */
@API(status = API.Status.INTERNAL, since = "0.1.0")
public record ExtendedResult(ResultData result, Record fields, List<? extends Record> costFields) {

    public ExtendedResult {
        costFields = List.copyOf(costFields);
        if (!costFields.isEmpty() && costFields.size() != result.costs().size()) {
            throw new IllegalArgumentException(costFields.size() + " cost field records for " + result.costs().size()
                    + " costs");
        }
    }
}
