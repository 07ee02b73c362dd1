package io.flushcheck.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.storage.MountTable;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/** Checks of real directories as the environment tests make them: fresh directories, no leftovers, findings by code. */
public final class Checks {

    private Checks() {
    }

    /** {@code base/name}, emptied unless something is mounted on it. */
    public static Path freshDir(Path base, String name) throws IOException {
        Path d = base.resolve(name).toAbsolutePath();
        if (Files.isDirectory(d) && !MountTable.live().mountOf(d.toString()).mountPoint().equals(d.toString())) {
            try (var s = Files.walk(d)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return Files.createDirectories(d);
    }

    /** Checks {@code dir} and asserts that the check left no probe file there. */
    public static CheckResult check(Path dir, CheckOptions options) {
        CheckResult r = Flushcheck.check(dir, options, ProbeListener.NONE);
        assertThat(ProbeLeftovers.in(dir)).as("probe files left in %s", dir).isEmpty();
        return r;
    }

    public static List<FindingCode> codes(CheckResult r) {
        return r.judgement().findings().stream().map(Finding::code).toList();
    }

    /** The finding with {@code code}; fails naming all findings when there is none. */
    public static Finding finding(CheckResult r, FindingCode code) {
        return r.judgement().findings().stream().filter(f -> f.code() == code).findFirst()
                .orElseThrow(() -> new AssertionError("no " + code + " in " + r.judgement().findings()));
    }
}
