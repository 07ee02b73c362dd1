package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code flushcheck powercut} refuses as bad usage (exit 2) before a disk is made or a command runs: the
 * options each way of running takes (cuts, {@code explore}, {@code replay}), the ones that go together, and
 * those a model does not use.
 */
final class PowerCutUsage {

    private PowerCutUsage() {
    }

    /**
     * The options that only the block model uses are refused on the file model, which has no filesystem of
     * a kernel's and keeps or loses each write whole; the size is refused where the filesystem's mkfs would.
     */
    static void checkModelOptions(PowerCutCommand c, DiskModel resolved) throws UsageException {
        String chosen = c.disk.autoChoice();
        if (resolved == DiskModel.FILE) {
            List<String> given = c.spec.commandLine().getParseResult().matchedOptions().stream()
                    .map(o -> o.longestName()).filter(BLOCK_ONLY::contains).toList();
            if (!given.isEmpty()) {
                throw new UsageException("powercut: " + String.join(" and ", given) + (given.size() == 1 ? " applies" : " apply")
                        + " to the block model, not to the file model" + chosen + "; leave "
                        + (given.size() == 1 ? "it" : "them") + " out, or run as root with --model block");
            }
            return;
        }
        c.rules.check("powercut", c.disk.model);
        c.disk.checkSize("powercut");
    }

    /** What only the block model takes: the file model's crash states are enumerated only, none drawn. */
    private static final List<String> BLOCK_ONLY = List.of("--fs", "--atomic-write-bytes", "--draw");

    static void checkUsage(PowerCutCommand c) throws UsageException {
        List<String> original = c.spec.commandLine().getParseResult().originalArgs();
        int dashes = original.indexOf("--");
        if (c.command.isEmpty() || dashes < 0) {
            throw new UsageException("powercut: put the command after -- (flushcheck powercut --verify 'VERIFY {dir}' "
                    + "-- COMMAND {dir})" + (c.command.isEmpty() ? "" : "; got '" + String.join(" ", c.command) + "' without --"));
        }
        List<String> after = original.subList(dashes + 1, original.size());
        if (!after.equals(c.command)) {
            throw new UsageException("powercut: unexpected argument '" + c.command.get(0) + "' before --");
        }
        if (!String.join(" ", c.command).contains(ProgramCuts.DIR)) {
            throw new UsageException("powercut: the command must name its data directory as {dir}, which becomes the "
                    + "simulated disk's path: " + String.join(" ", c.command));
        }
        if (c.verify == null) {
            throw new UsageException("powercut: --verify 'VERIFY {dir}' is missing: the command that checks what survived");
        }
        if (!c.verify.contains(ProgramCuts.DIR)) {
            throw new UsageException("powercut: --verify must name the survivor's directory as {dir}: " + c.verify);
        }
        if (c.shard != null) {
            throw new UsageException("powercut: --shard checks a share of a kept recording's states: keep it with --explore"
                    + " --record DIR, then check it with --replay DIR --shard I/N");
        }
        if (c.record != null && !c.explore) {
            throw new UsageException("powercut: --record keeps the recording --explore makes; give --explore too");
        }
        if (c.maxStates != null && !c.explore) {
            throw new UsageException("powercut: --max-states bounds the states --explore checks; give --explore too");
        }
        if (c.draw != null && !c.explore) {
            throw new UsageException("powercut: --draw adds states to those --explore checks; give --explore too");
        }
        if (c.workers != null && !c.explore) {
            throw new UsageException("powercut: --workers says how many of the states --explore checks are checked at"
                    + " once; give --explore too");
        }
        if (c.damageBlocks != null && !c.explore) {
            throw new UsageException("powercut: --damage-blocks damages the states --explore checks; give --explore too");
        }
        for (String[] o : new String[][] {{"--kinds", String.valueOf(c.kinds != null)},
                {"--block-bytes", String.valueOf(c.blockBytes != null)}}) {
            if (Boolean.parseBoolean(o[1]) && c.damageBlocks == null) {
                throw new UsageException("powercut: " + o[0] + " says how --damage-blocks N damages the states; give"
                        + " --explore --damage-blocks N too (flushcheck powercut damage sweeps one survivor)");
            }
        }
        if (c.kinds != null && new java.util.LinkedHashSet<>(c.kinds).size() < c.kinds.size()) {
            throw new UsageException("powercut: --kinds names a kind twice: name each of bit-rot and zeroed once");
        }
        if (c.explore && c.seed != null && c.draw == null && c.damageBlocks == null) {
            throw new UsageException("powercut --explore: --seed is the seed of the states --draw N draws and of the bits"
                    + " --damage-blocks N flips; give --draw N or --damage-blocks N too");
        }
        if (c.explore) {
            List<String> given = c.spec.commandLine().getParseResult().matchedOptions().stream()
                    .map(o -> o.longestName()).filter(NOT_EXPLORING::contains).toList();
            if (!given.isEmpty()) {
                throw new UsageException("powercut --explore checks every crash state of one run of the command; it takes no "
                        + String.join(" and no ", given));
            }
        }
        if (c.errno != null && c.failFlush == null) {
            throw new UsageException("powercut: --errno says how --fail-flush K fails; give --fail-flush K too");
        }
        if (c.failOnce && c.failFlush == null) {
            throw new UsageException("powercut: --fail-once says how --fail-flush K fails; give --fail-flush K too");
        }
        List<String> ways = new ArrayList<>();
        for (String[] way : new String[][] {{"--after-flushes", String.valueOf(c.afterFlushes != null)},
                {"--during-flush", String.valueOf(c.duringFlush != null)}, {"--at-random", String.valueOf(c.atRandom)},
                {"--sweep", String.valueOf(c.sweep)}}) {
            if (Boolean.parseBoolean(way[1])) {
                ways.add(way[0]);
            }
        }
        if (ways.size() > 1) {
            throw new UsageException("powercut: " + String.join(" and ", ways) + " are ways to choose the cut; give one");
        }
        if (c.failFlush != null && (c.afterFlushes != null || c.duringFlush != null || c.atRandom || c.sweep)) {
            throw new UsageException("powercut: --fail-flush cuts the power at the command's exit, after the failed flush;"
                    + " it takes no " + ways.get(0));
        }
        if ((c.afterFlushes != null || c.duringFlush != null) && c.noPowerOnCheck) {
            throw new UsageException("powercut: --no-power-on-check applies to the run with the power on, which "
                    + ways.get(0) + " skips; give one");
        }
        if (c.sweep && c.cuts != null) {
            throw new UsageException("powercut: --sweep makes a cut at every point the command shows; it takes no --cuts");
        }
        if (c.atomicWriteBytes != null && !SimulatedDisk.validAtomicWriteBytes(c.atomicWriteBytes)) {
            throw new UsageException("powercut --atomic-write-bytes takes 512, 1024, 2048 or 4096, not " + c.atomicWriteBytes);
        }
        c.disk.checkFsName("powercut");
    }

    /**
     * What {@code --replay} takes: the check's options, not those that make a disk or run the command, which were
     * fixed when it was recorded.
     */
    static List<String> replayUsage(PowerCutCommand c) {
        List<String> given = c.spec.commandLine().getParseResult().matchedOptions().stream()
                .map(o -> o.longestName()).filter(o -> !REPLAY_OPTIONS.contains(o)).toList();
        List<String> problems = new ArrayList<>();
        if (!given.isEmpty()) {
            problems.add("--replay checks a kept recording, made with its disk and command; it takes no "
                    + String.join(" and no ", given));
        }
        if (c.seed != null && c.draw == null) {
            problems.add("--seed is the seed of the states --draw N draws; give --draw N too");
        }
        if (!c.command.isEmpty()) {
            problems.add("--replay runs no command: the recording holds what it wrote; got '" + String.join(" ", c.command)
                    + "'");
        }
        return problems;
    }

    static final List<String> REPLAY_OPTIONS = List.of("--replay", "--shard", "--max-states", "--draw",
            "--seed", "--workers", "--verify", "--timeout", "--json", "--quiet");

    /** The options that choose or shape cuts, which --explore does not make. */
    static final List<String> NOT_EXPLORING = List.of("--cuts", "--after-flushes", "--during-flush",
            "--at-random", "--sweep", "--fail-flush", "--fail-once", "--errno", "--no-power-on-check");

    /** A {@code --record DIR} that the save would refuse is a usage error before the command runs, not after. */
    static void refuseRecordDirectory(PowerCutCommand c) throws UsageException {
        if (c.record == null) {
            return;
        }
        String why;
        try {
            why = CrashStates.refusedSaveDirectory(c.record);
        } catch (IOException e) {
            why = String.valueOf(e.getMessage());
        }
        if (why != null) {
            throw new UsageException("powercut --record " + Escape.of(c.record.toString()) + ": a recording is not saved"
                    + " there: " + why);
        }
    }
}
