package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.HtmlOption;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.postgres.PostgresInstallation;
import io.flushcheck.postgres.PostgresPowerCutMatrix;
import io.flushcheck.postgres.Settings;
import io.flushcheck.report.Json;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code flushcheck powercut postgres [--row SETTINGS]... [--cuts N] [--json]}: what PostgreSQL's settings
 * keep of acknowledged commits when the power goes, by {@link PostgresPowerCutMatrix}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "postgres", synopsisHeading = "usage: ", customSynopsis = "flushcheck powercut postgres [options]",
        description = {"what PostgreSQL's settings keep of acknowledged commits when the power goes, measured on a",
            "simulated disk",
            "",
            "For each row of settings: N times, a copy of a fresh cluster on a fresh simulated disk (ext4) is",
            "started with those settings (in a world of its own that dies with the power: every server process",
            "at once); a client in flushcheck's JVM commits a seeded number of one-row transactions, noting",
            "each one the server acknowledged; the power is cut (a seeded subset of the sectors written since",
            "the last flush survives), and a server started on what survived replays its WAL and is asked",
            "which rows it has. PostgreSQL's documentation says what to expect: with the defaults nothing",
            "acknowledged is lost; synchronous_commit=off may lose the most recent commits but stays",
            "consistent; fsync=off may lose commits and may leave a cluster that does not recover.",
            "Default rows: the defaults, synchronous_commit=off, fsync=off. With --json: {\"seed\", \"rows\":",
            "[{\"settings\",\"cuts\",\"acknowledged\",\"lost\",\"cutsThatLost\",\"maxLostInOneCut\",\"recovered\"}]}.",
            "Needs root, /dev/fuse, a free loop device, mkfs.ext4 and an installed PostgreSQL server (run as",
            "its postgres user)."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n",
        footer = {"%nexit codes: 0 measured, 2 bad usage, 3 this machine cannot run simulated disks or PostgreSQL,"
            + " or a disk or server failed, 4 the output could not be written"})
public final class PowerCutPostgresCommand implements Job {

    static final int DEFAULT_CUTS = 10;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Mixin
    HtmlOption html = new HtmlOption();

    @Option(names = "--cuts", paramLabel = "N", converter = PowerCutConverters.Cuts.class,
            description = "cuts per row of settings (default " + DEFAULT_CUTS + ")")
    Integer cuts;

    @Mixin
    MatrixSeedOption seed = new MatrixSeedOption();

    @Option(names = "--row", paramLabel = "'NAME=VALUE,...'",
            description = "one row of server settings, comma-separated ('' for the defaults); repeat for more rows"
                    + " (default: the defaults, synchronous_commit=off, fsync=off)")
    List<String> rows = new ArrayList<>();

    @Option(names = "--pg-bindir", paramLabel = "DIR",
            description = "the server's bin directory (default: pg_config --bindir, else the newest /usr/lib/postgresql/*/bin)")
    Path bindir;

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        html.check();
        List<List<String>> settings = new ArrayList<>();
        for (String r : rows) {
            try {
                settings.add(Settings.parseRow(r));
            } catch (IllegalArgumentException e) {
                throw new UsageException("powercut postgres --row: " + e.getMessage());
            }
        }
        if (settings.isEmpty()) {
            settings.addAll(PostgresPowerCutMatrix.DEFAULT_ROWS);
        }
        if (!PostgresInstallation.driverAvailable()) {
            throw new UsageException("powercut postgres: the JDBC driver " + PostgresInstallation.DRIVER_CLASS
                    + " is not on the class path: add org.postgresql:postgresql");
        }
        String missing = Machine.missingForDisks("ext4");
        if (missing != null) {
            err.println("flushcheck powercut postgres: simulated disks need " + missing + " here");
            return ExitCodes.INTERNAL;
        }
        PostgresInstallation pg;
        try {
            pg = PostgresInstallation.find(bindir);
        } catch (IOException e) {
            err.println("flushcheck powercut postgres: " + Escape.of(e.getMessage()));
            return ExitCodes.INTERNAL;
        }
        List<String> unknown;
        try {
            unknown = pg.unknownSettings(settings);
        } catch (IOException e) {
            err.println("flushcheck powercut postgres: " + Escape.of(e.getMessage()));
            return ExitCodes.INTERNAL;
        }
        if (!unknown.isEmpty()) {
            throw new UsageException("powercut postgres --row: the server in " + pg.bin() + " has no setting named "
                    + String.join(", ", unknown) + " (postgres --describe-config lists them)");
        }
        int n = cuts == null ? DEFAULT_CUTS : cuts;
        long s = seed.seed();
        if (!output.quiet) {
            err.println("flushcheck powercut postgres: the server in " + pg.bin() + ", " + settings.size() + " rows of " + n
                    + " cuts");
        }
        List<PostgresPowerCutMatrix.Row> measured;
        try {
            measured = PostgresPowerCutMatrix.run(Machine.workDir(), pg, settings, n, s, new Progress(err, output.quiet));
        } catch (IOException | SQLException | RuntimeException e) {
            err.println("flushcheck powercut postgres: " + Escape.of(e.getMessage()));
            return ExitCodes.INTERNAL;
        }
        out.print(output.json ? Json.write(new Document(s, measured)) : "seed " + s + "\n" + PostgresPowerCutMatrix.table(measured));
        out.flush();
        return html.wanted() ? html.write(PostgresMatrixHtml.addTo(new HtmlReport("flushcheck powercut postgres"), measured, s),
                err, ExitCodes.OK) : ExitCodes.OK;
    }

    /**
     * {@code flushcheck powercut postgres --json}: each component a field, in this order. Public, in a package-private
     * class, only so that core's JSON writer may read its components.
     */
    public record Document(long seed, List<PostgresPowerCutMatrix.Row> rows) {

        public Document {
            rows = List.copyOf(rows);
        }
    }

    /** One line per row when its last cut is done: the row's figures and its time. */
    private static final class Progress implements PostgresPowerCutMatrix.Listener {
        private final PrintStream err;
        private final boolean quiet;
        private long acknowledged;
        private long lost;
        private int recovered;
        private long started = System.nanoTime();

        Progress(PrintStream err, boolean quiet) {
            this.err = err;
            this.quiet = quiet;
        }

        @Override
        public void cut(List<String> settings, int cut, int total, long seed, long acknowledgedInCut, long survived,
                        boolean recoveredInCut) {
            acknowledged += acknowledgedInCut;
            lost += acknowledgedInCut - survived;
            recovered += recoveredInCut ? 1 : 0;
            if (cut < total) {
                return;
            }
            if (!quiet) {
                err.printf(Locale.ROOT, "flushcheck powercut postgres: %s: %d cuts, %d acknowledged, %d lost, %d recovered"
                        + " (%.1f s)%n", Settings.describe(settings), total, acknowledged, lost, recovered,
                        (System.nanoTime() - started) / 1e9);
            }
            acknowledged = 0;
            lost = 0;
            recovered = 0;
            started = System.nanoTime();
        }
    }
}
