package io.flushcheck;

import io.flushcheck.probe.NativeCallException;
import io.flushcheck.probe.OwnFiles;
import io.flushcheck.probe.ProbeDirectory;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.StopRule;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.probe.SyncProbe;
import io.flushcheck.probe.SyncSymbols;
import io.flushcheck.storage.KernelPath;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judge;
import io.flushcheck.verdict.Judgement;
import java.io.File;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The entry point of the core: inspect a directory's storage, probe it when that is needed, judge.
 * Knows nothing of JUnit, SQLite or Docker; those consume it.
 *
 * <pre>{@code
 * CheckResult r = Flushcheck.check(Path.of("/var/lib/app"), CheckOptions.defaults(), ProbeListener.NONE);
 * if (r.verdict() != Verdict.REAL_FLUSH) System.err.println(r.judgement().summary());
 * }</pre>
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class Flushcheck {

    private Flushcheck() {
    }

    /**
     * Checks one directory.
     *
     * @throws BadPathException when the path does not exist or is not a directory
     */
    public static CheckResult check(Path dir, CheckOptions options, ProbeListener listener) {
        return check(dir, options, listener, null);
    }

    /** {@link #check}, with a test's hooks (null in a real check: no class of theirs is loaded). */
    static CheckResult check(Path dir, CheckOptions options, ProbeListener listener, CheckHooks hooks) {
        long start = System.nanoTime();
        Path real = validateDirectory(dir);
        StorageInspector inspector = new StorageInspector();
        List<Finding> extra = new ArrayList<>();
        StorageFacts facts = inspect(inspector, real, extra);
        List<SyncCost> costs = new ArrayList<>();
        boolean decided = facts != null && Judge.decidedWithoutProbe(Judge.staticFindings(facts));
        if (facts != null && !decided && !facts.environment().preloaded().isEmpty()) {
            extra.addAll(interposedSymbols());
        }
        if (decided && !options.alwaysProbe()) {
            extra.add(Finding.of(FindingCode.NOT_PROBED, "no probe ran: the storage facts decide the verdict"));
        } else {
            // Only where a probe runs: a verdict the facts decide writes nothing, so reads no directory.
            String stale = OwnFiles.sweep(real);
            if (stale != null) {
                extra.add(Finding.of(FindingCode.STALE_FILES_REMOVED, stale));
            }
            try {
                SyncProbe probe = SyncProbe.forStorage(facts, inspector);
                if (hooks != null) {
                    hooks.inspected(real);
                }
                // Opened once: the probe's files are made relative to this descriptor, and its mount must be the
                // one the facts were judged on, or the syncs would go where the counters do not look.
                try (ProbeDirectory opened = probe.open(real)) {
                    Finding changed = OpenedMount.changed(facts, opened.mountId());
                    if (changed != null) {
                        extra.add(changed);
                    } else {
                        if (hooks != null) {
                            hooks.opened(real);
                        }
                        probe.run(opened, options.plan(), listener, costs::add,
                                options.stopWhenDecided() ? Judge.stopWhenDecided(facts) : null);
                        remeasureWhileTooBusy(probe, opened, facts, options, listener, costs);
                    }
                }
            } catch (UnsupportedOperationException e) {
                extra.add(Finding.of(FindingCode.NATIVE_UNAVAILABLE, e.getMessage()));
            } catch (NativeCallException e) {
                extra.add(new Finding(FindingCode.PROBE_FAILED, "cannot probe " + real + ": " + e.getMessage(),
                        e.errno() > 0 ? Map.of("errno", String.valueOf(e.errno())) : Map.of()));
            }
        }
        Judgement judgement = Judge.judge(facts, costs, options.thresholds(), extra);
        return new CheckResult(dir.toString(), facts, costs, judgement, (System.nanoTime() - start) / 1_000_000);
    }

    /** How many times a mode is measured again, each time with four times the rounds, while the device is too busy. */
    static final int BUSY_REMEASURES = 2;

    /**
     * The most rounds of a measurement after those {@link #BUSY_REMEASURES}, in a check that ends each mode once
     * decided, while only its flush brackets can still decide it ({@link Judge#bracketsCanStillShow}): where an idle
     * bracket meets other work's flush nearly every time, the syncs' brackets need thousands of rounds to show their
     * own (an idle bracket missing 1 time in 600 needs about 20,000).
     */
    static final int BRACKET_REMEASURE_ROUNDS = 16_384;

    /**
     * Where other work on a shared device left a mode undecided ({@link Judge#tooBusyToTell}), measures it
     * again with four times the rounds (within the plan's limits), up to {@link #BUSY_REMEASURES} times; then, in a
     * check that ends each mode once decided, further while its brackets can still show its flushes, each time
     * with four times the rounds up to {@link #BRACKET_REMEASURE_ROUNDS}. The last measurement replaces the earlier
     * one, but for its flush brackets, which add up; where the check ends each mode once decided, a measurement ends
     * once the brackets added up decide it, their chances shared by the rounds all the measurements planned.
     */
    private static void remeasureWhileTooBusy(SyncProbe probe, ProbeDirectory real, StorageFacts facts, CheckOptions options,
                                              ProbeListener listener, List<SyncCost> costs) {
        ProbePlan plan = options.plan();
        long plannedInAll = plan.rounds();
        for (int attempt = 0; ; attempt++) {
            boolean byBrackets = attempt >= BUSY_REMEASURES;
            if (byBrackets && !options.stopWhenDecided()) {
                return;
            }
            List<SyncMode> busy = byBrackets ? Judge.bracketsCanStillShow(facts, costs, options.thresholds())
                    : Judge.tooBusyToTell(facts, costs, options.thresholds());
            long rounds = Math.min((long) plan.rounds() * 4, Math.min(ProbePlan.MAX_ROUNDS,
                    ProbePlan.MAX_BYTES_PER_MODE / plan.blockSize()));
            if (byBrackets) {
                rounds = Math.min(rounds, BRACKET_REMEASURE_ROUNDS);
            }
            if (busy.isEmpty() || rounds <= plan.rounds()) {
                return;
            }
            plan = plan.withRounds((int) rounds);
            plannedInAll += rounds;
            Map<SyncMode, SyncCost> earlier = new EnumMap<>(SyncMode.class);
            for (SyncCost c : costs) {
                earlier.put(c.mode(), c);
            }
            StopRule stop = options.stopWhenDecided() ? Judge.stopWhenDecided(facts, earlier, plannedInAll) : null;
            probe.run(real, plan.withModes(busy), listener, again -> {
                for (int i = 0; i < costs.size(); i++) {
                    if (costs.get(i).mode() == again.mode()) {
                        costs.set(i, again.withEarlierBrackets(costs.get(i)));
                    }
                }
            }, stop);
        }
    }

    /**
     * Judges {@code dir} with the costs measured in another directory on the same mount, without
     * probing again: its own facts, the other's costs and probe findings. How a test suite pays for one
     * probe per storage, however many directories it asks about.
     *
     * @throws BadPathException when the path does not exist or is not a directory
     */
    public static CheckResult recheck(Path dir, CheckResult sameStorage, CheckOptions options) {
        long start = System.nanoTime();
        Path real = validateDirectory(dir);
        List<Finding> extra = new ArrayList<>();
        StorageFacts facts = inspect(new StorageInspector(), real, extra);
        for (Finding f : sameStorage.judgement().findings()) {
            if (CARRIED_OVER.contains(f.code())) {
                extra.add(f);
            }
        }
        Judgement judgement = Judge.judge(facts, sameStorage.costs(), options.thresholds(), extra);
        return new CheckResult(dir.toString(), facts, sameStorage.costs(), judgement, (System.nanoTime() - start) / 1_000_000);
    }

    /** Findings about the probe rather than the path, which hold for every directory of the storage. */
    private static final List<FindingCode> CARRIED_OVER = List.of(FindingCode.NOT_PROBED, FindingCode.PROBE_FAILED,
            FindingCode.NATIVE_UNAVAILABLE, FindingCode.SYNC_SYMBOL_INTERPOSED);

    private static StorageFacts inspect(StorageInspector inspector, Path real, List<Finding> extra) {
        if (!isLinux()) {
            extra.add(Finding.of(FindingCode.UNSUPPORTED_OS, "storage inspection reads /proc and /sys, which "
                    + System.getProperty("os.name") + " does not have; the verdict rests on timing alone"));
            return null;
        }
        try {
            return inspector.inspect(real);
        } catch (IOException | RuntimeException e) {
            extra.add(Finding.of(FindingCode.PROBE_FAILED, "cannot inspect the storage of " + real + ": " + e.getMessage()));
            return null;
        }
    }

    /**
     * Resolves a directory, or says in one sentence why it cannot be probed. Callers checking several
     * paths validate them all first, so that a bad one stops the run before anything is written.
     *
     * @throws BadPathException when the path is empty, does not exist, cannot be reached or is not a
     *                           directory; {@link BadPathException#unreachable} says why
     */
    public static Path validateDirectory(Path dir) {
        if (dir.toString().isEmpty()) {
            throw BadPathException.empty(); // File("") does not exist, Path.of("") is the working directory
        }
        // java.io.File rather than Path.toRealPath/Files.isDirectory: the cold path (docs/architecture.md).
        File file = dir.toFile();
        if (!file.exists()) {
            // exists() says false for every cause (missing, permission, a symlink loop, a name too long):
            // only then pay for asking why.
            throw BadPathException.unreachable(dir, null);
        }
        File real;
        try {
            // The directory the kernel reaches, which realpath misnames behind /proc/PID/root (KernelPath).
            real = new File(KernelPath.resolve(file));
        } catch (IOException e) {
            throw BadPathException.unreachable(dir, e);
        }
        if (!real.isDirectory()) {
            throw new BadPathException(BadPathException.shown(dir) + " is not a directory: flushcheck probes the directory"
                    + " a file would live in");
        }
        return real.toPath();
    }

    /**
     * The path a person or a setting names. Java encodes file names with the encoding the locale had at
     * JVM start ({@code sun.jnu.encoding}, ASCII under {@code LC_ALL=C}, fixed afterwards): a name it
     * cannot represent there is refused in one sentence that names the fix, rather than as an
     * {@link InvalidPathException}.
     *
     * @throws BadPathException when the name cannot be represented as a path here
     */
    public static Path pathOf(String name) {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new BadPathException(BadPathException.unrepresentable(name, e.getReason()));
        }
    }

    /**
     * The directory where {@code Files.createTempDirectory(prefix)}, {@code File.createTempFile} and
     * JUnit's {@code @TempDir} create files in this JVM: {@code java.io.tmpdir} as it was when the JVM
     * started. A later {@code System.setProperty("java.io.tmpdir", ...)} (Maven Surefire's
     * {@code systemPropertyVariables}, {@code mvn -Djava.io.tmpdir=...}) changes the property, not this.
     * Found once per JVM by creating an empty directory there and removing it.
     *
     * @throws java.io.UncheckedIOException when no temp directory can be created
     */
    public static Path jdkTempDir() {
        return JdkTempDir.get();
    }

    /**
     * {@code path} itself when it exists, else its nearest existing ancestor: the directory a new
     * directory at {@code path} would be created in, on whose storage its data would land.
     * Relative paths are taken from the working directory.
     */
    public static Path nearestExisting(Path path) {
        Path p = path.toAbsolutePath().normalize();
        while (p != null && !p.toFile().exists()) {
            p = p.getParent();
        }
        return p == null ? path.toAbsolutePath().getRoot() : p;
    }

    /**
     * Resolves an existing path of any type (a database file, say) to its real path, or says in one
     * sentence why it cannot be reached, with the same causes as {@link #validateDirectory}.
     *
     * @throws BadPathException when the path is empty, does not exist or cannot be reached
     */
    public static Path validateExisting(Path path) {
        if (path.toString().isEmpty()) {
            throw BadPathException.empty();
        }
        try {
            return path.toRealPath();
        } catch (IOException e) {
            throw BadPathException.unreachable(path, e);
        }
    }

    /**
     * An unknown preloaded library may wrap the sync calls. Not decisive: it may still sync, and since
     * the probe calls the same symbols, the device counters tell.
     */
    private static List<Finding> interposedSymbols() {
        List<Finding> out = new ArrayList<>();
        try {
            for (String s : SyncSymbols.interposed()) {
                out.add(new Finding(FindingCode.SYNC_SYMBOL_INTERPOSED, s.substring(0, s.indexOf(' ')) + " resolves to "
                        + s.substring(s.indexOf(" from ") + 6) + ", not to the C library; the probe calls it the same way, "
                        + "so its flush counts show whether it still syncs", Map.of("symbol", s)));
            }
        } catch (UnsupportedOperationException e) {
            // The probe reports the same native problem as NATIVE_UNAVAILABLE.
        }
        return out;
    }

    static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }
}
