package io.flushcheck.jupiter;

import java.io.File;
import java.nio.file.Path;
import java.util.Optional;

/** Where the run's reports go: {@value FlushcheckConfig#REPORT_DIR_KEY}, else the build directory's {@code flushcheck}. */
final class ReportDir {

    private ReportDir() {
    }

    static Path of(ConfigReader settings) {
        Optional<String> configured = settings.raw(FlushcheckConfig.REPORT_DIR_KEY);
        return configured.isPresent() ? Path.of(configured.get()) : byDefault();
    }

    /** {@code target/flushcheck} (Maven) or {@code build/flushcheck} (Gradle), else {@code flushcheck-reports} in the temp dir. */
    static Path byDefault() {
        for (String build : new String[] {"target", "build"}) {
            if (new File(build).isDirectory()) {
                return Path.of(build, "flushcheck").toAbsolutePath();
            }
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "flushcheck-reports");
    }
}
