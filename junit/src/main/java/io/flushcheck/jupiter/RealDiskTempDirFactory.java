package io.flushcheck.jupiter;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Creates {@code @TempDir} directories on storage that really flushes. Use it per directory,
 * {@code @TempDir(factory = RealDiskTempDirFactory.class)}, or for the whole suite with
 * {@code junit.jupiter.tempdir.factory.default=io.flushcheck.jupiter.RealDiskTempDirFactory}.
 *
 * <p>It takes the first of these places whose verdict is REAL_FLUSH: the key
 * {@value FlushcheckConfig#TEMPDIR_KEY}, the JDK's temp dir ({@code java.io.tmpdir} as the JVM started), the build directory ({@code target/} or
 * {@code build/} under the working directory), the working directory. When it has to pass over the JVM
 * temp dir it says where it went, once per run, on stderr. Where no place is REAL_FLUSH it takes the first
 * UNKNOWN one (no device counters to show the flushes), unless {@value FlushcheckConfig#ON_UNKNOWN_KEY} is
 * {@code fail}; when nothing is left it fails with each place's reason.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class RealDiskTempDirFactory implements TempDirFactory {

    private static final Set<String> ANNOUNCED = ConcurrentHashMap.newKeySet();

    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext) throws Exception {
        ConfigReader settings = new ConfigReader(extensionContext);
        CheckOptions options = new CheckOptions(settings.verificationPlan(), settings.thresholds(), false, true);
        List<String> refused = new ArrayList<>();
        Path firstUnknown = null;
        for (Path candidate : candidates(settings)) {
            CheckResult r = CheckCache.check(extensionContext, candidate, options, "RealDiskTempDirFactory");
            if (r.verdict() == Verdict.REAL_FLUSH) {
                announce(candidate, refused);
                return Files.createTempDirectory(candidate, "junit-flushcheck-");
            }
            if (r.verdict() == Verdict.UNKNOWN && firstUnknown == null) {
                firstUnknown = candidate;
            }
            refused.add(Escape.of(candidate) + " is " + r.verdict() + " (" + Escape.of(r.judgement().summary()) + ")");
        }
        // Where nothing can be shown to flush (no device counters: macOS, some containers), an UNKNOWN
        // place is the best there is, unless the user asked UNKNOWN to fail.
        FlushPolicy onUnknown = settings.policy(FlushPolicy.CONFIGURED, FlushcheckConfig.ON_UNKNOWN_KEY, FlushPolicy.WARN);
        if (firstUnknown != null && onUnknown != FlushPolicy.FAIL) {
            announce(firstUnknown, refused);
            return Files.createTempDirectory(firstUnknown, "junit-flushcheck-");
        }
        throw new ExtensionConfigurationException("RealDiskTempDirFactory: no place for temp dirs really flushes: "
                + String.join("; ", refused) + ". Set " + FlushcheckConfig.TEMPDIR_KEY + " to a directory on a real disk.");
    }

    private static void announce(Path chosen, List<String> refused) {
        if (!refused.isEmpty() && ANNOUNCED.add(chosen.toString())) {
            System.err.println("flushcheck: @TempDir directories go to " + Escape.of(chosen) + " because " + String.join("; ", refused));
        }
    }

    private static List<Path> candidates(ConfigReader settings) {
        Set<Path> out = new LinkedHashSet<>();
        settings.raw(FlushcheckConfig.TEMPDIR_KEY).ifPresent(p -> {
            Path dir = Path.of(p);
            if (!Files.isDirectory(dir)) {
                throw new ExtensionConfigurationException(FlushcheckConfig.TEMPDIR_KEY + " = '" + Escape.of(p)
                        + "' is not an existing directory");
            }
            out.add(dir.toAbsolutePath());
        });
        // Where the JDK creates temp files, which a java.io.tmpdir set after start-up does not change.
        out.add(Flushcheck.jdkTempDir());
        for (String build : List.of("target", "build")) {
            Path dir = Path.of(build).toAbsolutePath();
            if (Files.isDirectory(dir)) {
                out.add(dir);
            }
        }
        out.add(Path.of("").toAbsolutePath());
        return new ArrayList<>(out);
    }
}
