package io.flushcheck.sqlite;

import io.flushcheck.jupiter.FlushcheckConfig;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Measures SQLite's commit-rate matrix (journal mode × synchronous × fullfsync × rows per
 * transaction) in a directory before the test, publishes every cell as a report entry and
 * injects the result as an {@link io.flushcheck.sqlite.CommitMatrix} parameter. Needs
 * {@code org.xerial:sqlite-jdbc} on the test class path.
 *
 * <pre>{@code
 * @Test
 * @MeasureSqliteCommits(journalModes = JournalMode.WAL, synchronous = {Synchronous.NORMAL, Synchronous.FULL}, batches = {1, 100})
 * void walIsFastEnough(CommitMatrix m) {
 *     assertThat(m.require(JournalMode.WAL, Synchronous.FULL, false, 1).commitsPerSecond()).isGreaterThan(200);
 * }
 * }</pre>
 *
 * Each distinct configuration is measured once per run (cached in the root store), holding the
 * resource lock {@value FlushcheckConfig#DISK_LOCK} so that no other measurement runs meanwhile. An empty
 * attribute (the default) means "use the configuration parameter", whose default is given there.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(MeasureSqliteCommitsExtension.class)
@ResourceLock(FlushcheckConfig.DISK_LOCK)
public @interface MeasureSqliteCommits {

    /**
     * Directory the databases are created in; default: the general key {@value FlushcheckConfig#TARGET_KEY},
     * else the JVM temp dir ({@code java.io.tmpdir}).
     */
    String DIRECTORY_KEY = "flushcheck.sqlite.directory";
    /** Comma-separated journal modes when {@link #journalModes()} is empty; default {@code DELETE,WAL}. */
    String JOURNAL_MODES_KEY = "flushcheck.sqlite.journal-modes";
    /** Comma-separated synchronous levels when {@link #synchronous()} is empty; default {@code OFF,NORMAL,FULL,EXTRA}. */
    String SYNCHRONOUS_KEY = "flushcheck.sqlite.synchronous";
    /**
     * Comma-separated fullfsync values, booleans ({@code 0,1}, {@code off,on}: {@link io.flushcheck.Booleans}); default
     * {@code 0}: fullfsync only matters on macOS, so a
     * test measures it only when asked ({@code 0,1}).
     */
    String FULLFSYNC_KEY = "flushcheck.sqlite.fullfsync";
    /** Comma-separated rows per transaction when {@link #batches()} is empty; default {@code 1,1000}. */
    String BATCHES_KEY = "flushcheck.sqlite.batches";
    /** Rows per cell when {@link #rows()} is not set; default {@code 500}. */
    String ROWS_KEY = "flushcheck.sqlite.rows";
    /** Seconds after which a cell stops with what it has; default {@code 2}. */
    String MAX_CELL_SECONDS_KEY = "flushcheck.sqlite.max-cell-seconds";
    /** Seconds after which the remaining cells are skipped; default {@code 60}. */
    String MAX_SECONDS_KEY = "flushcheck.sqlite.max-seconds";

    /** Journal modes, in order; empty: {@value #JOURNAL_MODES_KEY}. */
    JournalMode[] journalModes() default {};

    /** Synchronous levels, in order; empty: {@value #SYNCHRONOUS_KEY}. */
    Synchronous[] synchronous() default {};

    /** Rows per transaction; empty: {@value #BATCHES_KEY}. */
    int[] batches() default {};

    /** Rows per cell (batched cells run at least 10 commits); -1: {@value #ROWS_KEY}. */
    int rows() default -1;
}
