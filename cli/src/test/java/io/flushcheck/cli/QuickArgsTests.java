package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.probe.ProbeCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@link QuickArgs} reads what it takes exactly as picocli does, and leaves everything else to picocli. */
class QuickArgsTests {

    private static CommandLine picocli() {
        return CommandLines.commandLine(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    /** The state of a probe as options and paths set it. */
    private static String state(ProbeCommand p) {
        return "json=" + p.output.json + " quiet=" + p.output.quiet + " histogram=" + p.histogram + " perRound=" + p.perRound
                + " alwaysProbe=" + p.alwaysProbe + " require=" + p.require + " paths=" + p.pathArgs
                + " modes=" + p.planOptions.modes + " rounds=" + p.planOptions.rounds + " blockSize=" + p.blockSize
                + " min=" + p.limits.minFlushesPerSync + " fast=" + p.limits.suspiciousMicros;
    }

    @Test
    void pathsAndFlagsAreReadWithoutPicocliAsPicocliReadsThem() {
        for (List<String> args : List.<List<String>>of(List.of(), List.of("/dev/shm"), List.of("--json", "/tmp"),
                List.of("/dev/shm", "--json", "-q", "/tmp", "x y"), List.of("--quiet", "--histogram", "--per-round-counters",
                        "--always-probe", "--require-real-flush", "relative/dir"), List.of("--json", "--json"))) {
            ProbeCommand quick = QuickArgs.probe(args);
            assertThat(quick).as("%s needs no picocli", args).isNotNull();
            CommandLine cl = picocli();
            cl.parseArgs(args.toArray(new String[0]));
            assertThat(state(quick)).as("%s", args).isEqualTo(state(cl.getCommand()));
        }
    }

    @Test
    void everythingElseGoesToPicocli() {
        for (List<String> args : List.of(List.of("--rounds", "10", "/tmp"), List.of("--modes=no-sync"), List.of("--help"),
                List.of("-h"), List.of("--version"), List.of("--", "/tmp"), List.of("/tmp", "--frobnicate"),
                List.of("--json=false"), List.of("@args"), List.of(""), List.of("-"), List.of("/tmp", "-q=1"))) {
            assertThat(QuickArgs.probe(args)).as("%s", args).isNull();
        }
    }

    @Test
    void withoutItsCommandsPicocliReadsALineThatNamesNoneAsWithThem() {
        for (List<String> args : List.<List<String>>of(List.of("--rounds", "10", "/tmp"), List.of("--modes=no-sync", "-q"),
                List.of("--", "/tmp", "-x"), List.of("--block-size", "64k", "--min-flushes-per-sync", "0.9", "a", "b"))) {
            assertThat(CommandLines.needsCommands(args)).as("%s", args).isFalse();
            CommandLine bare = CommandLines.commandLine(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
            bare.parseArgs(args.toArray(new String[0]));
            CommandLine full = picocli();
            full.parseArgs(args.toArray(new String[0]));
            assertThat(state(bare.getCommand())).as("%s", args).isEqualTo(state(full.getCommand()));
        }
        for (List<String> args : List.<List<String>>of(List.of("--help"), List.of("-h"), List.of("-qh"), List.of("/tmp", "sqlite"),
                List.of("--json", "guests"), List.of("probe", "/tmp"))) {
            assertThat(CommandLines.needsCommands(args)).as("%s", args).isTrue();
        }
    }

    @Test
    void everySubcommandNameGoesToPicocli() {
        assertThat(picocli().getSubcommands().keySet()).containsExactlyElementsOf(Main.COMMANDS).allSatisfy(name -> {
            assertThat(QuickArgs.probe(List.of(name))).as(name).isNull();
            assertThat(QuickArgs.probe(List.of("/tmp", name))).as("/tmp %s", name).isNull();
        });
    }
}
