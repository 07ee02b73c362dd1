package io.flushcheck.powercut.internal.cleanup;

import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Deletes a disk's work directory: only one this user owns, each entry relative to its directory's open
 * descriptor ({@code openat} with {@code O_NOFOLLOW}, {@code unlinkat}: {@link SecureDirectoryStream}), never
 * following a link nor walking a path another user could change between a look and a deletion; without
 * descending into a filesystem still mounted below it (whose files are not the directory's to delete); a
 * directory a workload left without its owner's write permission is given it back first; and with the markers
 * that let a later run find it deleted last, so that whatever cannot go now can still be found and removed then.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WorkDirectory {

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;
    private static final Set<PosixFilePermission> OWNER = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
    /** How Linux's JDK writes a file key: {@code (dev=HEX,ino=DECIMAL)}. */
    private static final Pattern KEY = Pattern.compile("\\(dev=([0-9a-f]+),ino=\\d+\\)");

    private WorkDirectory() {
    }

    /**
     * Deletes {@code dir}, the files named {@code markersLast} (directly in it) after everything else. A
     * {@code dir} that is a link, or not this user's, is left as it is.
     *
     * @return null when all of it is gone (or it was not there); otherwise what stayed and why, as a phrase
     */
    public static String delete(Path dir, List<String> markersLast) {
        Path abs = dir.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        if (parent == null || !Files.exists(abs, NOFOLLOW)) {
            return null;
        }
        List<String> stayed = new ArrayList<>();
        Path name = abs.getFileName();
        try (DirectoryStream<Path> up = Files.newDirectoryStream(parent)) {
            if (!(up instanceof SecureDirectoryStream<Path> in)) {
                return "left " + abs + " (this platform deletes by path only, which another user could steer)";
            }
            BasicFileAttributes seen = Files.readAttributes(abs, BasicFileAttributes.class, NOFOLLOW);
            if (!seen.isDirectory()) {
                return "left " + abs + " (not a directory: " + (seen.isSymbolicLink() ? "a link" : "a file") + ")";
            }
            if ((int) Files.getAttribute(abs, "unix:uid", NOFOLLOW) != Libc.C.geteuid()) {
                return "left " + abs + " (not this user's)";
            }
            try (SecureDirectoryStream<Path> top = in.newDirectoryStream(name, NOFOLLOW)) {
                BasicFileAttributes opened = top.getFileAttributeView(BasicFileAttributeView.class).readAttributes();
                if (!opened.fileKey().equals(seen.fileKey())) {
                    return "left " + abs + " (replaced while it was being deleted)";
                }
                clear(top, abs, device(opened), markersLast, stayed);
                if (stayed.isEmpty()) {
                    for (String marker : markersLast) {
                        remove(top, Path.of(marker), abs.resolve(marker), stayed);
                    }
                }
            }
            if (stayed.isEmpty()) {
                in.deleteDirectory(name);
                Leftovers.forget(abs);
            }
        } catch (NoSuchFileException e) {
            return stayed.isEmpty() ? null : "left " + String.join(", ", stayed);
        } catch (IOException e) {
            stayed.add(abs + " (" + reason(e) + ")");
        }
        return stayed.isEmpty() ? null : "left " + String.join(", ", stayed);
    }

    /** Deletes what {@code dir} (at {@code where}) holds, but {@code keep}, staying on {@code device}. */
    private static void clear(SecureDirectoryStream<Path> dir, Path where, String device, List<String> keep,
                              List<String> stayed) {
        List<Path> names = new ArrayList<>();
        for (Path entry : dir) {
            names.add(entry.getFileName());
        }
        for (Path name : names) {
            if (keep.contains(name.toString())) {
                continue;
            }
            Path at = where.resolve(name.toString());
            try {
                BasicFileAttributes a = dir.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW)
                        .readAttributes();
                if (!a.isDirectory()) {
                    dir.deleteFile(name); // unlinkat: a link goes, never what it names
                    continue;
                }
                try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, NOFOLLOW)) {
                    BasicFileAttributes opened = sub.getFileAttributeView(BasicFileAttributeView.class)
                            .readAttributes();
                    if (!opened.fileKey().equals(a.fileKey())) {
                        stayed.add(at + " (replaced while it was being deleted)");
                        continue;
                    }
                    String d = device(opened);
                    if (d == null || !d.equals(device)) {
                        stayed.add(at + " (still mounted)");
                        continue;
                    }
                    // A workload may leave a directory read-only (chmod 555): its owner may change that, and must to
                    // delete what it holds. fchmod on the descriptor just opened, never by name.
                    PosixFileAttributeView view = sub.getFileAttributeView(PosixFileAttributeView.class);
                    Set<PosixFilePermission> mode = view.readAttributes().permissions();
                    if (!mode.containsAll(OWNER)) {
                        mode.addAll(OWNER);
                        view.setPermissions(mode);
                    }
                    int before = stayed.size();
                    clear(sub, at, device, List.of(), stayed);
                    if (stayed.size() > before) {
                        continue;
                    }
                }
                dir.deleteDirectory(name);
            } catch (NoSuchFileException e) {
                // gone already
            } catch (IOException e) {
                stayed.add(at + " (" + reason(e) + ")");
            }
        }
    }

    private static void remove(SecureDirectoryStream<Path> dir, Path name, Path at, List<String> stayed) {
        try {
            dir.deleteFile(name);
        } catch (NoSuchFileException e) {
            // never made, or gone already
        } catch (IOException e) {
            stayed.add(at + " (" + reason(e) + ")");
        }
    }

    /** The device of an open directory, from its file key; null where the key does not say it. */
    private static String device(BasicFileAttributes a) {
        Matcher m = KEY.matcher(String.valueOf(a.fileKey()));
        return m.matches() ? m.group(1) : null;
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName()
                : e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
    }
}
