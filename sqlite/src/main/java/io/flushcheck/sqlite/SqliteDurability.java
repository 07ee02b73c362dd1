package io.flushcheck.sqlite;

import io.flushcheck.text.Escape;
import java.sql.Connection;
import org.apiguardian.api.API;

/**
 * Assertions for tests (no test framework needed: failures are {@link AssertionError}s, which every
 * framework reports as failures).
 *
 * <pre>{@code
 * try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
 *     c.createStatement().execute("PRAGMA journal_mode=WAL");
 *     c.createStatement().execute("PRAGMA synchronous=FULL");
 *     SqliteDurability.assertPowerLossDurable(c);
 * }
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SqliteDurability {

    private SqliteDurability() {
    }

    /** The audit of a live connection and its directory. */
    public static DurabilityAudit audit(Connection connection) {
        return SqliteAuditor.audit(connection);
    }

    /**
     * Passes when the connection's committed transactions survive a power loss: durable settings per
     * SQLite's documentation, on a directory whose syncs reach a device.
     *
     * @return the audit, for further assertions
     * @throws AssertionError with the audit's reasons otherwise
     */
    public static DurabilityAudit assertPowerLossDurable(Connection connection) {
        DurabilityAudit a = audit(connection);
        if (!a.powerLossDurable()) {
            StringBuilder sb = new StringBuilder("the " + a.source() + " is not power-loss durable: "
                    + a.powerLoss().survival() + ": " + a.powerLoss().reason());
            a.findings().stream().filter(f -> f.severity() == AuditFinding.Severity.ERROR)
                    .forEach(f -> sb.append("; ").append(f.message()));
            throw new AssertionError(Escape.of(sb.toString()));
        }
        return a;
    }

    /** Passes when an application crash keeps every committed transaction and cannot corrupt the database. */
    public static DurabilityAudit assertApplicationCrashSafe(Connection connection) {
        DurabilityAudit a = audit(connection);
        if (!a.applicationCrash().survives()) {
            throw new AssertionError(Escape.of("the " + a.source() + " does not survive an application crash: "
                    + a.applicationCrash().survival() + ": " + a.applicationCrash().reason()));
        }
        return a;
    }
}
