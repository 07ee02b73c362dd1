package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.HtmlOption;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.report.Json;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.PowerCutMatrix;
import io.flushcheck.sqlite.PowerCutMatrixHtml;
import io.flushcheck.sqlite.SqliteDriver;
import io.flushcheck.sqlite.Synchronous;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code flushcheck powercut sqlite [--cuts N] [--json]}: what SQLite's journal modes and synchronous
 * levels keep when the power goes, by {@link PowerCutMatrix}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "sqlite", synopsisHeading = "usage: ", customSynopsis = "flushcheck powercut sqlite [options]",
        description = {"what SQLite's settings keep when the power goes, measured on a simulated disk",
            "",
            "For journal modes DELETE and WAL, each with synchronous OFF, NORMAL, FULL and EXTRA: N times, a",
            "fresh database on a fresh simulated disk (ext4) takes a seeded number of one-row commits, the power",
            "is cut (a seeded subset of the sectors written since the last flush survives), and the surviving",
            "database is opened and counted against the commits that had returned, and checked with PRAGMA",
            "integrity_check. SQLite's documentation says what to expect: WAL with FULL loses nothing, WAL",
            "with NORMAL may lose commits since the last checkpoint, DELETE with FULL may roll back the last",
            "commit (the journal's deletion is not synced; EXTRA syncs it), and only OFF may corrupt.",
            "The block model needs root, /dev/fuse, a free loop device and mkfs.ext4; --model file needs none of",
            "them, and keeps what SQLite's syncs made durable under --rules journaled (default, as ext4) or posix.",
            "With --json: {\"rules\", \"seed\", \"rows\":[{\"journalMode\",\"synchronous\",\"cuts\",\"acknowledged\",",
            "\"lost\",\"cutsThatLost\",\"maxLostInOneCut\",\"corrupt\"}]}; \"rules\" is null on the block model."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n",
        footer = {"%nexit codes: 0 measured, 2 bad usage, 3 this machine cannot run simulated disks or a disk"
            + " failed, 4 the output could not be written"})
public final class PowerCutSqliteCommand implements Job {

    static final int DEFAULT_CUTS = 20;

    static final List<JournalMode> MODES = List.of(JournalMode.DELETE, JournalMode.WAL);
    static final List<Synchronous> LEVELS = List.of(Synchronous.OFF, Synchronous.NORMAL, Synchronous.FULL,
            Synchronous.EXTRA);

    @Mixin
    OutputOptions output = new OutputOptions();

    @Mixin
    HtmlOption html = new HtmlOption();

    @Option(names = "--cuts", paramLabel = "N", converter = PowerCutConverters.Cuts.class,
            description = "cuts per journal mode and synchronous level (default " + DEFAULT_CUTS + ")")
    Integer cuts;

    @Option(names = "--model", paramLabel = "MODEL", converter = PowerCutConverters.Model.class,
            description = "what the disks simulate: block (ext4 on a drive with a volatile cache; root), file (files"
                    + " durable at their fsync, names as --rules says; no root), or auto (default): block where it"
                    + " can run, file elsewhere")
    DiskModel model = DiskModel.AUTO;

    @Mixin
    RulesOption rules = new RulesOption();

    @Mixin
    MatrixSeedOption seed = new MatrixSeedOption();

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        html.check();
        DiskModel resolved = model.resolved();
        rules.check("powercut sqlite", model);
        String missing = Machine.missingForDisks(resolved, "ext4");
        if (missing != null) {
            err.println("flushcheck powercut sqlite: simulated disks need " + missing + " here");
            return ExitCodes.INTERNAL;
        }
        if (!output.quiet) {
            err.println("flushcheck powercut sqlite: " + Machine.modelLine(model, "ext4", rules.rules));
        }
        if (!SqliteDriver.available()) {
            throw new UsageException("powercut sqlite: the JDBC driver org.sqlite.JDBC is not on the class path: add org.xerial:sqlite-jdbc");
        }
        int n = cuts == null ? DEFAULT_CUTS : cuts;
        long s = seed.seed();
        List<PowerCutMatrix.Row> rows;
        try {
            rows = PowerCutMatrix.run(Machine.workDir(), resolved, rules.rules, MODES, LEVELS, n, s, new Progress(err, output.quiet, n));
        } catch (IOException | SQLException | RuntimeException e) {
            err.println("flushcheck powercut sqlite: " + Escape.of(e.getMessage()));
            return ExitCodes.INTERNAL;
        }
        out.print(output.json ? Json.write(json(rules.jsonWord(resolved), rows, s)) : "seed " + s + "\n" + PowerCutMatrix.table(rows));
        out.flush();
        return html.wanted() ? html.write(PowerCutMatrixHtml.addTo(new HtmlReport("flushcheck powercut sqlite"), rows, s), err,
                ExitCodes.OK) : ExitCodes.OK;
    }

    static Document json(String rules, List<PowerCutMatrix.Row> rows, long seed) {
        return new Document(rules, seed, rows);
    }

    /**
     * {@code flushcheck powercut sqlite --json}: each component a field, in this order. Public, in a package-private
     * class, only so that core's JSON writer may read its components.
     *
     * @param rules the file model's rules, {@code journaled} or {@code posix}; null on the block model
     */
    public record Document(String rules, long seed, List<PowerCutMatrix.Row> rows) {

        public Document {
            rows = List.copyOf(rows);
        }
    }

    /** One line per cell when its last cut is done: the cell's figures so far and its time. */
    private static final class Progress implements PowerCutMatrix.Listener {
        private final PrintStream err;
        private final boolean quiet;
        private final int cuts;
        private int cell;
        private long acknowledged;
        private long lost;
        private int corrupt;
        private long started = System.nanoTime();

        Progress(PrintStream err, boolean quiet, int cuts) {
            this.err = err;
            this.quiet = quiet;
            this.cuts = cuts;
        }

        @Override
        public void cut(JournalMode journalMode, Synchronous synchronous, int cut, int total, long seed,
                        long acknowledgedInCut, long survived, boolean intact) {
            acknowledged += acknowledgedInCut;
            lost += acknowledgedInCut - survived;
            corrupt += intact ? 0 : 1;
            if (cut < total) {
                return;
            }
            cell++;
            if (!quiet) {
                err.printf(Locale.ROOT, "flushcheck powercut sqlite: [%d/%d] %s/%s: %d cuts, %d acknowledged, %d lost, "
                                + "%d corrupt (%.1f s)%n", cell, MODES.size() * LEVELS.size(), journalMode, synchronous, cuts,
                        acknowledged, lost, corrupt, (System.nanoTime() - started) / 1e9);
            }
            acknowledged = 0;
            lost = 0;
            corrupt = 0;
            started = System.nanoTime();
        }
    }
}
