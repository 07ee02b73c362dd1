package io.flushcheck.sqlite;

/**
 * Something an audit found beside its two answers.
 *
 * @param severity ERROR (the configuration is wrong for where it runs), WARNING or INFO
 * @param code     stable code
 * @param message  one sentence
 */
public record AuditFinding(Severity severity, String code, String message) {

    public enum Severity { ERROR, WARNING, INFO }

    @Override
    public String toString() {
        return severity + " " + code + ": " + message;
    }
}
