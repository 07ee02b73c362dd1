package io.flushcheck.jupiter;

import io.flushcheck.BadPathException;
import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbeLock;
import io.flushcheck.report.Escape;
import io.flushcheck.storage.MountTable;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks computed once per run and shared by every test: cached in the root store, first by path,
 * then by the mount that holds it, so that a thousand annotated tests cost one probe per storage.
 * Probes run one at a time ({@link ProbeLock}), since the device counters they read are shared by the whole disk.
 */
final class CheckCache {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(CheckCache.class);
    /** Checks actually run in this JVM (not served from the cache); tests read it. */
    static final AtomicInteger CHECKS_RUN = new AtomicInteger();

    private CheckCache() {
    }

    /**
     * The check of {@code dir}, computed at most once per storage and options in this run.
     *
     * @param what the annotation asking, for messages ("@RequiresRealFlush")
     */
    static CheckResult check(ExtensionContext context, Path dir, CheckOptions options, String what) {
        ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
        // Keyed by the directory as asked, so that a cached test pays for a map lookup and nothing else;
        // getOrComputeIfAbsent: JUnit 6 prefers computeIfAbsent, which the 5.14 API we compile against lacks.
        return root.getOrComputeIfAbsent(new PathKey(dir, options), k -> {
            Path real = resolve(dir, what);
            CheckResult shared = root.getOrComputeIfAbsent(new StorageKey(storageKey(real), options),
                    k2 -> RunReport.recorded(context, run(real, options), what), CheckResult.class);
            // Same storage, other directory: its own facts and findings, the storage's costs.
            return shared.path().equals(real.toString()) ? shared : Flushcheck.recheck(real, shared, options);
        }, CheckResult.class);
    }

    private record PathKey(Path dir, CheckOptions options) {
    }

    private record StorageKey(String storage, CheckOptions options) {
    }

    private static CheckResult run(Path dir, CheckOptions options) {
        return ProbeLock.exclusively(() -> {
            CHECKS_RUN.incrementAndGet();
            return Flushcheck.check(dir, options, ProbeListener.NONE);
        });
    }

    private static Path resolve(Path dir, String what) {
        try {
            return Flushcheck.validateDirectory(dir);
        } catch (BadPathException e) {
            throw new ExtensionConfigurationException(what + ": " + Escape.of(e.getMessage()) + "; name an existing directory");
        }
    }

    /** The mount holding the directory: directories on one filesystem share one verdict. */
    private static String storageKey(Path real) {
        try {
            return "mount " + MountTable.live().mountOf(real.toString()).mountId();
        } catch (RuntimeException e) {
            return real.toString();
        }
    }
}
