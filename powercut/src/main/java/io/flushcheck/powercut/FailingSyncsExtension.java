package io.flushcheck.powercut;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link FailingSyncs}: one invocation at its fault point, or in a sweep one that counts the
 * workload's flushes and then one per fault point drawn from that count (invocations of a test holding a
 * resource lock run one after another, so the count is there when JUnit asks for the next).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FailingSyncsExtension extends DiskTemplateExtension<FailingSyncs> {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(FailingSyncsExtension.class);

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    public FailingSyncsExtension() {
        super(FailingSyncs.class);
    }

    @Override
    Stream<TestTemplateInvocationContext> invocations(ExtensionContext context, Method method, FailingSyncs config) {
        if (config.after() < 0 || config.times() < 1) {
            throw new ExtensionConfigurationException("@FailingSyncs on " + method.getName()
                    + ": after must be 0 or more and times at least 1");
        }
        Count count = new Count();
        String pinned = context.getConfigurationParameter(FailingSyncs.AFTER_PARAMETER).orElse("");
        if (!pinned.isBlank()) {
            long after;
            try {
                after = Long.parseLong(pinned.trim());
            } catch (NumberFormatException e) {
                throw new ExtensionConfigurationException(FailingSyncs.AFTER_PARAMETER + " is a number of flushes, not '"
                        + pinned + "'", e);
            }
            return Stream.of(new FaultInvocation(new FaultPoint(after, config.errno(), config.persistent()), count, false));
        }
        if (!config.sweep()) {
            return Stream.of(new FaultInvocation(new FaultPoint(config.after(), config.errno(), config.persistent()), count,
                    false));
        }
        // Lazily: the points exist only once the counting invocation has run.
        Stream<TestTemplateInvocationContext> first = Stream.of(new FaultInvocation(FaultPoint.none(), count, true));
        Stream<TestTemplateInvocationContext> rest = Stream.of(0).flatMap(x -> points(count.flushes(), config.times() - 1)
                .stream().map(after -> new FaultInvocation(new FaultPoint(after, config.errno(), config.persistent()), count,
                        false)));
        return Stream.concat(first, rest);
    }

    /** The fault points of a sweep: {@code after} from 0 to n-1, spread evenly when there are more than {@code most}. */
    static List<Long> points(long n, int most) {
        List<Long> points = new ArrayList<>();
        if (n < 1 || most < 1) {
            return points;
        }
        int count = (int) Math.min(n, most);
        for (int i = 0; i < count; i++) {
            points.add(count == 1 ? 0 : i * (n - 1) / (count - 1));
        }
        return points;
    }

    /** The flushes the counting invocation saw the workload make; -1 until it has, or when it could not. */
    static final class Count {
        private long flushes = -1;

        synchronized void set(long n) {
            flushes = n;
        }

        synchronized long flushes() {
            return flushes;
        }
    }

    /** One invocation: its disk, its armed fault, its report entries and its message. */
    static final class FaultInvocation extends DiskInvocation {

        private final FaultPoint point;
        private final Count count;
        private final boolean counts;

        FaultInvocation(FaultPoint point, Count count, boolean counts) {
            super(NS, "@FailingSyncs", "");
            this.point = point;
            this.count = count;
            this.counts = counts;
        }

        @Override
        public String getDisplayName(int invocationIndex) {
            return "[" + invocationIndex + "] " + point.describe(count.flushes());
        }

        @Override
        void arm(SimulatedDisk disk, long base) {
            point.arm(disk, base);
        }

        @Override
        void ran(SimulatedDisk disk, long base, Throwable failure, List<PowerCut> cuts, ExtensionContext context)
                throws Throwable {
            if (counts) {
                // Up to the first cut: the flushes of the workload, not of unmounting after it.
                count.set((cuts.isEmpty() ? disk.flushes() : cuts.get(0).flushes()) - base);
            }
            String where = point.describe(count.flushes()) + "; the drive failed " + disk.failedFlushes() + " flushes";
            context.publishReportEntry("flushcheck.failingsyncs.point", point.describe(count.flushes()));
            if (failure instanceof TestAbortedException) {
                throw failure;
            }
            if (failure != null) {
                throw Disks.withMessage(failure, where + (cuts.isEmpty() ? "" : "; then " + cuts.get(0))
                        + (point.failing() ? "\nto repeat only this invocation: " + point.repeat() : ""));
            }
        }
    }
}
