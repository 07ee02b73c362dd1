package io.flushcheck.powercut;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link CorruptedBlocks}: the first invocation lists what its workload left on the survivor,
 * and the damaged blocks of the others are drawn from that list as JUnit asks for them (invocations of a test holding
 * a resource lock run one after another).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CorruptedBlocksExtension extends DiskTemplateExtension<CorruptedBlocks> {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(CorruptedBlocksExtension.class);
    private static final String ANNOTATION = "@CorruptedBlocks";

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    public CorruptedBlocksExtension() {
        super(CorruptedBlocks.class);
    }

    @Override
    Stream<TestTemplateInvocationContext> invocations(ExtensionContext context, Method method, CorruptedBlocks config) {
        String refused = refusal(config);
        if (refused != null) {
            throw new ExtensionConfigurationException(ANNOTATION + " on " + method.getName() + ": " + refused);
        }
        String pinned = !config.block().isBlank() ? config.block()
                : context.getConfigurationParameter(CorruptedBlocks.BLOCK_PARAMETER).orElse("");
        if (!pinned.isBlank()) {
            DamagedBlock damage;
            try {
                damage = DamagedBlock.parse(pinned);
            } catch (IllegalArgumentException e) {
                throw new ExtensionConfigurationException(ANNOTATION + " on " + method.getName() + ": " + e.getMessage(), e);
            }
            if (damage.damages() && damage.kind().onWrites() && Disks.config(context).model().resolved() == DiskModel.BLOCK) {
                // A lying write is planned where the workload leaves the block on the drive: a listing run says where.
                Plan plan = new Plan(config, true);
                return Stream.of(new DamageInvocation(DamagedBlock.none(), plan, true), new DamageInvocation(damage, plan,
                        false));
            }
            return Stream.of(new DamageInvocation(damage, new Plan(config, false), false));
        }
        Plan plan = new Plan(config, false);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(plan.iterator(), 0), false);
    }

    /** What is wrong with {@code config}, or null. */
    static String refusal(CorruptedBlocks config) {
        if (config.times() < 1) {
            return "times = " + config.times() + ": it must be at least 1";
        }
        if (config.kinds().length == 0) {
            return "kinds is empty: name at least one kind of damage";
        }
        if (config.blockBytes() < 1) {
            return "blockBytes = " + config.blockBytes() + ": a block holds at least 1 byte";
        }
        return null;
    }

    /** The invocations of one test: the listing one, then the blocks drawn from what it listed. */
    static final class Plan {

        private final CorruptedBlocks config;
        /** Whether the listing run notes where its files lie on a block model's drive: for lying writes. */
        private final boolean placesWanted;
        private List<BlockSites.SurvivingFile> files; // null until the first invocation has listed them
        private DrivePlaces places; // null unless wanted, on the block model, and listed
        private boolean listed;

        /** {@code lyingWrite}: a lying write is pinned, whatever the kinds. */
        Plan(CorruptedBlocks config, boolean lyingWrite) {
            this.config = config;
            this.placesWanted = lyingWrite || Arrays.stream(config.kinds()).anyMatch(BlockDamage::onWrites);
        }

        synchronized void listed(List<BlockSites.SurvivingFile> survivingFiles, DrivePlaces drivePlaces) {
            files = List.copyOf(survivingFiles);
            places = drivePlaces;
            listed = true;
        }

        /** The listing invocation ended without a survivor (skipped, failed, or no cut). */
        synchronized void unlisted() {
            if (!listed) {
                listed(List.of(), null);
            }
        }

        boolean placesWanted() {
            return placesWanted;
        }

        synchronized DrivePlaces places() {
            return places;
        }

        synchronized long sites() {
            return files == null ? -1 : BlockSites.count(files, config.kinds().length, config.blockBytes());
        }

        Iterator<TestTemplateInvocationContext> iterator() {
            return new Iterator<>() {
                private int next;
                private List<DamagedBlock> blocks;

                @Override
                public boolean hasNext() {
                    if (next == 0) {
                        return true;
                    }
                    if (blocks == null) {
                        synchronized (Plan.this) {
                            if (!listed) {
                                throw new ExtensionConfigurationException(ANNOTATION + " draws its blocks from the files"
                                        + " its first invocation left, and JUnit asked for the next before the first had"
                                        + " run: run these tests one at a time");
                            }
                            blocks = BlockSites.spread(files, config.kinds(), config.blockBytes(), config.times() - 1,
                                    config.seed());
                        }
                    }
                    return next - 1 < blocks.size();
                }

                @Override
                public TestTemplateInvocationContext next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    DamagedBlock damage = next == 0 ? DamagedBlock.none() : blocks.get(next - 1);
                    next++;
                    return new DamageInvocation(damage, Plan.this, !damage.damages());
                }
            };
        }
    }

    /**
     * One invocation: its disk, the damage done (armed on the workload's writes before it runs, or done on the
     * survivor as its cut returns), its report entry and its message.
     */
    static final class DamageInvocation extends DiskInvocation {

        private final DamagedBlock damage;
        private final Plan plan;
        private final boolean lists;
        private volatile String done;
        private volatile String absent;
        /** The disk's lost or misdirected writes before the workload, as the fault's kind counts them; -1 until armed. */
        private volatile long liedBefore = -1;
        /** Where a lying write was armed on the block model's drive: the block's place in the listing run; else null. */
        private volatile DrivePlaces.Planned plannedAt;
        /** The disk's failed reads as the survivor's read fault was armed; -1 when not counted. */
        private volatile long readsBefore = -1;

        DamageInvocation(DamagedBlock damage, Plan plan, boolean lists) {
            super(NS, ANNOTATION, ", cut and damage");
            this.damage = damage;
            this.plan = plan;
            this.lists = lists;
        }

        @Override
        public String getDisplayName(int invocationIndex) {
            return "[" + invocationIndex + "] " + (lists ? "nothing damaged, listing the blocks" : damage.toString());
        }

        @Override
        void arm(SimulatedDisk disk, long base) {
            if (plan.placesWanted() && disk.model() == DiskModel.BLOCK && disk.fsType().equals("ext4")) {
                try {
                    DrivePlaces.allocateAlike(disk.loopDevice()); // the listing run's places are this run's
                } catch (IOException e) {
                    throw new TestAbortedException("ext4 cannot be made to place blocks alike in every run: " + e);
                }
            }
            if (!lists && damage.kind().onWrites()) {
                armWrites(disk);
            }
            disk.onSurvivor(survivor -> {
                if (lists) {
                    List<BlockSites.SurvivingFile> files = BlockSites.files(survivor);
                    plan.listed(files, plan.placesWanted() && disk.model() == DiskModel.BLOCK
                            ? DrivePlaces.of(survivor, files) : null);
                    return;
                }
                if (damage.kind().onWrites()) {
                    if (plannedAt != null && !placedAsPlanned(survivor)) {
                        return;
                    }
                    wrote(disk); // done as the workload wrote: what the test reads back is told what
                    if (done != null) {
                        disk.notes.noteDamage(done);
                    }
                    return;
                }
                Path file = damage.fileOf(survivor);
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) <= damage.offset()) {
                    absent = damage.file() + (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                            ? " holds " + Files.size(file) + " bytes on this survivor, none at " + damage.offset()
                            : " is not a file on this survivor") + " (the workload left other files this time)";
                    return;
                }
                if (damage.kind().onReads()) {
                    failReads(disk, survivor);
                    return;
                }
                try {
                    done = disk.corrupt(damage.on(survivor)).toString();
                } catch (IllegalArgumentException e) {
                    // A hole, an unwritten or inline extent: the drive holds none of the block's bytes to damage.
                    absent = e.getMessage();
                }
            });
        }

        /**
         * Arms the lost or misdirected writes on the disk, before the workload: on the file model on the file by its
         * name, on the block model where the listing run left the block on the drive; aborts when the disk cannot.
         */
        private void armWrites(SimulatedDisk disk) {
            try {
                liedBefore = lied(disk);
                for (WriteFault f : disk.model() == DiskModel.BLOCK ? onDrive(disk) : List.of(damage.writes(disk.path()))) {
                    disk.failWrites(f);
                }
            } catch (IllegalArgumentException | IllegalStateException | UnsupportedOperationException
                     | UncheckedIOException e) {
                throw new TestAbortedException(damage + " not armed: " + e.getMessage());
            }
        }

        /**
         * Where the listing run left the block on the block model's drive ({@link #plannedAt}), as write faults there,
         * a piece each ({@link DrivePlaces#plan}).
         */
        private List<WriteFault> onDrive(SimulatedDisk disk) {
            DrivePlaces places = plan.places();
            DrivePlaces.Planned planned = (places == null ? DrivePlaces.none() : places).plan(damage, disk.fsType());
            plannedAt = planned;
            return planned.faults();
        }

        /**
         * Whether the survivor's block lies where the lie was planned: else the lie met other writes than the
         * block's, and the invocation says so ({@link #absent}).
         */
        private boolean placedAsPlanned(Path survivor) throws IOException {
            absent = DrivePlaces.misplaced(survivor, damage, plannedAt);
            return absent == null;
        }

        private long lied(SimulatedDisk disk) {
            return damage.kind() == BlockDamage.LOST_WRITE ? disk.lostWrites() : disk.misdirectedWrites();
        }

        /** Fails the survivor's reads of the block; when the disk cannot, says so ({@link #absent}). */
        private void failReads(SimulatedDisk disk, Path survivor) {
            try {
                readsBefore = disk.failedReads();
            } catch (RuntimeException e) {
                readsBefore = -1; // not counted after a cut: the entry says what was armed, without a count
            }
            try {
                disk.failReads(damage.reads(survivor));
                done = damage.readsFail();
                disk.notes.noteDamage(done);
            } catch (IllegalStateException | IllegalArgumentException | UnsupportedOperationException
                     | UncheckedIOException e) {
                absent = "the survivor's reads cannot be failed: " + e.getMessage();
            }
        }

        /** Says what the lost or misdirected writes did ({@link #done}), or that no write met them ({@link #absent}). */
        private void wrote(SimulatedDisk disk) {
            long met;
            try {
                met = lied(disk) - liedBefore;
            } catch (RuntimeException e) {
                done = "writes to " + damage.file() + " bytes " + damage.offset() + "+" + damage.length() + " armed to be "
                        + (damage.kind() == BlockDamage.LOST_WRITE ? "lost" : "misdirected") + " (the drive no longer says"
                        + " how many met it: " + e.getMessage() + ")";
                return;
            }
            if (met == 0) {
                absent = damage.noWriteMet();
                return;
            }
            done = damage.writesMet(met) + (plannedAt == null ? "" : " (" + plannedAt.words() + ")");
        }

        /**
         * What the read fault did, with how many reads it failed (a transient error's one failed read may be the
         * kernel's read-ahead, read again page by page); without a count when the disk no longer gives one.
         */
        private String readsMet(SimulatedDisk disk) {
            if (readsBefore < 0) {
                return done;
            }
            try {
                return damage.readsFail(disk.failedReads() - readsBefore);
            } catch (RuntimeException e) {
                return done;
            }
        }

        @Override
        void ran(SimulatedDisk disk, long base, Throwable failure, List<PowerCut> cuts, ExtensionContext context)
                throws Throwable {
            if (!lists && damage.kind().onWrites() && done == null && absent == null) {
                wrote(disk); // no survivor: the test ended before its cut
            } else if (done != null && damage.kind().onReads()) {
                done = readsMet(disk);
            }
            if (lists) {
                plan.unlisted();
                context.publishReportEntry("flushcheck.faults.block", "nothing damaged (" + Math.max(0, plan.sites())
                        + " blocks and kinds to damage)");
            } else if (done != null) {
                context.publishReportEntry("flushcheck.faults.block", done + " (" + damage + ")");
            }
            if (failure instanceof TestAbortedException) {
                throw failure;
            }
            if (failure == null && cuts.isEmpty()) {
                throw new AssertionError(ANNOTATION + ": the test made no power cut; after its workload it must call"
                        + " disk.cutPower() and check what it reads back there");
            }
            if (absent != null) {
                throw new TestAbortedException(damage + " not done: " + absent + (failure == null ? ""
                        : "; the test then failed: " + failure));
            }
            if (failure != null) {
                String message = String.valueOf(failure.getMessage());
                String what = lists ? "nothing damaged" : done == null ? damage + " (not done: the test failed before its"
                        + " survivor was read)" : message.contains(done) ? "the damaged block: " + damage : done + " ("
                        + damage + ")";
                throw Disks.withMessage(failure, what + (lists ? "" : "\nto repeat only this invocation: " + ANNOTATION
                        + "(block = \"" + damage + "\"), or -D" + CorruptedBlocks.BLOCK_PARAMETER + "=\"" + damage
                        + "\" with only this test selected"));
            }
        }

        @Override
        public void afterEach(ExtensionContext context) {
            if (lists) {
                plan.unlisted();
            }
            super.afterEach(context);
        }
    }
}
