package io.flushcheck.cli.powercut;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Python store and its check (test resources {@code store.py}, {@code check.py}) copied into a test's
 * directory, with what the command needs to run them under a power cut: mount tools, /dev/fuse, setsid and
 * Debian's python3 (skipped with the reason on a laptop, failed with flushcheck.missing-tool=fail); the file
 * model's without root ({@link #forFileModel}).
 *
 * @param store {@code store.py DIR ACKS MODE VALUES}
 * @param check {@code check.py DIR ACKS}
 */
record PythonStore(Path store, Path check) {

    static final String PYTHON = "/usr/bin/python3";

    static PythonStore in(Path dir) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.requireCommand("setsid", "util-linux");
        Requirements.require(Files.isExecutable(Path.of(PYTHON)), PYTHON + " (apt-get install python3)");
        return new PythonStore(copy(dir, "store.py"), copy(dir, "check.py"));
    }

    /**
     * As {@link #in}, for the file model, which needs no root: /dev/fuse, and without root fusermount3 or fuse 2's
     * fusermount; setsid, setpriv and unshare for the worlds the command and each verify run in.
     */
    static PythonStore forFileModel(Path dir) throws IOException {
        Requirements.requireFileModel();
        for (String tool : new String[] {"setsid", "setpriv", "unshare"}) {
            Requirements.requireCommand(tool, "util-linux");
        }
        Requirements.require(Files.isExecutable(Path.of(PYTHON)), PYTHON + " (apt-get install python3)");
        return new PythonStore(copy(dir, "store.py"), copy(dir, "check.py"));
    }

    private static Path copy(Path dir, String name) throws IOException {
        try (InputStream in = PythonStore.class.getResourceAsStream(name)) {
            Path p = dir.resolve(name);
            Files.write(p, in.readAllBytes());
            return p;
        }
    }
}
