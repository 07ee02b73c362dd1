package io.flushcheck.sqlite;

import io.flushcheck.BadPathException;
import io.flushcheck.Booleans;
import io.flushcheck.Flushcheck;
import io.flushcheck.JunitFloor;
import io.flushcheck.text.Escape;
import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** Runs the matrix of {@link MeasureSqliteCommits} once per configuration, reports it and injects it. */
final class MeasureSqliteCommitsExtension implements BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(MeasureSqliteCommitsExtension.class);
    private static final String ANNOTATION = "@" + MeasureSqliteCommits.class.getSimpleName();

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    MeasureSqliteCommitsExtension() {
        JunitFloor.require(ExtensionContext.class, AnnotationSupport.class, ExtensionConfigurationException::new);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        CommitMatrix m = matrix(context);
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("flushcheck.sqlite.directory", m.directory() + " (" + m.verdict() + ")");
        for (CommitCell c : m.cells()) {
            entries.put("flushcheck.sqlite." + c.label(), String.format(Locale.ROOT,
                    "%.0f rows/s, %.0f commits/s, %.2f flushes/commit, %.1f KiB/commit%s", c.rowsPerSecond(),
                    c.commitsPerSecond(), c.flushesPerCommit(), c.kibPerCommit(), c.truncated() ? " (time limit)" : ""));
        }
        for (String s : m.skipped()) {
            entries.put("flushcheck.sqlite." + s, "skipped: total time limit");
        }
        context.publishReportEntry(entries);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == CommitMatrix.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return matrix(extensionContext);
    }

    private static CommitMatrix matrix(ExtensionContext context) {
        MeasureSqliteCommits a = find(context).orElseThrow(() -> new ExtensionConfigurationException(
                ANNOTATION + " is not present on " + context.getDisplayName() + " or its class"));
        MatrixSettings settings = new MatrixSettings(context);
        MatrixOptions options = options(a, settings);
        String[] where = settings.directory();
        Path dir;
        try {
            dir = Flushcheck.pathOf(where[1]);
        } catch (BadPathException e) {
            throw new ExtensionConfigurationException(ANNOTATION + ": " + where[0] + ": " + Escape.of(e.getMessage()), e);
        }
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        String key = dir.toAbsolutePath() + " " + options;
        // CommitMatrix.run takes ProbeLock inside the computation, never around a store call, so a thread
        // waiting here for another's matrix holds no lock that the other needs.
        Function<String, CommitMatrix> run = k -> {
            try {
                return CommitMatrix.run(dir, options, MatrixListener.NONE);
            } catch (BadPathException e) {
                throw new ExtensionConfigurationException(ANNOTATION + ": " + where[0] + " = '" + Escape.of(where[1]) + "': "
                        + Escape.of(e.getMessage()), e);
            } catch (SqliteException e) {
                throw new ExtensionConfigurationException(ANNOTATION + ": " + Escape.of(e.getMessage()), e);
            }
        };
        return store.getOrComputeIfAbsent(key, run, CommitMatrix.class);
    }

    private static Optional<MeasureSqliteCommits> find(ExtensionContext context) {
        Optional<MeasureSqliteCommits> onMethod = context.getTestMethod()
                .flatMap(m -> AnnotationSupport.findAnnotation((AnnotatedElement) m, MeasureSqliteCommits.class));
        if (onMethod.isPresent()) {
            return onMethod;
        }
        for (Optional<Class<?>> c = context.getTestClass(); c.isPresent(); c = Optional.ofNullable(c.get().getEnclosingClass())) {
            Optional<MeasureSqliteCommits> found = AnnotationSupport.findAnnotation(c.get(), MeasureSqliteCommits.class);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    static MatrixOptions options(MeasureSqliteCommits a, MatrixSettings settings) {
        MatrixOptions o = MatrixOptions.defaults().withFullfsync(List.of(false)).withRows(500)
                .withMaxCellSeconds(2).withMaxTotalSeconds(60);
        try {
            o = o.withJournalModes(a.journalModes().length > 0 ? List.of(a.journalModes())
                    : settings.keyed(MeasureSqliteCommits.JOURNAL_MODES_KEY, JournalMode::parseList, o.journalModes()));
            o = o.withSynchronous(a.synchronous().length > 0 ? List.of(a.synchronous())
                    : settings.keyed(MeasureSqliteCommits.SYNCHRONOUS_KEY, Synchronous::parseList, o.synchronous()));
            o = o.withFullfsync(settings.keyed(MeasureSqliteCommits.FULLFSYNC_KEY, Booleans::parseList, o.fullfsync()));
            if (a.batches().length > 0) {
                List<Integer> b = new ArrayList<>();
                for (int x : a.batches()) {
                    if (x < 1 || x > MatrixOptions.MAX_BATCH) {
                        throw new ConfigError(ANNOTATION + "(batches = " + Arrays.toString(a.batches())
                                + "): batch " + x + " is out of range: use 1 to " + MatrixOptions.MAX_BATCH
                                + " rows per transaction");
                    }
                    b.add(x);
                }
                o = o.withBatches(b);
            } else {
                o = o.withBatches(settings.batches(o.batches()));
            }
            if (a.rows() != -1) {
                if (a.rows() < 1 || a.rows() > MatrixOptions.MAX_ROWS) {
                    throw new ConfigError(ANNOTATION + "(rows = " + a.rows() + "): " + a.rows() + " is out of range: use 1 to "
                            + MatrixOptions.MAX_ROWS + ", or leave rows out to use " + MeasureSqliteCommits.ROWS_KEY);
                }
                o = o.withRows(a.rows());
            } else {
                o = o.withRows(settings.intValue(MeasureSqliteCommits.ROWS_KEY, o.rows(), 1, MatrixOptions.MAX_ROWS));
            }
            o = o.withMaxCellSeconds(settings.seconds(MeasureSqliteCommits.MAX_CELL_SECONDS_KEY, o.maxCellSeconds()));
            o = o.withMaxTotalSeconds(settings.seconds(MeasureSqliteCommits.MAX_SECONDS_KEY, o.maxTotalSeconds()));
        } catch (ConfigError e) {
            throw new ExtensionConfigurationException(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(ANNOTATION + ": " + e.getMessage());
        }
        return o;
    }

    /** A configuration error whose message is already complete. */
    static final class ConfigError extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        ConfigError(String message) {
            super(message);
        }
    }
}
