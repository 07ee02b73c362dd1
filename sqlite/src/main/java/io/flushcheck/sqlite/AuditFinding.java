package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/**
 * Something an audit found beside its two answers.
 *
 * @param severity ERROR (the configuration is wrong for where it runs), WARNING or INFO
 * @param code     stable code
 * @param message  one sentence
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record AuditFinding(Severity severity, String code, String message) {

    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public enum Severity { ERROR, WARNING, INFO }

    @Override
    public String toString() {
        return severity + " " + code + ": " + message;
    }
}
