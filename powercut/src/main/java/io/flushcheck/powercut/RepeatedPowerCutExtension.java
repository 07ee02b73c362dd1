package io.flushcheck.powercut;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link RepeatedPowerCut}: the first invocation counts the workload's flushes, and
 * the crash points of the others are drawn from that count as JUnit asks for them (invocations of a test
 * holding a resource lock run one after another).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RepeatedPowerCutExtension extends DiskTemplateExtension<RepeatedPowerCut> {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(RepeatedPowerCutExtension.class);

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    public RepeatedPowerCutExtension() {
        super(RepeatedPowerCut.class);
    }

    @Override
    Stream<TestTemplateInvocationContext> invocations(ExtensionContext context, Method method, RepeatedPowerCut config) {
        if (config.times() < 1) {
            throw new ExtensionConfigurationException("@RepeatedPowerCut(times = " + config.times() + ") on " + method.getName()
                    + ": times must be at least 1");
        }
        String pinned = !config.point().isBlank() ? config.point()
                : context.getConfigurationParameter(RepeatedPowerCut.POINT_PARAMETER).orElse("");
        if (!pinned.isBlank()) {
            CrashPoint point;
            try {
                point = CrashPoint.parse(pinned);
            } catch (IllegalArgumentException e) {
                throw new ExtensionConfigurationException("@RepeatedPowerCut on " + method.getName() + ": " + e.getMessage(), e);
            }
            return Stream.of(new CutInvocation(point, new Plan(config), false));
        }
        Plan plan = new Plan(config);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(plan.iterator(), 0), false);
    }

    /** The invocations of one test: the counting one, then the points drawn from its count. */
    static final class Plan {

        private final RepeatedPowerCut config;
        private Long workloadFlushes; // null until the first invocation has counted; -1 if it could not
        private boolean counted;

        Plan(RepeatedPowerCut config) {
            this.config = config;
        }

        synchronized void counted(long flushes) {
            workloadFlushes = flushes;
            counted = true;
        }

        /** The counting invocation ended before its test method ran (skipped, or its disk failed). */
        synchronized void uncounted() {
            if (!counted) {
                counted(-1);
            }
        }

        synchronized long workloadFlushes() {
            return workloadFlushes == null ? -1 : workloadFlushes;
        }

        Iterator<TestTemplateInvocationContext> iterator() {
            return new Iterator<>() {
                private int next;
                private List<CrashPoint> points;

                @Override
                public boolean hasNext() {
                    if (next == 0) {
                        return true;
                    }
                    if (points == null) {
                        synchronized (Plan.this) {
                            if (!counted) {
                                throw new ExtensionConfigurationException("@RepeatedPowerCut draws its crash points from"
                                        + " the flushes its first invocation counted, and JUnit asked for the next"
                                        + " before the first had run: run these tests one at a time");
                            }
                        }
                        points = points(workloadFlushes(), config.times() - 1, config.sweep(), config.seed());
                    }
                    return next - 1 < points.size();
                }

                @Override
                public TestTemplateInvocationContext next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    CrashPoint point = next == 0 ? CrashPoint.end() : points.get(next - 1);
                    next++;
                    return new CutInvocation(point, Plan.this, point.kind() == CrashPoint.Kind.END);
                }
            };
        }
    }

    /**
     * The crash points of {@code invocations} invocations over a workload of {@code n} flushes: after
     * flushes spread evenly over 1 .. n-1 (after flush n is the cut at the end), and during flushes drawn
     * from {@code seed}. None when the count is unknown (negative) or there is no flush to cut at.
     */
    static List<CrashPoint> points(long n, int invocations, RepeatedPowerCut.Sweep sweep, long seed) {
        List<CrashPoint> points = new ArrayList<>();
        if (n < 1 || invocations < 1) {
            return points;
        }
        int afterCount = switch (sweep) {
            case FLUSHES -> invocations;
            case RANDOM -> 0;
            case BOTH -> (invocations + 1) / 2;
        };
        afterCount = (int) Math.min(afterCount, n - 1);
        int duringCount = sweep == RepeatedPowerCut.Sweep.FLUSHES ? 0 : invocations - afterCount;
        if (afterCount == 1) {
            points.add(CrashPoint.after(Math.max(1, n / 2)));
        } else {
            for (int i = 0; i < afterCount; i++) {
                // from flush 1 to flush n-1, distinct because n-1 > afterCount when some are skipped
                points.add(CrashPoint.after(1 + i * (n - 2) / (afterCount - 1)));
            }
        }
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int i = 0; i < duringCount; i++) {
            long s = seeds.nextLong() >>> 33; // short enough to read in a display name
            long k = 1 + Math.floorMod(new SplittableRandom(s).nextLong(), n);
            points.add(CrashPoint.during(k, s));
        }
        return points;
    }

    /** One invocation: its disk, its armed cut, its report entries and its message. */
    static final class CutInvocation extends DiskInvocation {

        private final CrashPoint point;
        private final Plan plan;
        private final boolean counts;

        CutInvocation(CrashPoint point, Plan plan, boolean counts) {
            super(NS, "@RepeatedPowerCut", " and cut");
            this.point = point;
            this.plan = plan;
            this.counts = counts;
        }

        @Override
        public String getDisplayName(int invocationIndex) {
            return "[" + invocationIndex + "] " + point.describe(counts ? -1 : plan.workloadFlushes());
        }

        @Override
        void arm(SimulatedDisk disk, long base) {
            point.arm(disk, base);
        }

        @Override
        void ran(SimulatedDisk disk, long base, Throwable failure, List<PowerCut> cuts, ExtensionContext context)
                throws Throwable {
            long n = cuts.isEmpty() ? -1 : cuts.get(0).flushes() - base;
            if (counts) {
                plan.counted(n);
            }
            String where = where(cuts, n);
            context.publishReportEntry("flushcheck.powercut.point", where);
            String afterCut = AfterPowerCut.describe(disk.notes.records());
            if (afterCut != null) {
                context.publishReportEntry("flushcheck.powercut.afterCut", afterCut);
            }
            if (failure instanceof TestAbortedException) {
                throw failure;
            }
            if (failure != null && cuts.isEmpty() && !disk.powered()) {
                throw Disks.withMessage(failure, "the workload threw this after the power went (" + where + "), before"
                        + " the test cut the power and checked what survived; a real cut ends the program first: run"
                        + " the workload in disk.untilPowerCut(acknowledged -> ...), which ends it there\nto repeat only"
                        + " this invocation: @RepeatedPowerCut(point = \"" + point + "\")");
            }
            if (failure == null && cuts.isEmpty()) {
                throw new AssertionError("@RepeatedPowerCut: the test made no power cut; after its workload it must call"
                        + " disk.cutPower() and check what survived there");
            }
            if (failure != null) {
                throw Disks.withMessage(failure, where + (cuts.isEmpty() ? "" : ": " + cuts.get(0)) + "\nto repeat only this"
                        + " invocation: @RepeatedPowerCut(point = \"" + point + "\"), or -D" + RepeatedPowerCut.POINT_PARAMETER
                        + "=\"" + point + "\" with only this test selected");
            }
        }

        /** The point, as it happened: an armed flush the workload never reached is said so. */
        private String where(List<PowerCut> cuts, long n) {
            String described = point.describe(plan.workloadFlushes());
            if (point.kind() == CrashPoint.Kind.END || cuts.isEmpty() || cuts.get(0).armed()) {
                return counts && n >= 0 ? described + " (" + n + " flushes)" : described;
            }
            return described + ", not reached: the workload made " + n + " flushes this time, and the power went when the"
                    + " test cut it";
        }

        @Override
        public void afterEach(ExtensionContext context) {
            if (counts) {
                plan.uncounted();
            }
            super.afterEach(context);
        }
    }
}
