package io.flushcheck.jupiter;

import io.flushcheck.BadPathException;
import io.flushcheck.sqlite.CommitCell;
import io.flushcheck.sqlite.CommitMatrix;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.MatrixListener;
import io.flushcheck.sqlite.MatrixOptions;
import io.flushcheck.sqlite.SqliteException;
import io.flushcheck.sqlite.Synchronous;
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
        MatrixOptions options = options(a, context);
        Path dir = Path.of(context.getConfigurationParameter(MeasureSqliteCommits.DIRECTORY_KEY)
                .orElse(System.getProperty("java.io.tmpdir")));
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        String key = dir.toAbsolutePath() + " " + options;
        Function<String, CommitMatrix> run = k -> {
            try {
                return CommitMatrix.run(dir, options, MatrixListener.NONE);
            } catch (BadPathException e) {
                throw new ExtensionConfigurationException(ANNOTATION + ": " + MeasureSqliteCommits.DIRECTORY_KEY
                        + " = " + dir + ": " + e.getMessage(), e);
            } catch (SqliteException e) {
                throw new ExtensionConfigurationException(ANNOTATION + ": " + e.getMessage(), e);
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

    static MatrixOptions options(MeasureSqliteCommits a, ExtensionContext context) {
        MatrixOptions o = MatrixOptions.defaults().withFullfsync(List.of(false)).withRows(500)
                .withMaxCellSeconds(2).withMaxTotalSeconds(60);
        try {
            o = o.withJournalModes(a.journalModes().length > 0 ? parseEach("journalModes", a.journalModes(), JournalMode::parse)
                    : keyed(context, MeasureSqliteCommits.JOURNAL_MODES_KEY, JournalMode::parseList, o.journalModes()));
            o = o.withSynchronous(a.synchronous().length > 0 ? parseEach("synchronous", a.synchronous(), Synchronous::parse)
                    : keyed(context, MeasureSqliteCommits.SYNCHRONOUS_KEY, Synchronous::parseList, o.synchronous()));
            o = o.withFullfsync(keyed(context, MeasureSqliteCommits.FULLFSYNC_KEY,
                    MeasureSqliteCommitsExtension::booleans, o.fullfsync()));
            if (a.batches().length > 0) {
                List<Integer> b = new ArrayList<>();
                for (int x : a.batches()) {
                    if (x < 1 || x > MatrixOptions.MAX_BATCH) {
                        throw new ExtensionConfigurationException(ANNOTATION + "(batches = " + Arrays.toString(a.batches())
                                + "): batch " + x + " is out of range: use 1 to " + MatrixOptions.MAX_BATCH
                                + " rows per transaction");
                    }
                    b.add(x);
                }
                o = o.withBatches(b);
            } else {
                o = o.withBatches(keyed(context, MeasureSqliteCommits.BATCHES_KEY, MeasureSqliteCommitsExtension::ints,
                        o.batches()));
            }
            if (a.rows() != -1) {
                if (a.rows() < 1 || a.rows() > MatrixOptions.MAX_ROWS) {
                    throw new ExtensionConfigurationException(ANNOTATION + "(rows = " + a.rows() + "): out of range: use 1 to "
                            + MatrixOptions.MAX_ROWS + ", or leave it out to use " + MeasureSqliteCommits.ROWS_KEY);
                }
                o = o.withRows(a.rows());
            } else {
                o = o.withRows(keyed(context, MeasureSqliteCommits.ROWS_KEY, Integer::parseInt, o.rows()));
            }
            o = o.withMaxCellSeconds(keyed(context, MeasureSqliteCommits.MAX_CELL_SECONDS_KEY, Double::parseDouble,
                    o.maxCellSeconds()));
            o = o.withMaxTotalSeconds(keyed(context, MeasureSqliteCommits.MAX_SECONDS_KEY, Double::parseDouble,
                    o.maxTotalSeconds()));
        } catch (ConfigError e) {
            throw new ExtensionConfigurationException(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(ANNOTATION + ": " + e.getMessage());
        }
        return o;
    }

    private static <T> List<T> parseEach(String attribute, String[] values, Function<String, T> parser) {
        List<T> out = new ArrayList<>();
        for (String v : values) {
            try {
                out.add(parser.apply(v));
            } catch (IllegalArgumentException e) {
                throw new ConfigError(ANNOTATION + "(" + attribute + " = \"" + v + "\"): " + e.getMessage());
            }
        }
        return out;
    }

    private static <T> T keyed(ExtensionContext context, String key, Function<String, T> parser, T fallback) {
        Optional<String> v = context.getConfigurationParameter(key);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return parser.apply(v.get());
        } catch (IllegalArgumentException e) {
            throw new ConfigError("configuration parameter " + key + " = " + v.get() + " for " + ANNOTATION + ": "
                    + e.getMessage());
        }
    }

    private static List<Boolean> booleans(String csv) {
        List<Boolean> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            switch (p.trim()) {
                case "0" -> out.add(false);
                case "1" -> out.add(true);
                default -> throw new IllegalArgumentException("use 0, 1 or 0,1, not '" + p.trim() + "'");
            }
        }
        return out;
    }

    private static List<Integer> ints(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            out.add(Integer.parseInt(p.trim()));
        }
        return out;
    }

    /** A configuration error whose message is already complete. */
    private static final class ConfigError extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        ConfigError(String message) {
            super(message);
        }
    }
}
