package io.flushcheck.jupiter;

import io.flushcheck.BadPathException;
import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbeLock;
import io.flushcheck.storage.MountIdentity;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Judge;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks computed once per run and shared by every test: cached in the root store, first by path,
 * then by the mount that holds it, so that a thousand annotated tests cost one probe per storage.
 * A probed verdict is also shared with the build's other JVMs ({@link VerdictStore}).
 * Probes run one at a time ({@link ProbeLock}), since the device counters they read are shared by the whole disk.
 */
final class CheckCache {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(CheckCache.class);
    /** Storage checks made in this JVM (not served from this JVM's cache, whether probed or shared); tests read it. */
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
        PathKey asked = new PathKey(dir, options);
        return root.getOrComputeIfAbsent(asked, k -> {
            Path real = resolve(dir, what);
            int seconds = new ConfigReader(context).intValue(FlushcheckConfig.SHARED_VERDICT_SECONDS_KEY,
                    VerdictStore.DEFAULT_SECONDS, 0, 86_400);
            Checked shared = root.getOrComputeIfAbsent(new StorageKey(storageKey(real), asked), k2 -> {
                Checked c = run(real, options, seconds);
                RunReport.recorded(context, c.result(), what);
                return c;
            }, Checked.class);
            return forDirectory(real, shared, options);
        }, CheckResult.class);
    }

    /** The JVM-wide cache of checks asked for outside any extension (a test's own call of {@link FlushAssertions}). */
    private static final Map<Object, Object> JVM_WIDE = new HashMap<>();

    /** As {@link #check(ExtensionContext, Path, CheckOptions, String)}, cached for the life of the JVM. */
    static CheckResult check(Path dir, CheckOptions options, String what) {
        synchronized (JVM_WIDE) {
            PathKey pathKey = new PathKey(dir, options);
            CheckResult cached = (CheckResult) JVM_WIDE.get(pathKey);
            if (cached != null) {
                return cached;
            }
            Path real = resolve(dir, what);
            StorageKey key = new StorageKey(storageKey(real), pathKey);
            Checked shared = (Checked) JVM_WIDE.get(key);
            if (shared == null) {
                shared = run(real, options, Integer.getInteger(FlushcheckConfig.SHARED_VERDICT_SECONDS_KEY, VerdictStore.DEFAULT_SECONDS));
                JVM_WIDE.put(key, shared);
            }
            CheckResult r = forDirectory(real, shared, options);
            JVM_WIDE.put(pathKey, r);
            return r;
        }
    }

    /**
     * A directory as asked and the options it was asked with, equal to another of the same directory and equal
     * options. Not a record: a record's first {@code hashCode} or {@code equals} bootstraps method handles,
     * milliseconds in a fresh fork. One annotation's tests all pass the same options object, so a cached test
     * compares it by identity; options made per call are compared by their text, made once per key.
     */
    private static final class PathKey {
        private final Path dir;
        private final CheckOptions options;
        private String optionsText;

        PathKey(Path dir, CheckOptions options) {
            this.dir = dir;
            this.options = options;
        }

        String optionsText() {
            if (optionsText == null) {
                optionsText = RecordText.of(options);
            }
            return optionsText;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PathKey k && k.dir.equals(dir) && (k.options == options || k.optionsText().equals(optionsText()));
        }

        @Override
        public int hashCode() {
            return dir.hashCode(); // the options' text is made only where two keys of one directory meet
        }
    }

    /** A storage and the options' value, as text (see {@link PathKey} for why not a record). */
    private static final class StorageKey {
        private final String text;

        StorageKey(String storage, PathKey asked) {
            this.text = storage + "\n" + asked.optionsText();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StorageKey k && k.text.equals(text);
        }

        @Override
        public int hashCode() {
            return text.hashCode();
        }
    }

    /** A storage's check, and whether it came from another JVM (its verdict stands without costs to recheck with). */
    private record Checked(CheckResult result, boolean fromOtherJvm) {
    }

    private static CheckResult forDirectory(Path real, Checked shared, CheckOptions options) {
        CheckResult r = shared.result();
        if (r.path().equals(real.toString())) {
            return r;
        }
        // Same storage, other directory: its own facts and findings, the storage's costs; a verdict shared by
        // another JVM carries no costs, and the storage's verdict is the directory's.
        return shared.fromOtherJvm() ? new CheckResult(real.toString(), r.facts(), r.costs(), r.judgement(), r.elapsedMillis())
                : Flushcheck.recheck(real, r, options);
    }

    private static Checked run(Path dir, CheckOptions options, int sharedSeconds) {
        CHECKS_RUN.incrementAndGet();
        // Measurements are always made here; a verification the storage facts decide costs milliseconds.
        Optional<VerdictStore> store = options.alwaysProbe() ? Optional.empty() : VerdictStore.forBuild(sharedSeconds);
        StorageFacts facts = store.isPresent() ? inspect(dir) : null;
        if (facts == null || Judge.decidedWithoutProbe(Judge.staticFindings(facts))) {
            return ProbeLock.exclusively(() -> judgedHere(probe(dir, options)));
        }
        // Another JVM's fresh verdict measures nothing, so it waits for no probe of this JVM.
        Optional<VerdictStore.Shared> fresh = store.get().fresh(dir, facts, options);
        if (fresh.isPresent()) {
            return fromOtherJvm(fresh.get());
        }
        return ProbeLock.exclusively(() -> {
            VerdictStore.Shared s = store.get().getOrJudge(dir, facts, options, () -> probe(dir, options));
            return s.origin() != null ? fromOtherJvm(s) : judgedHere(s.result());
        });
    }

    private static Checked fromOtherJvm(VerdictStore.Shared s) {
        System.err.println(VerdictLine.of(s.result(), s.figure(), s.origin()));
        return new Checked(s.result(), true);
    }

    private static Checked judgedHere(CheckResult r) {
        print(r);
        return new Checked(r, false);
    }

    private static CheckResult probe(Path dir, CheckOptions options) {
        return Flushcheck.check(dir, options, ProbeListener.NONE);
    }

    private static void print(CheckResult r) {
        // stderr: Surefire shows it on the console and keeps it in the report of the test that asked first.
        System.err.println(VerdictLine.of(r, "judged in this JVM"));
    }

    private static StorageFacts inspect(Path dir) {
        try {
            return new StorageInspector().inspect(dir);
        } catch (Exception e) {
            return null; // Flushcheck.check reports it
        }
    }

    private static Path resolve(Path dir, String what) {
        try {
            return Flushcheck.validateDirectory(dir);
        } catch (BadPathException e) {
            throw new ExtensionConfigurationException(what + ": " + Escape.of(e.getMessage()) + "; name an existing directory");
        }
    }

    /**
     * The mount holding the directory: directories on one filesystem share one verdict. Looked up where the path
     * leads (MountIdentity): through /proc/PID/root, in PID's namespace.
     */
    private static String storageKey(Path real) {
        try {
            return MountIdentity.of(real.toString());
        } catch (IOException | RuntimeException e) {
            return real.toString();
        }
    }
}
