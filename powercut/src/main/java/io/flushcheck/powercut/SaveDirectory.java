package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The directory a recording is saved in ({@code --record DIR}), opened once: made now (its owner's alone), or an
 * empty one this process's user owns and no other can write, never a symbolic link. Its files are made in the
 * directory opened, by their names in it ({@code openat}), each new ({@code O_EXCL}, which never follows a link)
 * and its owner's alone: whatever is renamed or planted meanwhile, a save run as root writes no other file.
 */
final class SaveDirectory implements AutoCloseable {

    private static final int GROUP_OR_OTHER_WRITE = 0022;

    private final Path dir;
    private final SecureDirectoryStream<Path> opened;

    private SaveDirectory(Path dir, SecureDirectoryStream<Path> opened) {
        this.dir = dir;
        this.opened = opened;
    }

    /** Opens {@code dir}, made now if it is missing (its parents too), refusing one a recording is not saved in. */
    static SaveDirectory open(Path dir) throws IOException {
        if (dir.getParent() != null) {
            Files.createDirectories(dir.getParent());
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
        } catch (FileAlreadyExistsException e) {
            // an empty one is taken, once checked below
        }
        Map<String, Object> named = Files.readAttributes(dir, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        String why = refusal(named);
        if (why != null) {
            throw refused(dir, why);
        }
        DirectoryStream<Path> stream = Files.newDirectoryStream(dir);
        if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
            stream.close();
            throw new IOException("cannot save a recording in " + dir + ": this platform cannot make files relative to"
                    + " an open directory");
        }
        try {
            // The directory opened must be the one checked: not another put in its place since.
            Object held = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
            if (!Objects.equals(held, named.get("fileKey"))) {
                throw refused(dir, "it was replaced while it was opened");
            }
            if (secure.iterator().hasNext()) {
                throw refused(dir, "it is not empty");
            }
            return new SaveDirectory(dir, secure);
        } catch (IOException | RuntimeException e) {
            secure.close();
            throw e;
        }
    }

    private static final String ATTRIBUTES = "unix:uid,mode,isSymbolicLink,isDirectory,fileKey";

    /**
     * Why a recording would not be saved in {@code dir}, or null where it would (a directory that does not exist
     * yet is made): said before a run, so that a directory {@link #open} refuses costs no run.
     */
    static String refusal(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        Map<String, Object> named = Files.readAttributes(dir, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        String why = refusal(named);
        if (why == null) {
            try (var entries = Files.list(dir)) {
                return entries.findAny().isPresent() ? "it is not empty" : null;
            }
        }
        return why;
    }

    /** Why a directory of these attributes is not one to save in: a link, another user's, or others may write. */
    private static String refusal(Map<String, Object> named) {
        if ((Boolean) named.get("isSymbolicLink") || !(Boolean) named.get("isDirectory")) {
            return (Boolean) named.get("isSymbolicLink") ? "it is a symbolic link" : "it is not a directory";
        }
        if ((Integer) named.get("uid") != Libc.C.geteuid()) {
            return "it is owned by another user (uid " + named.get("uid") + "), who could replace what is saved in it";
        }
        if (((Integer) named.get("mode") & GROUP_OR_OTHER_WRITE) != 0) {
            return "other users can write it (mode " + Integer.toOctalString((Integer) named.get("mode") & 07777)
                    + "), and could replace what is saved in it";
        }
        return null;
    }

    private static IOException refused(Path dir, String why) {
        return new IOException("cannot save a recording in " + dir + ": " + why);
    }

    /**
     * A new file {@code name} in the directory, for writing, its owner's alone (0600).
     *
     * @throws FileAlreadyExistsException when anything has that name already, a link included: never followed
     */
    FileChannel create(String name) throws IOException {
        SeekableByteChannel c;
        try {
            c = opened.newByteChannel(Path.of(name), Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rw-------")));
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(dir.resolve(name).toString(), null, "cannot save a recording's "
                    + name + ": something was put in " + dir + " under that name while it was saved");
        }
        if (c instanceof FileChannel f) {
            return f;
        }
        c.close();
        throw new IOException("cannot save a recording in " + dir + ": this platform's files are not file channels");
    }

    @Override
    public void close() throws IOException {
        opened.close();
    }
}
