package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.DamagedBlock;
import io.flushcheck.powercut.BlockDamage;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.DrivePlaces;
import io.flushcheck.powercut.DriveServerFailedException;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.powercut.LoggedWorld;
import io.flushcheck.powercut.ProcessWorld;
import io.flushcheck.powercut.ReadBack;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedDiskBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Damaged blocks under a user's command: each run on a fresh {@link SimulatedDisk}, the command run with
 * {@code {dir}} naming the disk and {@code FLUSHCHECK_ACKS} a file it appends its acknowledgements to, a line each,
 * the power cut at its exit (with the same seed every run, so that each run leaves the same survivor of a command that
 * does the same), a block of the survivor damaged ({@link SimulatedDisk#corrupt}, {@link SimulatedDisk#failReads}) or
 * the command's writes to it lost or misdirected ({@link SimulatedDisk#failWrites}, armed before it runs), and the
 * verify run there by
 * {@code sh -c}, in a world of its own, with {@code FLUSHCHECK_READ} naming a file it may write what it read back to,
 * a line each. Its outcome is told apart as {@link AcknowledgedRecords#judge} tells a test's.
 */
final class ProgramDamage {

    static final String READ_VARIABLE = "FLUSHCHECK_READ";
    private static final int TAIL_LINES = 3;

    private final Path work;
    private final DiskModel model;
    private final long sizeBytes;
    private final String fs;
    private final FileRules rules;
    private final List<String> command;
    private final String verify;
    private final double timeoutSeconds;
    private final long cutSeed;
    /** Whether a lying write is among the checks: then on ext4 every run places a file's blocks alike. */
    private boolean placesWanted;
    /** Where the listing run left the survivor's files on the block model's drive; null until listed there. */
    private DrivePlaces places;

    /** {@code model} resolved (block or file); {@code fs} is the block model's, {@code rules} the file model's. */
    ProgramDamage(Path work, DiskModel model, long sizeBytes, String fs, FileRules rules, List<String> command,
                  String verify, double timeoutSeconds, long cutSeed) {
        this.work = work;
        this.model = model;
        this.sizeBytes = sizeBytes;
        this.fs = fs;
        this.rules = rules;
        this.command = List.copyOf(command);
        this.verify = verify;
        this.timeoutSeconds = timeoutSeconds;
        this.cutSeed = cutSeed;
    }

    /** The run that lists the blocks: its check of the survivor as the cut left it, and the blocks to damage. */
    record Listed(DamageCheck undamaged, List<DamagedBlock> blocks, int commandExit, String commandTail) {
    }

    /** What a run's command did and left. */
    private record Ran(int commandExit, String commandTail) {
    }

    /**
     * Runs the command, cuts at its exit, lists up to {@code count} blocks of the survivor's files spread evenly
     * ({@link DamagedBlock#sweep}), and checks the survivor undamaged.
     */
    Listed list(Collection<BlockDamage> kinds, int blockBytes, int count, long seed)
            throws IOException, InterruptedException {
        placesWanted = kinds.stream().anyMatch(BlockDamage::onWrites);
        @SuppressWarnings("unchecked")
        List<DamagedBlock>[] blocks = new List[1];
        Ran[] ran = new Ran[1];
        DamageCheck undamaged = run(0, null, (disk, survivor, r) -> {
            blocks[0] = DamagedBlock.sweep(survivor, kinds, blockBytes, count, seed);
            listPlaces(disk, survivor);
            ran[0] = r;
            return null;
        });
        return new Listed(undamaged, blocks[0], ran[0].commandExit(), ran[0].commandTail());
    }

    /**
     * One check: the command run and cut at its exit, {@code block} damaged on the survivor (or its lying writes armed
     * before the command ran), the verify run there.
     */
    DamageCheck check(int number, DamagedBlock block) throws IOException, InterruptedException {
        if (block.kind().onWrites() && model == DiskModel.BLOCK && places == null) {
            // A block named alone: a run cut at the command's exit first finds where it lies on the drive.
            placesWanted = true;
            DamageCheck listing;
            try {
                listing = run(0, null, (disk, survivor, r) -> {
                    listPlaces(disk, survivor);
                    return null;
                });
            } catch (DriveServerFailedException e) {
                throw e;
            } catch (IOException | UncheckedIOException e) {
                return notArmed(number, block, "the listing run, cut at COMMAND's exit to find where the block lies on"
                        + " the drive, failed: " + e.getMessage());
            }
            if (places == null) {
                return notArmed(number, block, "the listing run, cut at COMMAND's exit, found no place of the block on"
                        + " the drive: " + listing.outcome().words() + ": " + listing.explanation());
            }
        }
        return run(number, block, (disk, survivor, r) -> {
            if (block.kind().onWrites()) {
                return null; // done as the command wrote, to whatever file it left
            }
            Path file = survivor.resolve(block.file()).normalize();
            if (!file.startsWith(survivor) || file.equals(survivor)) {
                return block.file() + " is not a file on this survivor";
            }
            // The survivor is what the command made: a symbolic link on the way would lead the damage out of it.
            for (Path p = file; !p.equals(survivor); p = p.getParent()) {
                if (Files.isSymbolicLink(p)) {
                    return block.file() + " is reached through the symbolic link " + survivor.relativize(p)
                            + " on this survivor, which is not followed";
                }
            }
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                return block.file() + " is not a file on this survivor";
            }
            long size = Files.size(file);
            if (size <= block.offset()) {
                return block.file() + " holds " + size + " bytes on this survivor, none at " + block.offset();
            }
            return null;
        });
    }

    /** On the block model, with a lying write among the checks: where the survivor's files lie on the drive. */
    private void listPlaces(SimulatedDisk disk, Path survivor) throws IOException {
        if (placesWanted && model == DiskModel.BLOCK) {
            places = DrivePlaces.of(survivor);
        }
    }

    /** What a run does to its survivor before the verify: null to go on, or why the check is not done. */
    private interface OnSurvivor {
        String apply(SimulatedDisk disk, Path survivor, Ran ran) throws IOException;
    }

    private DamageCheck run(int number, DamagedBlock block, OnSurvivor onSurvivor) throws IOException, InterruptedException {
        try (SimulatedDisk disk = disk()) {
            String name = HexFormat.of().formatHex(randomBytes());
            Path acks = Files.createFile(work.resolve("acks-" + name + ".txt"));
            Path read = work.resolve("read-" + name + ".txt");
            ProgramCuts.arm(disk, CutPoint.exit(0), cutSeed);
            if (placesWanted && (block == null || block.kind().onWrites())) {
                // On ext4 the listing run's places are a lying write's run's. Only those runs: a check of another
                // kind runs as its --block line alone runs it, so that line repeats it.
                DrivePlaces.allocateAlike(disk);
            }
            long liedBefore = -1;
            DrivePlaces.Planned planned = null;
            if (block != null && block.kind().onWrites()) {
                try {
                    liedBefore = lied(disk, block);
                    if (model == DiskModel.BLOCK) {
                        // Where the listing run left the block on the drive: the file is not on the disk yet.
                        if (places == null) {
                            throw new IllegalStateException("no listing run found where the block lies on the drive");
                        }
                        planned = places.plan(block, disk.fsType());
                        for (var f : planned.faults()) {
                            disk.failWrites(f);
                        }
                    } else {
                        disk.failWrites(block.writes(disk.path()));
                    }
                } catch (IllegalArgumentException | IllegalStateException | UnsupportedOperationException
                         | UncheckedIOException e) {
                    return notArmed(number, block, e.getMessage());
                }
            }
            Path survivor;
            Ran ran;
            try (LoggedWorld p = LoggedWorld.start(ProgramCuts.substitute(command, disk.path()), b -> {
                b.environment().put(ProgramStates.ACKS_VARIABLE, acks.toString());
                b.environment().remove(READ_VARIABLE);
                return disk.start(b);
            })) {
                boolean ended = p.waitFor(timeoutSeconds);
                survivor = cut(disk);
                if (!ended) {
                    throw new IOException("the command was still running after " + seconds(timeoutSeconds)
                            + ": give it more with --timeout");
                }
                ran = new Ran(p.exitCode(), p.tail(TAIL_LINES));
            }
            List<String> acknowledged = RecordLines.read(acks, "the command's $" + ProgramStates.ACKS_VARIABLE);
            if (acknowledged == null) {
                throw new IOException("the command removed its $" + ProgramStates.ACKS_VARIABLE + " file " + acks
                        + ": append to it, a line per acknowledgement");
            }
            String notDone = onSurvivor.apply(disk, survivor, ran);
            if (notDone == null && planned != null) {
                try {
                    notDone = DrivePlaces.misplaced(survivor, block, planned);
                } catch (IOException | UncheckedIOException e) {
                    // This check's survivor could not be mapped: this check is not done, the others go on.
                    notDone = "where the block lies on this survivor's drive could not be read: " + e.getMessage();
                }
            }
            if (notDone != null) {
                return new DamageCheck(number, block, null, DamageCheck.Outcome.NOT_DONE, notDone
                        + ": nothing damaged, VERIFY not run", null, "", acknowledged.size(), null);
            }
            String done = null;
            long readsBefore = -1;
            if (block != null) {
                Damage d;
                if (block.kind().onWrites()) {
                    long met = lied(disk, block) - liedBefore;
                    d = met > 0 ? new Damage(block.writesMet(met) + (planned == null ? "" : " (" + planned.words() + ")"),
                            null) : new Damage(null, block.noWriteMet());
                } else {
                    readsBefore = block.kind().onReads() ? failedReads(disk) : -1;
                    d = damage(disk, survivor, block);
                }
                done = d.done();
                String why = d.notDone();
                if (why != null) {
                    return new DamageCheck(number, block, null, DamageCheck.Outcome.NOT_DONE, why
                            + ": nothing damaged, VERIFY not run", null, "", acknowledged.size(), null);
                }
            }
            Verified v = verify(survivor, read);
            long readsAfter = readsBefore < 0 || done == null ? -1 : failedReads(disk);
            if (readsAfter >= 0) {
                // A transient error met by the kernel's read-ahead, read again page by page, fails one read, not VERIFY.
                done = block.readsFail(readsAfter - readsBefore);
            }
            List<String> returned = v.exit == null ? null : RecordLines.read(read, "VERIFY's $" + READ_VARIABLE);
            DamageCheck check = judge(number, block, done, acknowledged, v, returned);
            if (ran.commandExit() == 0) {
                return check;
            }
            // The listing run's command exited 0: one that fails now may have left another survivor.
            return new DamageCheck(check.number(), check.block(), check.done(), check.outcome(), check.explanation()
                    + " (the command exited " + ran.commandExit() + " in this check's run: " + ran.commandTail() + ")",
                    check.verifyExit(), check.verifyTail(), check.acknowledged(), check.returned());
        }
    }

    /** A lying write not armed, and why: nothing damaged, COMMAND and VERIFY not run. */
    private static DamageCheck notArmed(int number, DamagedBlock block, String why) {
        return new DamageCheck(number, block, null, DamageCheck.Outcome.NOT_DONE, "not armed: " + why
                + ": nothing damaged, COMMAND and VERIFY not run", null, "", 0, null);
    }

    /** What was done to a block, in words, or (done null) why nothing was. */
    private record Damage(String done, String notDone) {
    }

    /** Damages {@code block} on {@code survivor}: its data at rest changed, or its reads failed. */
    private static Damage damage(SimulatedDisk disk, Path survivor, DamagedBlock block) {
        if (block.kind().onReads()) {
            try {
                disk.failReads(block.reads(survivor));
                return new Damage(block.readsFail(), null);
            } catch (IllegalArgumentException | IllegalStateException | UnsupportedOperationException
                     | UncheckedIOException e) {
                return new Damage(null, "the survivor's reads cannot be failed: " + e.getMessage());
            }
        }
        try {
            return new Damage(disk.corrupt(block.on(survivor)).toString(), null);
        } catch (IllegalArgumentException e) {
            // A hole, an unwritten or inline extent: the drive holds none of the block's bytes to damage.
            return new Damage(null, e.getMessage());
        }
    }

    /** The reads the disk has failed so far, or -1 when it no longer says (the check's words go without a count). */
    private static long failedReads(SimulatedDisk disk) {
        try {
            return disk.failedReads();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The disk's lost or misdirected writes so far, as {@code block}'s kind counts them. */
    private static long lied(SimulatedDisk disk, DamagedBlock block) {
        return block.kind() == BlockDamage.LOST_WRITE ? disk.lostWrites() : disk.misdirectedWrites();
    }

    private SimulatedDisk disk() throws IOException {
        // The options of the other model stay out: the builder refuses them rather than ignore them.
        SimulatedDiskBuilder b = SimulatedDisk.builder().model(model).sizeBytes(sizeBytes);
        return (model == DiskModel.FILE ? b.rules(rules) : b.fs(fs)).create(work);
    }

    /** The cut at the command's exit; what survived. */
    private Path cut(SimulatedDisk disk) throws IOException {
        try {
            return disk.cutPower(cutSeed);
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof DriveServerFailedException failed) {
                throw failed;
            }
            throw new IOException("what survived the cut could not be mounted: " + e.getCause().getMessage(), e);
        }
    }

    private record Verified(Integer exit, String tail) {
    }

    private Verified verify(Path survivor, Path read) throws IOException, InterruptedException {
        try (LoggedWorld v = LoggedWorld.start(List.of("sh", "-c", verify.replace(ProgramCuts.DIR,
                ProgramCuts.shellWord(survivor.toString()))), b -> {
                    b.environment().put(READ_VARIABLE, read.toString());
                    b.environment().remove(ProgramStates.ACKS_VARIABLE);
                    return ProcessWorld.start(b);
                })) {
            if (!v.waitFor(timeoutSeconds)) {
                v.kill();
                return new Verified(null, v.tail(TAIL_LINES));
            }
            return new Verified(v.exitCode(), v.tail(TAIL_LINES));
        }
    }

    /**
     * The check's outcome: hung when VERIFY did not end in time, crashed when a signal ended it (a shell reports a
     * program a signal ended as 128 + the signal's number), detected when it exited otherwise non-zero; when it exited
     * 0, what it wrote to {@code $FLUSHCHECK_READ} compared with what was acknowledged, and passed when it wrote no
     * such file.
     */
    DamageCheck judge(int number, DamagedBlock block, String done, List<String> acknowledged, Verified v,
                      List<String> returned) {
        String prefix = done == null ? "" : done + ": ";
        String acked = acknowledged.size() + " records were acknowledged";
        String said = v.tail.isEmpty() ? "" : ": " + v.tail;
        DamageCheck.Outcome outcome;
        String explanation;
        if (v.exit == null) {
            outcome = DamageCheck.Outcome.HUNG;
            explanation = prefix + "VERIFY did not end in " + seconds(timeoutSeconds) + " (" + acked + ")" + said;
        } else if (signal(v.exit) != null) {
            outcome = DamageCheck.Outcome.CRASHED;
            explanation = prefix + "VERIFY was ended by " + signal(v.exit) + " (exit " + v.exit + "; " + acked + ")" + said;
        } else if (v.exit != 0) {
            outcome = DamageCheck.Outcome.DETECTED;
            explanation = prefix + "VERIFY exited " + v.exit + " (" + acked + ")" + said;
        } else if (returned != null) {
            ReadBack r = AcknowledgedRecords.judge(acknowledged, List.of(), returned, done == null ? "" : done);
            outcome = DamageCheck.Outcome.of(r.outcome());
            explanation = r.explanation();
        } else {
            outcome = DamageCheck.Outcome.PASSED;
            explanation = prefix + "VERIFY exited 0 and wrote nothing to $" + READ_VARIABLE + " (" + acked + "): without"
                    + " the records it read, intact and silent loss or corruption cannot be told apart";
        }
        return new DamageCheck(number, block, done, outcome, explanation, v.exit, v.tail, acknowledged.size(),
                returned == null ? null : returned.size());
    }

    private static final Map<Integer, String> SIGNALS = Map.ofEntries(Map.entry(1, "SIGHUP"), Map.entry(2, "SIGINT"),
            Map.entry(3, "SIGQUIT"), Map.entry(4, "SIGILL"), Map.entry(5, "SIGTRAP"), Map.entry(6, "SIGABRT"),
            Map.entry(7, "SIGBUS"), Map.entry(8, "SIGFPE"), Map.entry(9, "SIGKILL"), Map.entry(11, "SIGSEGV"),
            Map.entry(13, "SIGPIPE"), Map.entry(14, "SIGALRM"), Map.entry(15, "SIGTERM"), Map.entry(24, "SIGXCPU"),
            Map.entry(25, "SIGXFSZ"), Map.entry(31, "SIGSYS"));

    /** The signal an exit code of 128 + N says ended the program ({@code signal 11 (SIGSEGV)}), or null. */
    static String signal(int exit) {
        int n = exit - 128;
        if (n < 1 || n > 64) {
            return null;
        }
        String name = SIGNALS.get(n);
        return "signal " + n + (name == null ? "" : " (" + name + ")");
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return b;
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.0f s", s);
    }
}
