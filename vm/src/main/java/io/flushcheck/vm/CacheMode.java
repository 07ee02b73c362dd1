package io.flushcheck.vm;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * QEMU's cache modes of a drive ({@code -drive cache=...}, qemu(1)): what the guest's disk claims and
 * what QEMU does with the guest's flushes.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public enum CacheMode {
    /** O_DIRECT on the host; the guest sees a write-back cache and its flushes become the host's flushes. */
    NONE("none", false),
    /** The host's page cache; the guest's flushes become fdatasync(2) on the host. */
    WRITEBACK("writeback", false),
    /** O_DSYNC on the host: every write synced, so the guest sees a write-through disk and sends no flushes. */
    WRITETHROUGH("writethrough", true),
    /** O_DIRECT and O_DSYNC: every write synced, a write-through disk to the guest. */
    DIRECTSYNC("directsync", true),
    /** The guest's flushes are acknowledged and dropped: nothing reaches the host's disk. */
    UNSAFE("unsafe", false);

    private final String id;
    private final boolean writeThrough;

    CacheMode(String id, boolean writeThrough) {
        this.id = id;
        this.writeThrough = writeThrough;
    }

    /** The name QEMU and the command use. */
    public String id() {
        return id;
    }

    /** True where QEMU syncs every write on the host and shows the guest a disk without a volatile cache. */
    public boolean writeThrough() {
        return writeThrough;
    }

    /** The environment's name in results: {@code qemu/cache=none}. */
    public String environment() {
        return "qemu/cache=" + id;
    }

    public static CacheMode parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        for (CacheMode m : values()) {
            if (m.id.equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown cache mode '" + s.trim() + "' (known: " + known() + ")");
    }

    /** Comma-separated names, each once, in the order given. */
    public static List<CacheMode> parseList(String s) {
        Set<CacheMode> out = new LinkedHashSet<>();
        for (String part : s.split(",", -1)) {
            out.add(parse(part));
        }
        return new ArrayList<>(out);
    }

    private static String known() {
        StringBuilder sb = new StringBuilder();
        for (CacheMode m : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(m.id);
        }
        return sb.toString();
    }
}
