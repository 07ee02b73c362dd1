package io.flushcheck.guest;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What to run in each environment.
 *
 * @param testClasses  fully qualified test classes to run with the JUnit Platform launcher (may be empty)
 * @param probe        also probe the data directory with flushcheck
 * @param alwaysProbe  measure costs even where the storage facts decide the verdict (tmpfs): what a comparison needs
 * @param rounds       rounds per probe mode
 * @param modes        probe modes
 * @param hostDir      the host directory under which the host run's data and the bind mounts' sources are
 *                     created (fresh subdirectories, removed afterwards); should be on the disk the host uses
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record GuestRequest(List<String> testClasses, boolean probe, boolean alwaysProbe, int rounds,
                           List<SyncMode> modes, Path hostDir) {

    public GuestRequest {
        testClasses = List.copyOf(testClasses);
        modes = List.copyOf(modes);
        if (rounds < 1 || rounds > ProbePlan.MAX_ROUNDS) {
            throw new IllegalArgumentException("rounds " + rounds + " is out of range: use 1 to " + ProbePlan.MAX_ROUNDS);
        }
    }

    /** Runs the classes, no probe; host data under the working directory. */
    public static GuestRequest tests(Class<?>... classes) {
        List<String> names = new ArrayList<>();
        for (Class<?> c : classes) {
            names.add(c.getName());
        }
        return new GuestRequest(names, false, false, 64, ProbePlan.verification().modes(), defaultHostDir());
    }

    /** Probes only, with every measurable mode: what {@code flushcheck guests} does. */
    public static GuestRequest probeOnly(int rounds) {
        return new GuestRequest(List.of(), true, true, rounds, SyncMode.linux(), defaultHostDir());
    }

    public GuestRequest withProbe(boolean on, int r) {
        return new GuestRequest(testClasses, on, on, r, modes, hostDir);
    }

    public GuestRequest withModes(List<SyncMode> m) {
        return new GuestRequest(testClasses, probe, alwaysProbe, rounds, m, hostDir);
    }

    public GuestRequest withHostDir(Path dir) {
        return new GuestRequest(testClasses, probe, alwaysProbe, rounds, modes, dir);
    }

    /** The working directory: where a checkout, and so the host's real disk, usually is. */
    static Path defaultHostDir() {
        return Path.of("").toAbsolutePath();
    }

    /**
     * The arguments of {@link GuestMain} for this request, for a {@link GuestPlace} to run it with: the environment's
     * name, its data directory and the result file, as that place's JVM sees them.
     */
    public List<String> guestArgs(String environment, String dataDir, String outFile) {
        List<String> a = new ArrayList<>(List.of("--environment", environment, "--data", dataDir, "--out", outFile));
        if (probe) {
            a.add("--probe");
            if (alwaysProbe) {
                a.add("--always-probe");
            }
            a.add("--rounds");
            a.add(String.valueOf(rounds));
            List<String> ids = new ArrayList<>();
            modes.forEach(m -> ids.add(m.id()));
            a.add("--modes");
            a.add(String.join(",", ids));
        }
        if (!testClasses.isEmpty()) {
            a.add("--tests");
            a.add(String.join(",", testClasses));
        }
        return a;
    }
}
