package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DataFault;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.Errno;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flushcheck powercut [options] --verify 'CMD {dir}' -- CMD {dir}}: runs any program with its data
 * on a simulated disk, cuts the power under it, and runs a verify command on what survived; N times.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "powercut", synopsisHeading = "usage: ",
        customSynopsis = {"flushcheck powercut [options] --verify 'VERIFY {dir}' -- COMMAND {dir}",
            "       flushcheck powercut explore [--max-states N] [--draw N] [--damage-blocks N [--kinds bit-rot,zeroed] [--block-bytes B]] [--seed S] [--workers N] [--record DIR] [options] --verify 'VERIFY {dir} {acks}' -- COMMAND {dir}",
            "       flushcheck powercut replay DIR [--max-states N] [--draw N [--seed S]] [--workers N] [--shard I/N] [--json] --verify 'VERIFY {dir} {acks}'",
            "       flushcheck powercut merge SHARD.json...",
            "       flushcheck powercut damage [--blocks N] [--kinds KIND,...] [--block-bytes B] [--block 'BLOCK'] [--seed S] [options] --verify 'VERIFY {dir}' -- COMMAND {dir}",
            "       flushcheck powercut sqlite [--cuts N] [--json]",
            "       flushcheck powercut postgres [--row 'NAME=VALUE,...']... [--cuts N] [--json]"},
        description = {"cut the power under a program, then check what survived",
            "",
            "Each cut makes a fresh simulated disk: a real filesystem (ext4 by default) on a loop device over",
            "a drive with a volatile write cache, which flushcheck serves itself through FUSE. COMMAND runs",
            "with {dir} replaced by the filesystem's path, in a world of its own: a PID namespace (ps there",
            "shows only the command's processes) that holds every process it starts, daemons and session",
            "leaders included. The power goes the moment the drive completes the command's K-th flush (counted",
            "from its start): every process of the command's world is killed then, before that flush returns,",
            "so nothing it acknowledges afterwards counts. A command that ends sooner has its power cut at its",
            "exit, and what it left running dies with it; a random subset (drawn from the cut's seed) of the",
            "4 KiB sectors written since the last flush survives. Once every process of that world is reaped,",
            "what survived is mounted (the filesystem replays its journal) and VERIFY runs there, by sh -c, in",
            "a world of its own, with {dir} replaced by its path; exit 0 means passed. Nothing of the command",
            "is alive then, so a server's pid file names no running process, as after a real power cut.",
            "",
            "--at-random (the default) first runs COMMAND and VERIFY once with the power on, counting the",
            "command's flushes F (VERIFY must pass there, unless --no-power-on-check); the first cut then",
            "falls at the command's exit, and each other, drawn with its seed, after or during one of",
            "flushes 1 to F. During flush K, the power goes as the flush arrives: what flush K-1 made durable",
            "survives, with a subset of the sectors written since (by the seed), and the command dies before",
            "the flush returns. Those are the windows where a program has acknowledged something whose sync",
            "has not come yet. --sweep cuts at every one of the 2F+1 points instead. Cut 1's seed is --seed,",
            "the later ones derive from it. Every failing cut prints the line that repeats it alone:",
            "--cuts 1 --after-flushes K (or --during-flush K) --seed S.",
            "",
            "What it simulates is a drive's volatile cache under a real kernel filesystem: not firmware bugs,",
            "and no torn writes within a 4 KiB sector unless --atomic-write-bytes says so. Needs root, /dev/fuse,",
            "a free loop device, mkfs.FS and util-linux's setsid, setpriv and unshare.",
            "",
            "--fail-flush K makes the command's K-th flush fail with EIO or --errno's (and every one after it, or only it",
            "with --fail-once), with the power on, and cuts the power at the command's exit: VERIFY then",
            "shows whether the program acknowledged anything after the failed sync that did not survive.",
            "",
            "explore (also spelled --explore) runs COMMAND once, the power on, while the drive records every",
            "write and flush, then checks every crash state of that run: for each epoch (the writes between two",
            "flushes, and after the last) every prefix of its writes, each write lost with the later ones kept,",
            "and with --atomic-write-bytes under 4096 each written sector torn; states leaving the same image are",
            "checked once, the others fewest writes lost first, up to --max-states (those left out are counted);",
            "--draw N adds up to N states drawn from --seed S (default 1), each write of an epoch of three or",
            "more kept or lost on its own, after those and within the bound; the same seed draws the same states.",
            "On the file model the tree records its operations instead and an epoch ends at each sync; its states",
            "(what the rules made durable, each prefix of the name changes, each write or truncation lost alone,",
            "all kept) are written out with no root, each worker's in a directory of its own, each state from the",
            "one that worker held before (a state of 10,000 names or more is served instead over a FUSE mount of",
            "the worker's own); --draw is the block model's.",
            "COMMAND finds in $FLUSHCHECK_ACKS the path of a file to append its acknowledgements to, a line each,",
            "once what it acknowledges is synced; flushcheck follows it and counts each line from the drive's",
            "flushes completed as it reads it. Each state is mounted (the filesystem replays its journal) and",
            "VERIFY runs there by sh -c, {dir} its path and {acks} a file of the lines acknowledged at or before",
            "the state's flushes, in order. The first failing states are explained by name: what differs from the",
            "same epoch with all its writes kept (on the file model, the operations lost), with the sync that",
            "would have kept it. Progress goes to stderr. --workers N states are checked at once, each on a",
            "loop device and mount point of its own (on the file model, in a directory of its own, the states",
            "written out one at a time), so VERIFY runs up to N times at once (default: twice the machine's",
            "processors on the block model, 1 on the file model, whose workers each hold a copy of their state;",
            "the system property flushcheck.powercut.workers sets another); the output is the same whatever N.",
            "",
            "--damage-blocks N (with explore) checks each state, after it is checked as the crash left it, once",
            "with each of up to N damaged blocks of the files it holds, each alone on the state as the crash left",
            "it: its files cut into blocks of --block-bytes (default 4096), each with each of --kinds (bit-rot: one",
            "bit flipped, drawn from --seed, default 1; zeroed: the block reads as zeros), N of those spread evenly",
            "over them. On the block model the damage is made in the state's image where its file's bytes lie, on",
            "the file model in a copy of the state's directory. VERIFY runs once per state and once per damage;",
            "each failing check names the state and the damage (bit 3 of byte 8200 of db-wal flipped).",
            "",
            "--record DIR (with explore) also keeps the recording in DIR, a new or empty directory: the drive's",
            "image before the command (sparse) and its log of writes and flushes, or the file model's log of",
            "operations, and manifest.txt, whose SHA-256 is the recording's id; the states are still checked",
            "here. replay DIR (also spelled --replay DIR) checks the states of a recording kept so, on this",
            "machine or another (a block model's as root, a file model's as any user; no COMMAND: it does not run",
            "again), with --max-states, --verify and --draw as explore takes them. --shard I/N checks only the",
            "states whose place in the enumeration (from 0) is I-1 modulo N, so that N runs (a CI matrix, an",
            "indexed job) check every state once between them; the others are listed as not checked. flushcheck",
            "powercut merge joins their --json documents.",
            "",
            "--model file simulates files instead, with no root: a tree of files served over FUSE (mounted by",
            "fusermount3), where a file's data is durable at its fsync or fdatasync; by default (--rules",
            "journaled) a sync of anything also makes every earlier create, rename, link and unlink durable,",
            "as ext4, xfs and btrfs do; --rules posix makes a name durable only at its directory's fsync, as",
            "POSIX promises and no more. A flush is one such sync (no syncfs or sync reaches a FUSE server),",
            "and a cut keeps each write since a file's last sync on its own, by the seed. --model auto (the",
            "default) takes the block model where it can run and the file model elsewhere; the first line on",
            "stderr says which.",
            "",
            "With --json: {\"cuts\":[{\"cut\",\"seed\",\"afterFlushes\",\"cutAt\",\"flushes\",\"discardedBytes\",",
            "\"keptBytes\",\"verifyExit\",\"passed\",...}], \"passed\", \"failed\", \"model\", ...}; \"powerOnChecked\"",
            "is false after --no-power-on-check; with --fail-flush, \"mode\" is \"fail-flush\" with \"failFlush\";",
            "\"rules\" is the file model's (null on the block model). The byte columns count data; on the file",
            "model the names column counts the name changes (create, rename, link, unlink) a cut discarded, a",
            "failing cut's row is followed by what it discarded, with the sync it missed (a cut's \"discarded\"",
            "in the JSON lists all of it), and a cut's \"lost\" says what only the model's rules lost.",
            "With --explore --json: {\"mode\":\"explore\", \"model\", \"rules\", \"maxStates\", \"commandExit\",",
            "\"flushes\", \"writes\", \"epochs\", \"acknowledgements\", \"checked\", \"passed\", \"failed\",",
            "\"duplicates\", \"leftOut\", \"states\":[{\"state\",\"lost\",\"passed\",\"failure\",\"explanation\"}],",
            "with --damage-blocks \"damage\":{\"blocks\",\"kinds\",\"blockBytes\",\"seed\"}, \"damagedChecks\" and in",
            "each state with a failing damaged check \"damaged\":[{\"damage\",\"done\",\"failure\"}],",
            "...}, with --record its \"recording\" id; \"rules\" is the file model's (null on the block model),",
            "and there \"writes\" counts operations. With --replay --json: {\"mode\":\"replay\", \"recording\",",
            "\"shard\" (with --shard), \"model\", \"rules\", \"checked\", \"passed\", \"failed\", \"otherShards\", ...,",
            "\"states\":[{\"state\",\"lost\",\"checked\",\"passed\",\"failure\",\"explanation\"}]}."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n", commandListHeading = "%ncommands:%n",
        footer = {"%nexit codes: 0 every verify passed, 1 some verify failed, 2 bad usage, 3 this machine cannot"
            + " run simulated disks (not root, no /dev/fuse, no free loop device) or a disk failed, 4 the output"
            + " could not be written"})
public final class PowerCutCommand implements Job {

    static final int DEFAULT_CUTS = 10;
    static final int DEFAULT_MAX_STATES = 1000;
    static final int MAX_STATES = 1_000_000;
    static final int MAX_CUTS = 100_000;

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Mixin
    DiskOptions disk = new DiskOptions();

    @Mixin
    RulesOption rules = new RulesOption();

    @Option(names = "--atomic-write-bytes", paramLabel = "N",
            description = "the bytes the drive writes atomically: 4096 (default), or 512, 1024, 2048, where a cut may keep"
                    + " part of a 4 KiB write (torn)")
    Integer atomicWriteBytes;

    @Option(names = "--cuts", paramLabel = "N", converter = PowerCutConverters.Cuts.class,
            description = "how many cuts, each on a fresh disk (default " + DEFAULT_CUTS + ")")
    Integer cuts;

    @Option(names = "--after-flushes", paramLabel = "K", converter = PowerCutConverters.AfterFlushes.class,
            description = "cut when the command completes its K-th flush (or at its exit, if it makes fewer)")
    Long afterFlushes;

    @Option(names = "--during-flush", paramLabel = "K", converter = PowerCutConverters.DuringFlush.class,
            description = "cut as the command's K-th flush arrives, keeping what flush K-1 made durable and a subset of the"
                    + " sectors written since, drawn from the cut's seed (or at its exit, if it makes fewer)")
    Long duringFlush;

    @Option(names = "--at-random", arity = "0",
            description = "the first cut at the command's exit, each other after or during a flush drawn from its seed"
                    + " among those a run with the power on makes (default)")
    boolean atRandom;

    @Option(names = "--sweep", arity = "0",
            description = "cut at every point a run with the power on shows: its exit, and after and during each of its"
                    + " F flushes (2F+1 cuts, each taking about as long as that run)")
    boolean sweep;

    @Option(names = "--fail-flush", paramLabel = "K", converter = PowerCutConverters.FailFlush.class,
            description = "the command's K-th flush fails with EIO, and every one after it (or only it, with --fail-once);"
                    + " the power is cut at the command's exit")
    Long failFlush;

    @Option(names = "--fail-once", arity = "0", description = "with --fail-flush: only the K-th flush fails")
    boolean failOnce;

    @Option(names = "--errno", paramLabel = "ERRNO", converter = PowerCutConverters.ErrnoName.class,
            description = "with --fail-flush: what the drive fails the flush with, one of ${COMPLETION-CANDIDATES}"
                    + " (default EIO); the block model's loop device reports any of them to the filesystem as EIO,"
                    + " the file model passes it to the program's fsync")
    Errno errno;

    @Option(names = "--explore", arity = "0",
            description = "the older spelling of flushcheck powercut explore: run the command once, the disk recording,"
                    + " and check every crash state of that run; the command writes its acknowledgements to"
                    + " $FLUSHCHECK_ACKS, a line each, and VERIFY finds those made at or before the state's flushes in"
                    + " the file {acks}")
    boolean explore;

    @Option(names = "--max-states", paramLabel = "N", converter = PowerCutConverters.MaxStates.class,
            description = "with --explore: the most states checked, fewest writes lost first (default "
                    + DEFAULT_MAX_STATES + "); the output counts those left out")
    Integer maxStates;

    @Option(names = "--workers", paramLabel = "N", converter = PowerCutConverters.Workers.class,
            description = "with --explore or --replay: the crash states checked at once, each on a loop device (on the"
                    + " file model, in a directory) of its own, VERIFY running as many times at once (default: twice"
                    + " the machine's processors on the block model, 1 on the file model)")
    Integer workers;

    @Option(names = "--record", paramLabel = "DIR",
            description = "with --explore: also keep the recording in DIR (new or empty), to check it again with --replay")
    Path record;

    @Option(names = "--replay", paramLabel = "DIR",
            description = "the older spelling of flushcheck powercut replay DIR: check the crash states of the recording"
                    + " --record kept in DIR; no COMMAND runs")
    Path replay;

    @Option(names = "--shard", paramLabel = "I/N", converter = PowerCutConverters.ShardValue.class,
            description = "with --replay: check only the I-th of N shares of the states (I from 1); flushcheck powercut"
                    + " merge joins the N runs' --json")
    Shard shard;

    @Option(names = "--draw", paramLabel = "N", converter = PowerCutConverters.Draw.class,
            description = "with --explore or --replay: up to N more states, drawn from --seed (default "
                    + ReplayOutput.Draw.DEFAULT_SEED + ") beyond those enumerated: in an epoch of three writes or more,"
                    + " each write kept or lost on its own")
    Integer draw;

    @Option(names = "--seed", paramLabel = "S", converter = PowerCutConverters.Seed.class,
            description = "the first cut's seed (default: a random one, printed); with --draw, the seed of the states"
                    + " drawn; with --damage-blocks, the seed of the bits flipped")
    Long seed;

    @Option(names = "--damage-blocks", paramLabel = "N", converter = PowerCutConverters.DamageBlocks.class,
            description = "with --explore: each crash state also checked with up to N damaged blocks of the files it"
                    + " holds, each alone (bit rot and zeroed, or --kinds), spread evenly over them")
    Integer damageBlocks;

    @Option(names = "--kinds", paramLabel = "KINDS", split = ",", converter = PowerCutConverters.RestKindName.class,
            description = "with --damage-blocks: the kinds of damage, each block getting each: bit-rot, zeroed, or both"
                    + " (default bit-rot,zeroed)")
    List<DataFault.Kind> kinds;

    @Option(names = "--block-bytes", paramLabel = "B", converter = PowerCutDamageCommand.BlockBytes.class,
            description = "with --damage-blocks: the bytes of a damaged block (default 4096)")
    Integer blockBytes;

    @Option(names = "--verify", paramLabel = "'VERIFY {dir}'",
            description = "the shell command that checks a survivor; {dir} is its path; exit 0 means it passed")
    String verify;

    @Option(names = "--no-power-on-check", arity = "0",
            description = "for programs that may lose acknowledged data on a crash with the power on (an asynchronous"
                    + " commit does): the run with the power on only counts flushes, and VERIFY is not run there")
    boolean noPowerOnCheck;

    @Option(names = "--timeout", paramLabel = "S", converter = PowerCutConverters.Timeout.class,
            description = "seconds each run of COMMAND or VERIFY may take (default 120)")
    Double timeout;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "the program and its arguments, after --")
    List<String> command = new ArrayList<>();

    /** As {@code powercut replay DIR}: the recording's directory is the command's one parameter. */
    boolean replayFromParameter;

    /**
     * Replays a kept recording ({@link Replay}), or checks the options ({@link PowerCutUsage}) and what simulated
     * disks need here, then explores one run ({@link Explore}) or cuts the power under N ({@link Cuts}).
     */
    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        if (replayFromParameter) {
            replay = spec.positionalParameters().get(0).getValue();
        }
        if (replay != null) {
            return new Replay(replay, shard, maxStates == null ? DEFAULT_MAX_STATES : maxStates,
                    ReplayOutput.Draw.of(draw, seed), workers, verify,
                    timeout == null ? 120 : timeout, output).run(out, err, PowerCutUsage.replayUsage(this));
        }
        PowerCutUsage.checkUsage(this);
        DiskModel resolved = disk.model.resolved();
        PowerCutUsage.checkModelOptions(this, resolved);
        String missing = Machine.missingForPrograms(resolved, disk.fs());
        if (missing != null) {
            err.println("flushcheck powercut: simulated disks need " + missing + " here");
            return ExitCodes.INTERNAL;
        }
        if (explore) {
            return new Explore(this).run(out, err);
        }
        return new Cuts(this).run(out, err, resolved);
    }

    /** What the cuts ran on, for the table's first line: {@code ext4 (256 MiB)} or {@code the file model}. */
    String disks() {
        if (disk.model.resolved() == DiskModel.FILE) {
            return "the file model (" + (sizeBytes() >> 20) + " MiB)";
        }
        return String.format(Locale.ROOT, "%s (%d MiB%s)", disk.fs(), sizeBytes() >> 20,
                atomicBytes() == 4096 ? "" : ", " + atomicBytes() + "-byte atomic writes");
    }

    /** The disk's size: {@code --size-mib}, else the filesystem's default (512 MiB for xfs, 256 MiB otherwise). */
    long sizeBytes() {
        return disk.sizeBytes();
    }

    /**
     * {@code --workers}, else the system property {@value CrashStates#WORKERS_PROPERTY}, else the model's default:
     * {@link CrashStates#defaultWorkers()} on the block model, 1 on the file model, whose workers each hold a copy of
     * the state they check (a tree of many files costs each its first state written out whole); a bad system property
     * is a usage error.
     */
    static int workers(Integer given, DiskModel model) throws UsageException {
        if (given != null) {
            return given;
        }
        String set = System.getProperty(CrashStates.WORKERS_PROPERTY);
        if (model == DiskModel.FILE && (set == null || set.isBlank())) {
            return 1;
        }
        try {
            return CrashStates.defaultWorkers();
        } catch (IllegalArgumentException e) {
            throw new UsageException("powercut: " + e.getMessage());
        }
    }

    /** With {@code --damage-blocks}: the damage each state is checked with besides; null without. */
    ExploreOutput.Damage damage() {
        if (damageBlocks == null) {
            return null;
        }
        return ExploreOutput.Damage.of(damageBlocks, kinds == null ? List.of(DataFault.Kind.BIT_ROT, DataFault.Kind.ZEROED)
                : List.copyOf(kinds), blockBytes == null ? PowerCutDamageCommand.DEFAULT_BLOCK_BYTES : blockBytes,
                seed == null ? ReplayOutput.Draw.DEFAULT_SEED : seed);
    }

    int atomicBytes() {
        return atomicWriteBytes == null ? 4096 : atomicWriteBytes;
    }

    /** The errno a failing flush fails with: {@code --errno}, else EIO. */
    Errno failErrno() {
        return errno == null ? Errno.EIO : errno;
    }

    /** The cuts' {@code --json} document. */
    CutsOutput.Document json(List<CutOutcome> outcomes, long first, Long dryFlushes) {
        return new CutsOutput(this).json(outcomes, first, dryFlushes);
    }
}
