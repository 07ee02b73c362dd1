package io.flushcheck.probe;

import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The counters of the devices under a directory ({@link StorageFacts#flushPoints()}): every level of
 * its chain, the mount's own device first. Anything that measures syncs there (the
 * probe, the SQLite matrix) reads them through this class, so that all count the same way.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DeviceCounters {

    private final List<String> names = new ArrayList<>();
    private final List<Boolean> terminal = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    DeviceCounters(List<BlockDevice> points, List<Path> statFiles) {
        for (int i = 0; i < points.size(); i++) {
            BlockDevice d = points.get(i);
            names.add(d.name());
            terminal.add(d.lower().isEmpty());
            files.add(statFiles.get(i));
        }
    }

    /** The counters of a directory's devices; none when facts is null or no device backs it. */
    public static DeviceCounters of(StorageFacts facts, StorageInspector inspector) {
        if (facts == null) {
            return new DeviceCounters(List.of(), List.of());
        }
        List<Path> stat = new ArrayList<>();
        for (BlockDevice d : facts.flushPoints()) {
            stat.add(inspector.statFile(d));
        }
        return new DeviceCounters(facts.flushPoints(), stat);
    }

    public boolean isEmpty() {
        return files.isEmpty();
    }

    /** The watched devices' names, mount device first. */
    public List<String> names() {
        return List.copyOf(names);
    }

    /** One reading of every device; null entries where a file could not be read. */
    public DeviceStat[] read() {
        DeviceStat[] out = new DeviceStat[files.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = DeviceStat.read(files.get(i));
            } catch (IOException | IllegalArgumentException e) {
                out[i] = null;
            }
        }
        return out;
    }

    /** What each device did between two readings; devices that could not be read are left out. */
    public List<DeviceDelta> delta(DeviceStat[] before, DeviceStat[] after) {
        List<DeviceDelta> out = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (before[i] != null && after[i] != null) {
                out.add(new DeviceDelta(names.get(i), terminal.get(i), after[i].minus(before[i])));
            }
        }
        return out;
    }

    /**
     * Adds what each device did from {@code from} to {@code to} onto {@code sum} (null: a new sum).
     * A device unreadable at either end stays null: it is left out of the deltas.
     */
    DeviceStat[] add(DeviceStat[] sum, DeviceStat[] from, DeviceStat[] to) {
        DeviceStat[] out = new DeviceStat[files.size()];
        for (int i = 0; i < out.length; i++) {
            boolean read = from[i] != null && to[i] != null && (sum == null || sum[i] != null);
            out[i] = !read ? null : sum == null ? to[i].minus(from[i]) : sum[i].plus(to[i].minus(from[i]));
        }
        return out;
    }

    /** True when some device completed a flush between two readings. */
    boolean anyFlush(DeviceStat[] from, DeviceStat[] to) {
        for (int i = 0; i < files.size(); i++) {
            if (from[i] != null && to[i] != null && to[i].flushes() > from[i].flushes()) {
                return true;
            }
        }
        return false;
    }

    /** Per-device sums of a loop's syncing stretches and of its idle windows (null: none taken). */
    List<DeviceDelta> deltas(DeviceStat[] syncing, DeviceStat[] idle) {
        List<DeviceDelta> out = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (syncing[i] != null && (idle == null || idle[i] != null)) {
                out.add(new DeviceDelta(names.get(i), terminal.get(i), syncing[i], idle == null ? null : idle[i]));
            }
        }
        return out;
    }

    /** Brackets on every level ({@link FlushBrackets}), or null when one cannot be read. */
    FlushBrackets brackets() {
        boolean[] t = new boolean[files.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = terminal.get(i);
        }
        return FlushBrackets.open(files, t);
    }

    /** Flushes and KiB on the terminal devices between two readings: {flushes, kib}. */
    long[] terminalDelta(DeviceStat[] before, DeviceStat[] after) {
        long flushes = 0;
        long kib = 0;
        for (int i = 0; i < files.size(); i++) {
            if (terminal.get(i) && before[i] != null && after[i] != null) {
                DeviceStat d = after[i].minus(before[i]);
                flushes += Math.max(0, d.flushes());
                kib += d.kibWritten();
            }
        }
        return new long[] {flushes, kib};
    }
}
