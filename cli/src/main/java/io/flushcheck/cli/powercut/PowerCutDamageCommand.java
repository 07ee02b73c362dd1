package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.Converters;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.HtmlOption;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.DamagedBlock;
import io.flushcheck.powercut.BlockDamage;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.report.Json;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code flushcheck powercut damage [options] --verify 'VERIFY {dir}' -- COMMAND {dir}}: damaged blocks of what a
 * program left at a power cut, one check each ({@link ProgramDamage}), with each check's outcome told apart.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "damage", synopsisHeading = "usage: ",
        customSynopsis = "flushcheck powercut damage [--blocks N] [--kinds KIND,...] [--block-bytes B] [--block"
                + " 'BLOCK'] [--seed S] [options] --verify 'VERIFY {dir}' -- COMMAND {dir}",
        description = {"damage blocks of what survived a power cut, one at a time, and check what a program reads back",
            "",
            "Runs COMMAND on a fresh simulated disk with {dir} replaced by its path, cuts the power at its exit",
            "(the seed --seed keeps the same unsynced writes every run), and lists the survivor's files in blocks of",
            "--block-bytes. Then, for up to --blocks of these blocks and kinds, spread evenly over them: a fresh",
            "disk, COMMAND again, the cut at its exit, that block damaged, and VERIFY run on the survivor by sh -c",
            "with {dir} its path. The first check is of the survivor undamaged, which must read back intact.",
            "The kinds: bit-rot (one bit, drawn from a seed, flipped) and zeroed (the block's bytes zeroed) change",
            "the survivor's bytes; bad-sector (every read of the block fails with EIO until rewritten) and",
            "transient-read (the first read to reach the drive fails: where that is a buffered read's read-ahead,",
            "Linux reads the pages again, and VERIFY gets the bytes; a check says how many reads failed) fail the",
            "survivor's reads; lost-write (every write COMMAND makes",
            "to the block is acknowledged, and so is the sync after it, and dropped) and misdirected-write (each is",
            "made at another block of the same file instead, drawn from the seed) are armed before COMMAND runs, on",
            "the disk it writes, by the file's name: a check no write reached is not done, and says so.",
            "",
            "COMMAND appends what it acknowledged, a line each, to the file $FLUSHCHECK_ACKS names, once it is",
            "synced. VERIFY writes the records it read back, a line each, to the file $FLUSHCHECK_READ names. A check",
            "is detected when VERIFY exits non-zero (an error, a refusal), crashed when a signal ends it (exit 128+N),",
            "hung when it does not end within --timeout; when it exits 0, what it read is compared with what was",
            "acknowledged: intact (all of it, nothing else), silent corruption (a record never acknowledged), or",
            "silent loss (acknowledged records missing). A VERIFY that exits 0 and writes no $FLUSHCHECK_READ passed:",
            "intact and silent cannot be told apart without what it read. Each line names the block as --block takes",
            "it, which repeats only that check. Progress goes to stderr.",
            "",
            "On the file model (--model file) the damage is to the survivor's file; the block model damages the",
            "drive under the filesystem, which answers as it does (btrfs checks its data's checksums, ext4 does not).",
            "The block model places a lying write on the drive where the listing run left the block (on ext4 the",
            "listing run and each lying write's run place a file's blocks alike, mb_stream_req 0; a check of another",
            "kind runs as its --block line alone does), and checks after the cut that it lies there, or the check",
            "is not done; --block alone runs the listing run first. btrfs writes a changed block to a new place",
            "(copy on write): there a lying write is not done.",
            "",
            "With --json: {\"model\", \"rules\", \"fs\", \"blockBytes\", \"kinds\", \"seed\", \"blocks\", \"checks\":[{\"check\",",
            "\"block\", \"file\", \"offset\", \"length\", \"kind\", \"blockSeed\", \"target\", \"done\", \"outcome\",",
            "\"explanation\", \"verifyExit\", \"verifyOutput\", \"acknowledged\", \"returned\", \"repeat\"}], \"outcomes\",",
            "\"silent\"}."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n",
        footer = {"%nexit codes: 0 no check was silent, 1 a check was silent corruption or silent loss (crashed and hung"
            + " are reported, not failed), 2 bad usage, or COMMAND or VERIFY failing with nothing damaged, 3 this"
            + " machine cannot run simulated disks or a disk failed, 4 the output could not be written"})
public final class PowerCutDamageCommand implements Job {

    static final int DEFAULT_BLOCKS = 20;
    static final int MAX_BLOCKS = 100_000;
    static final int DEFAULT_BLOCK_BYTES = 4096;
    static final int MAX_BLOCK_BYTES = 1 << 24;
    /** What explore's VERIFY names the acknowledgements' file by, which this one does not take. */
    private static final String ACKS = "{acks}";

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Mixin
    HtmlOption html = new HtmlOption();

    @Mixin
    DiskOptions disk = new DiskOptions();

    @Mixin
    RulesOption rules = new RulesOption();

    @Option(names = "--blocks", paramLabel = "N", converter = Blocks.class,
            description = "the most damaged blocks checked, spread evenly over every block and kind (default "
                    + DEFAULT_BLOCKS + ")")
    Integer blocks;

    @Option(names = "--kinds", paramLabel = "KINDS", split = ",", converter = KindName.class,
            description = "the kinds of damage, each block getting each, separated by a comma: bit-rot, zeroed,"
                    + " lost-write, misdirected-write, bad-sector, transient-read (default bit-rot,zeroed)")
    List<BlockDamage> kinds;

    @Option(names = "--block-bytes", paramLabel = "B", converter = BlockBytes.class,
            description = "the size of a block, in bytes from 1 (default 4096, a filesystem's block; 512 is a sector)")
    Integer blockBytes;

    @Option(names = "--block", paramLabel = "BLOCK", converter = Block.class,
            description = "only this check: 'bit rot in FILE bytes OFFSET+LENGTH, seed S', 'misdirected write in FILE"
                    + " bytes OFFSET+LENGTH to bytes TARGET' or 'KIND in FILE bytes OFFSET+LENGTH' (zeroed, lost write,"
                    + " bad sector, transient read error), as a check's line names it")
    DamagedBlock block;

    @Option(names = "--seed", paramLabel = "S", converter = PowerCutConverters.Seed.class,
            description = "the seed of the cut (which unsynced writes survive) and of the bits bit rot flips (default 0)")
    Long seed;

    @Option(names = "--verify", paramLabel = "'VERIFY {dir}'",
            description = "the shell command that reads the survivor back, {dir} its path; it writes what it read to"
                    + " $FLUSHCHECK_READ, a line each")
    String verify;

    @Option(names = "--timeout", paramLabel = "S", converter = PowerCutConverters.Timeout.class,
            description = "seconds each run of COMMAND or VERIFY may take (default 120); a VERIFY still running then hung")
    Double timeout;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "the program and its arguments, after --; it"
            + " appends what it acknowledged to $FLUSHCHECK_ACKS, a line each")
    List<String> command = new ArrayList<>();

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        checkUsage();
        html.check();
        DiskModel resolved = disk.model.resolved();
        checkModelOptions(resolved);
        String missing = Machine.missingForPrograms(resolved, disk.fs());
        if (missing != null) {
            err.println("flushcheck powercut damage: simulated disks need " + missing + " here");
            return ExitCodes.INTERNAL;
        }
        if (!output.quiet) {
            err.println("flushcheck powercut damage: " + Machine.modelLine(disk.model, disk.fs(), rules.rules));
        }
        ProgramDamage runner = new ProgramDamage(Machine.workDir(), resolved, sizeBytes(), disk.fs(), rules.rules, command,
                verify, timeout == null ? 120 : timeout, seed());
        DamageOutput report = new DamageOutput(this);
        List<DamageCheck> checks = new ArrayList<>();
        int sites = -1;
        String running = "the run that lists the blocks";
        try {
            List<DamagedBlock> todo;
            if (block != null) {
                todo = List.of(block);
            } else {
                if (!output.quiet) {
                    err.println("flushcheck powercut damage: a run cut at the command's exit, to list the blocks it"
                            + " leaves and check them undamaged");
                }
                ProgramDamage.Listed listed = runner.list(kinds(), blockBytes(), blocks(), seed());
                if (listed.commandExit() != 0) {
                    throw new UsageException("powercut damage: the command exited " + listed.commandExit() + ", so its"
                            + " damaged blocks would test nothing: " + listed.commandTail());
                }
                DamageCheck undamaged = listed.undamaged();
                if (undamaged.outcome() != DamageCheck.Outcome.INTACT && undamaged.outcome() != DamageCheck.Outcome.PASSED) {
                    throw new UsageException("powercut damage: with nothing damaged the check is " + undamaged.outcome()
                            .words() + ", so damage would test nothing: " + undamaged.explanation());
                }
                checks.add(undamaged);
                todo = listed.blocks();
                sites = todo.size();
                if (!output.quiet) {
                    err.printf(Locale.ROOT, "flushcheck powercut damage: nothing damaged: %s; %d blocks to damage%n",
                            undamaged.outcome().words(), todo.size());
                }
            }
            for (int i = 0; i < todo.size(); i++) {
                running = "check " + (i + 1) + " (" + todo.get(i) + ")";
                DamageCheck c = runner.check(i + 1, todo.get(i));
                checks.add(c);
                if (!output.quiet) {
                    err.printf(Locale.ROOT, "flushcheck powercut damage: check %d/%d: %s: %s%n", i + 1, todo.size(),
                            c.site(), c.outcome().words());
                }
            }
        } catch (IOException | UncheckedIOException | UnsupportedOperationException | IllegalArgumentException e) {
            // No verdict on the command: the disk, or the damage, could not be made.
            if (!checks.isEmpty()) {
                print(out, report, checks, sites);
            }
            String why = e instanceof UncheckedIOException u ? u.getCause().getMessage() : e.getMessage();
            err.println("flushcheck powercut damage: " + running + ": " + Escape.of(String.valueOf(why)));
            return ExitCodes.INTERNAL;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("flushcheck powercut damage: interrupted");
            return ExitCodes.INTERNAL;
        }
        print(out, report, checks, sites);
        int code = checks.stream().anyMatch(c -> c.outcome().silent()) ? ExitCodes.VERIFY_FAILED : ExitCodes.OK;
        return html.wanted() ? html.write(DamageHtml.addTo(new HtmlReport("flushcheck powercut damage"), report, checks),
                err, code) : code;
    }

    private void print(PrintStream out, DamageOutput report, List<DamageCheck> checks, int sites) {
        out.print(output.json ? Json.write(report.json(checks, sites)) : report.text(checks, sites));
        out.flush();
    }

    private void checkUsage() throws UsageException {
        List<String> original = spec.commandLine().getParseResult().originalArgs();
        int dashes = original.indexOf("--");
        if (command.isEmpty() || dashes < 0) {
            throw new UsageException("powercut damage: put the command after -- (flushcheck powercut damage --verify"
                    + " 'VERIFY {dir}' -- COMMAND {dir})" + (command.isEmpty() ? "" : "; got '" + String.join(" ", command)
                    + "' without --"));
        }
        if (!original.subList(dashes + 1, original.size()).equals(command)) {
            throw new UsageException("powercut damage: unexpected argument '" + command.get(0) + "' before --");
        }
        if (!String.join(" ", command).contains(ProgramCuts.DIR)) {
            throw new UsageException("powercut damage: the command must name its data directory as {dir}, which becomes"
                    + " the simulated disk's path: " + String.join(" ", command));
        }
        if (verify == null) {
            throw new UsageException("powercut damage: --verify 'VERIFY {dir}' is missing: the command that reads back what"
                    + " survived");
        }
        if (!verify.contains(ProgramCuts.DIR)) {
            throw new UsageException("powercut damage: --verify must name the survivor's directory as {dir}: " + verify);
        }
        if (verify.contains(ACKS)) {
            throw new UsageException("powercut damage: VERIFY reads the survivor back and flushcheck compares what it read"
                    + " with what was acknowledged: write the records it read to $" + ProgramDamage.READ_VARIABLE
                    + ", a line each, instead of comparing them with {acks} (a VERIFY that exits non-zero counts as the"
                    + " program detecting the damage)");
        }
        if (block != null) {
            List<String> sweep = new ArrayList<>();
            for (String o : List.of("--blocks", "--kinds", "--block-bytes")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                    sweep.add(o);
                }
            }
            if (!sweep.isEmpty()) {
                throw new UsageException("powercut damage: --block runs the one check it names; it takes no "
                        + String.join(" and no ", sweep));
            }
        }
        if (kinds != null && new LinkedHashSet<>(kinds).size() < kinds.size()) {
            throw new UsageException("powercut damage: --kinds names a kind twice: name each kind once");
        }
        disk.checkFsName("powercut damage");
    }

    private void checkModelOptions(DiskModel resolved) throws UsageException {
        if (resolved == DiskModel.FILE) {
            if (disk.fs != null) {
                throw new UsageException("powercut damage: --fs applies to the block model, not to the file model"
                        + disk.autoChoice()
                        + "; leave it out, or run as root with --model block");
            }
            return;
        }
        rules.check("powercut damage", disk.model);
        disk.checkSize("powercut damage");
    }

    long sizeBytes() {
        return disk.sizeBytes();
    }

    int blocks() {
        return blocks == null ? DEFAULT_BLOCKS : blocks;
    }

    int blockBytes() {
        return blockBytes == null ? DEFAULT_BLOCK_BYTES : blockBytes;
    }

    List<BlockDamage> kinds() {
        return kinds == null ? List.of(BlockDamage.BIT_ROT, BlockDamage.ZEROED) : kinds;
    }

    long seed() {
        return seed == null ? 0 : seed;
    }

    /** What the checks ran on, for the report's first line: {@code ext4 (256 MiB)} or {@code the file model (256 MiB)}. */
    String disks() {
        return (disk.model.resolved() == DiskModel.FILE ? "the file model" : disk.fs()) + " (" + (sizeBytes() >> 20) + " MiB)";
    }

    /** {@code --blocks}: 1 to {@link #MAX_BLOCKS}. */
    static final class Blocks implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--blocks", value, 1, MAX_BLOCKS);
        }
    }

    /** {@code --block-bytes}: 1 to {@link #MAX_BLOCK_BYTES}. */
    static final class BlockBytes implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--block-bytes", value, 1, MAX_BLOCK_BYTES);
        }
    }

    /** A kind of {@code --kinds bit-rot,zeroed,lost-write,...}, in any case ({@link BlockDamage#option()}). */
    static final class KindName implements ITypeConverter<BlockDamage> {
        @Override
        public BlockDamage convert(String value) {
            try {
                return BlockDamage.ofOption(value.trim().toLowerCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("--kinds takes kinds separated by a comma, each one of "
                        + String.join(", ", java.util.Arrays.stream(BlockDamage.values()).map(BlockDamage::option).toList())
                        + ", not '" + value + "'");
            }
        }
    }

    /** {@code --block 'bit rot in FILE bytes O+L, seed S'}: {@link DamagedBlock#parse}. */
    static final class Block implements ITypeConverter<DamagedBlock> {
        @Override
        public DamagedBlock convert(String value) {
            try {
                return DamagedBlock.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("--block: " + e.getMessage());
            }
        }
    }
}
