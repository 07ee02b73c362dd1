package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --rules journaled|posix}: the file model's rules, for every power-cut command that runs on it. A command
 * adds it as a {@code @Mixin} and calls {@link #check} once the model is resolved, so that each refuses it on the
 * block model with the same words.
 */
final class RulesOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--rules", paramLabel = "RULES", converter = PowerCutConverters.Rules.class,
            description = "the file model's rules: journaled (default; a sync of anything commits every earlier name"
                    + " change, as ext4, xfs and btrfs do) or posix (a name is durable only at its directory's fsync)")
    FileRules rules = FileRules.JOURNALED;

    /**
     * Refuses {@code --rules} (exit 2) when the disks are not the file model's: the block model has its
     * filesystem's rules, and a rule given there would be silently ignored.
     *
     * @param command the command's name in the message: {@code powercut} or {@code powercut sqlite}
     * @param asked   the model asked for, auto included
     */
    void check(String command, DiskModel asked) throws UsageException {
        if (asked.resolved() == DiskModel.FILE || mixee == null
                || !mixee.commandLine().getParseResult().hasMatchedOption("--rules")) {
            return;
        }
        String chosen = asked == DiskModel.AUTO ? " (--model auto chose it here: " + DiskModel.autoReason() + ")" : "";
        throw new UsageException(command + ": --rules applies to the file model, not to the block model" + chosen
                + ", which has its filesystem's rules; leave it out, or add --model file");
    }

    /** The rules the JSON states: their word on the file model, null on the block model, which has none of its own. */
    String jsonWord(DiskModel resolved) {
        return resolved == DiskModel.FILE ? rules.word() : null;
    }
}
