package io.flushcheck.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The ways a round makes one block durable: fsync(2), fdatasync(2), open(2)'s O_DSYNC, Java's
 * {@code FileChannel.force}, and on macOS fcntl(2)'s F_FULLFSYNC (the only call there that flushes the
 * drive's cache) and F_BARRIERFSYNC.
 * Every round writes one block; the mode says where and how it is synced.
 */
@API(status = API.Status.STABLE, since = "0.1")
public enum SyncMode {
    /** Append a block, then fsync: size and allocation change, so the journal commits too. */
    APPEND_FSYNC("append-fsync", true, Os.ANY),
    /** Append, then fdatasync: the size still changes, so it costs what fsync costs. */
    APPEND_FDATASYNC("append-fdatasync", true, Os.ANY),
    /** Rewrite a block of a preallocated, synced file, then fdatasync: data and flush only. */
    OVERWRITE_FDATASYNC("overwrite-fdatasync", true, Os.ANY),
    /** Append through an O_DSYNC descriptor: each write waits as if fdatasync followed it. */
    DSYNC("dsync", true, Os.ANY),
    /** fdatasync of a file with nothing to write: on ext4 a bare cache flush. Not used for the verdict. */
    FLUSH_ONLY("flush-only", true, Os.ANY),
    /** Append with no sync at all: the baseline. */
    NO_SYNC("no-sync", false, Os.ANY),
    /** Append through a FileChannel, then {@code force(true)}: what Java code gets. */
    JAVA_FORCE("java-force", true, Os.ANY),
    /** Overwrite, then {@code fcntl(F_FULLFSYNC)}: the only call that flushes the drive on macOS. */
    FULL_FSYNC("full-fsync", true, Os.MACOS),
    /** Overwrite, then {@code fcntl(F_BARRIERFSYNC)}: ordered, not flushed. */
    BARRIER_FSYNC("barrier-fsync", true, Os.MACOS);

    enum Os { ANY, MACOS }

    private final String id;
    private final boolean syncs;
    private final Os os;

    SyncMode(String id, boolean syncs, Os os) {
        this.id = id;
        this.syncs = syncs;
        this.os = os;
    }

    /** The name used on the command line, in annotations and in reports. */
    public String id() {
        return id;
    }

    /** False only for the no-sync baseline. */
    public boolean syncs() {
        return syncs;
    }

    /**
     * Whether the mode's device counters take part in the verdict: every syncing mode but
     * flush-only, whose clean-file fdatasync need not reach the device on every filesystem.
     */
    public boolean countsForVerdict() {
        return syncs && this != FLUSH_ONLY;
    }

    public boolean availableOnThisOs() {
        return os == Os.ANY || System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac");
    }

    /** The modes of this OS, in declaration order. */
    public static List<SyncMode> available() {
        List<SyncMode> out = new ArrayList<>();
        for (SyncMode m : values()) {
            if (m.availableOnThisOs()) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Parses a mode name such as {@code overwrite-fdatasync}.
     *
     * @throws IllegalArgumentException naming the bad value and the allowed ones
     */
    public static SyncMode parse(String id) {
        for (SyncMode m : values()) {
            if (m.id.equals(id.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown sync mode '" + id + "'; known modes: " + allIds());
    }

    /** Parses a comma-separated list; an empty list is an error. */
    public static List<SyncMode> parseList(String ids) {
        List<SyncMode> out = new ArrayList<>();
        for (String s : ids.split(",")) {
            if (!s.isBlank()) {
                SyncMode m = parse(s);
                if (!out.contains(m)) {
                    out.add(m);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no sync mode given; known modes: " + allIds());
        }
        return out;
    }

    /** The modes every Linux has: what a Linux guest can run, whatever the host's OS. */
    public static List<SyncMode> linux() {
        List<SyncMode> out = new ArrayList<>();
        for (SyncMode m : values()) {
            if (m.os == Os.ANY) {
                out.add(m);
            }
        }
        return out;
    }

    /** Comma-separated ids of the given modes. */
    public static String ids(List<SyncMode> modes) {
        List<String> ids = new ArrayList<>();
        for (SyncMode m : modes) {
            ids.add(m.id);
        }
        return String.join(", ", ids);
    }

    public static String allIds() {
        List<String> ids = new ArrayList<>();
        for (SyncMode m : values()) {
            ids.add(m.id);
        }
        return String.join(", ", ids);
    }

    @Override
    public String toString() {
        return id;
    }
}
