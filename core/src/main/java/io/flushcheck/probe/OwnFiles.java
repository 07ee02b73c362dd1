package io.flushcheck.probe;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The one registry of every file flushcheck creates: the probe files and the SQLite matrix's databases
 * with the -journal, -wal and -shm files SQLite makes next to them.
 *
 * <p>The rules, for every such file:
 * <ul>
 *   <li>Its name carries the creating process's PID: {@code .flushcheck-<pid>-<kind>-<12 hex><suffix>}.</li>
 *   <li>The name is registered <em>before</em> the file is created ({@link #reserve}), and the creation is
 *       then settled ({@link #settle}): created, or not (EEXIST, EROFS...). So no instant exists at which a
 *       file of ours exists unregistered.</li>
 *   <li>It is created exclusively, mode 0600, never through a symlink. SQLite gives a database's -journal,
 *       -wal and -shm the database file's permissions, so the matrix creates the empty database itself.</li>
 *   <li>It is removed when its user ends ({@link #remove}, in a finally), and by a shutdown hook when the JVM
 *       stops (SIGTERM, SIGINT, System.exit). Once the hook has started no name can be reserved, and the
 *       hook waits (up to {@link #HOOK_WAIT_MILLIS} ms) for creations in flight to settle: it removes what
 *       was created, and never a file whose creation failed, which is someone else's.</li>
 *   <li>SIGKILL runs no hook: {@link #sweep} removes, when a probe or a matrix starts in a directory, the
 *       files whose PID is no longer alive, and says which.</li>
 * </ul>
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OwnFiles {

    static final String PREFIX = ".flushcheck-";
    static final String PROBE_SUFFIX = ".probe";
    static final String DATABASE_SUFFIX = ".db";
    /** The files SQLite may create next to a database, named after it. */
    static final String[] SQLITE_SIBLINGS = {"-journal", "-wal", "-shm"};
    static final long HOOK_WAIT_MILLIS = 2000;
    private static final int RANDOM_HEX = 12;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Object LOCK = new Object();
    /** Reserved names; true once created. Guarded by LOCK. */
    private static final Map<Path, Boolean> LIVE = new LinkedHashMap<>();
    /** True once the shutdown hook has started. Guarded by LOCK. */
    private static boolean closing;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(new Hook(), "flushcheck-file-cleanup"));
    }

    private OwnFiles() {
    }

    /** A fresh probe-file name inside {@code dir} (already resolved); nothing exists under it yet. */
    static Path probeName(Path dir, String mode) {
        return dir.resolve(PREFIX + ProcessHandle.current().pid() + "-" + mode + "-" + randomHex() + PROBE_SUFFIX);
    }

    /** A fresh SQLite database name inside {@code dir}. */
    public static Path databaseName(Path dir) {
        return dir.resolve(PREFIX + ProcessHandle.current().pid() + "-sqlite-" + randomHex() + DATABASE_SUFFIX);
    }

    private static String randomHex() {
        byte[] r = new byte[RANDOM_HEX / 2];
        RANDOM.nextBytes(r);
        return HexFormat.of().formatHex(r);
    }

    /**
     * Registers a name before its file is created.
     *
     * @throws NativeCallException when the JVM is shutting down: no file may be created any more
     */
    static void reserve(Path p) {
        synchronized (LOCK) {
            if (closing) {
                throw new NativeCallException("creating " + p, 0, "the JVM is shutting down");
            }
            LIVE.put(p, Boolean.FALSE);
        }
    }

    /**
     * Settles a reserved name: {@code created} when this process has just created the file, false when
     * the creation failed (the name is then forgotten, and whatever lies under it is left alone).
     */
    static void settle(Path p, boolean created) {
        synchronized (LOCK) {
            if (created) {
                LIVE.put(p, Boolean.TRUE);
            } else {
                LIVE.remove(p);
            }
            LOCK.notifyAll();
        }
    }

    /**
     * Creates an empty file of flushcheck's own in {@code dir} ({@code .flushcheck-<pid>-<kind>-<random>.probe}),
     * exclusively, mode 0600, never through a symlink, registered before it exists: removed by
     * {@link #remove}, the shutdown hook, or the next {@link #sweep} once this process is gone. For other
     * modules' working files (a VM guest's disk image).
     *
     * @param kind lower-case letters, digits and '-' only
     * @throws NativeCallException with the errno when it cannot be created (read-only, full, no permission)
     */
    public static Path createFile(Path dir, String kind) {
        if (!kind.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("not a file kind: '" + kind + "'");
        }
        return createRegistered(probeName(dir, kind));
    }

    /**
     * Creates an empty SQLite database file exclusively, mode 0600, never through a symlink, registered
     * before it exists. SQLite then gives its -journal, -wal and -shm the same mode.
     *
     * @throws NativeCallException with the errno when it cannot be created (read-only, full, no permission)
     */
    public static Path createDatabase(Path dir) {
        return createRegistered(databaseName(dir));
    }

    /** Creates {@code p} empty, registered before it exists and settled after, made or not. */
    private static Path createRegistered(Path p) {
        reserve(p);
        boolean created = false;
        try {
            createEmpty(p);
            created = true;
        } finally {
            settle(p, created);
        }
        return p;
    }

    private static void createEmpty(Path db) {
        SyncCalls calls;
        try {
            calls = NativeSyncCalls.load();
        } catch (UnsupportedOperationException e) {
            calls = null;
        }
        if (calls != null) {
            calls.close(calls.createExclusive(db.toString(), false));
            return;
        }
        try {
            // CREATE_NEW is O_CREAT|O_EXCL: it fails on an existing name, a symlink included.
            Files.newByteChannel(db, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"))).close();
        } catch (IOException e) {
            throw new NativeCallException("creating " + db, 0, e instanceof java.nio.file.FileSystemException f
                    && f.getReason() != null ? f.getReason() : String.valueOf(e));
        }
    }

    /**
     * Removes a registered file (a database with its SQLite siblings), and forgets it. Never throws: a
     * leftover is reported on stderr, not fatal. A name that is not registered is left alone.
     */
    public static void remove(Path p) {
        remove(p, null);
    }

    /**
     * {@link #remove(Path)} of a file made in the directory {@code in} holds open (null: by path), so that it is
     * removed from the directory it was made in whatever became of that directory's name. The shutdown hook
     * removes by path: the descriptor may be closed under it by then.
     */
    static void remove(Path p, ProbeDirectory in) {
        Boolean created;
        synchronized (LOCK) {
            created = LIVE.get(p);
        }
        if (created == null) {
            return;
        }
        try {
            if (created) {
                for (Path f : family(p)) {
                    try {
                        if (in == null) {
                            Files.deleteIfExists(f);
                        } else {
                            in.remove(f);
                        }
                    } catch (IOException e) {
                        System.err.println("flushcheck: could not remove " + f + ": " + e.getMessage());
                    }
                }
            }
        } finally {
            synchronized (LOCK) {
                LIVE.remove(p);
            }
        }
    }

    /** The file and, for a database, the files SQLite names after it. */
    static List<Path> family(Path p) {
        List<Path> out = new ArrayList<>();
        out.add(p);
        if (p.getFileName().toString().endsWith(DATABASE_SUFFIX)) {
            for (String s : SQLITE_SIBLINGS) {
                out.add(p.resolveSibling(p.getFileName() + s));
            }
        }
        return out;
    }

    /** What the hook does: no more reservations, wait for creations in flight, remove what was created. */
    static void removeAllAtShutdown() {
        List<Path> created = new ArrayList<>();
        synchronized (LOCK) {
            closing = true;
            long deadline = System.nanoTime() + HOOK_WAIT_MILLIS * 1_000_000;
            while (LIVE.containsValue(Boolean.FALSE)) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    break; // a creation stuck in the kernel: not known to be ours, so left alone
                }
                try {
                    LOCK.wait(left);
                } catch (InterruptedException e) {
                    break;
                }
            }
            for (Map.Entry<Path, Boolean> e : LIVE.entrySet()) {
                if (e.getValue()) {
                    created.add(e.getKey());
                }
            }
        }
        for (Path p : created) {
            for (Path f : family(p)) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    // The JVM is going down; nothing better to do than try the others.
                }
            }
        }
    }

    private static final class Hook implements Runnable {
        @Override
        public void run() {
            removeAllAtShutdown();
        }
    }

    /** Names registered and not yet removed (for tests). */
    static int live() {
        synchronized (LOCK) {
            return LIVE.size();
        }
    }

    /** True when {@code p} is registered, created or not yet (for tests). */
    static boolean isRegistered(Path p) {
        synchronized (LOCK) {
            return LIVE.containsKey(p);
        }
    }

    /**
     * Removes the files that flushcheck processes no longer alive left in {@code dir} (SIGKILL, a crash,
     * power loss): a name of ours ({@code .flushcheck-<pid>-<kind>-<12 hex>} then {@code .probe}, or
     * {@code .db} with its SQLite siblings), a regular file, owned by this user, whose PID is not a live
     * process here. A file whose PID is alive is left alone, whoever that process is now. Never throws.
     *
     * @return one sentence saying what was removed, or null when nothing was
     */
    public static String sweep(Path dir) {
        long self = ProcessHandle.current().pid();
        Object uid = ownUid();
        List<String> removed = new ArrayList<>();
        List<Long> pids = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                long pid = pidOf(name);
                if (pid <= 0 || pid == self || ProcessHandle.of(pid).isPresent()) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (!a.isRegularFile() || uid == null
                            || !uid.equals(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS))) {
                        continue;
                    }
                    if (Files.deleteIfExists(p)) {
                        removed.add(name);
                        if (!pids.contains(pid)) {
                            pids.add(pid);
                        }
                    }
                } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                    failed.add(name + " (" + e.getMessage() + ")");
                }
            }
        } catch (IOException | RuntimeException e) {
            return null; // cannot list: nothing removed, and the probe says what is wrong with the directory
        }
        if (removed.isEmpty() && failed.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        if (!removed.isEmpty()) {
            java.util.Collections.sort(removed);
            java.util.Collections.sort(pids);
            sb.append("removed ").append(removed.size()).append(removed.size() == 1 ? " file" : " files").append(" in ")
                    .append(dir).append(" left by flushcheck processes that no longer run (PID ");
            for (int i = 0; i < pids.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(pids.get(i));
            }
            sb.append(" not alive; files of live PIDs are left alone): ");
            appendNames(sb, removed);
        }
        if (!failed.isEmpty()) {
            sb.append(sb.length() == 0 ? "" : "; ").append("could not remove stale files in ").append(dir).append(": ");
            appendNames(sb, failed);
        }
        return sb.toString();
    }

    private static void appendNames(StringBuilder sb, List<String> names) {
        int shown = Math.min(names.size(), 5);
        for (int i = 0; i < shown; i++) {
            sb.append(i == 0 ? "" : ", ").append(names.get(i));
        }
        if (names.size() > shown) {
            sb.append(" and ").append(names.size() - shown).append(" more");
        }
    }

    /** The uid files created by this process get; null when unknown. */
    private static Object ownUid() {
        try {
            // /proc/self belongs to the process's effective uid.
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            try {
                return (int) new com.sun.security.auth.module.UnixSystem().getUid();
            } catch (LinkageError | RuntimeException e2) {
                return null; // unknown: sweep nothing rather than risk someone else's file
            }
        }
    }

    /**
     * The PID in one of our names, or -1 when the name is not exactly one of ours:
     * {@code .flushcheck-<pid>-<kind>-<12 hex>} followed by {@code .probe}, {@code .db}, {@code .db-journal},
     * {@code .db-wal} or {@code .db-shm}.
     */
    static long pidOf(String name) {
        if (!name.startsWith(PREFIX)) {
            return -1;
        }
        String rest;
        if (name.endsWith(PROBE_SUFFIX)) {
            rest = name.substring(0, name.length() - PROBE_SUFFIX.length());
        } else {
            String base = name;
            for (String s : SQLITE_SIBLINGS) {
                if (base.endsWith(DATABASE_SUFFIX + s)) {
                    base = base.substring(0, base.length() - s.length());
                }
            }
            if (!base.endsWith(DATABASE_SUFFIX) || !base.contains("-sqlite-")) {
                return -1;
            }
            rest = base.substring(0, base.length() - DATABASE_SUFFIX.length());
        }
        int dash = rest.indexOf('-', PREFIX.length());
        int hexStart = rest.length() - RANDOM_HEX;
        if (dash <= PREFIX.length() || dash > PREFIX.length() + 10 || hexStart <= dash + 1 || rest.charAt(hexStart - 1) != '-') {
            return -1;
        }
        for (int i = hexStart; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return -1;
            }
        }
        for (int i = dash + 1; i < hexStart - 1; i++) {
            char c = rest.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                return -1;
            }
        }
        long pid = 0;
        for (int i = PREFIX.length(); i < dash; i++) {
            char c = rest.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            pid = pid * 10 + (c - '0');
        }
        return pid;
    }
}
