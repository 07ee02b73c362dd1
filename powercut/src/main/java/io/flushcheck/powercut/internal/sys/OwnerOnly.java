package io.flushcheck.powercut.internal.sys;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Files and directories only their owner may read or enter, made without following a link: crash images and the
 * places they are mounted hold a workload's data, which no other user of the machine is to read.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OwnerOnly {

    /** Mode 0600. */
    public static final FileAttribute<Set<PosixFilePermission>> FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    /** Mode 0700. */
    public static final FileAttribute<Set<PosixFilePermission>> DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private OwnerOnly() {
    }

    /**
     * {@code file} opened to write from its start, made 0600 where it is new; a link there is refused (ELOOP), not
     * followed. A file that was there keeps its mode: in a directory of the owner's, it is one this owner made.
     */
    public static FileChannel write(Path file, StandardOpenOption... more) throws IOException {
        Set<java.nio.file.OpenOption> options = new java.util.HashSet<>(Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS));
        options.addAll(Set.of(more));
        return FileChannel.open(file, options, FILE);
    }

    /** A directory made now in {@code parent}, with a name no one can guess beforehand, mode 0700 (mkdtemp). */
    public static Path directory(Path parent, String prefix) throws IOException {
        return Files.createTempDirectory(parent, prefix, DIRECTORY);
    }
}
