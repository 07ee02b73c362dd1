package io.flushcheck.probe;

import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.DeviceStat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the stat files of the devices a probe watches: the mount's device first, then the terminals. */
final class DeviceCounters {

    private final List<String> names = new ArrayList<>();
    private final List<Boolean> terminal = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    /**
     * @param points    devices to watch; the first is the mount's own device when {@code firstIsMount}
     * @param statFiles their stat files, same order
     */
    DeviceCounters(List<BlockDevice> points, List<Path> statFiles, boolean firstIsMount) {
        for (int i = 0; i < points.size(); i++) {
            BlockDevice d = points.get(i);
            names.add(d.name());
            // A lone device is its own terminal; otherwise only the bottom of the chain is.
            terminal.add(points.size() == 1 || !(firstIsMount && i == 0) || d.lower().isEmpty());
            files.add(statFiles.get(i));
        }
    }

    boolean isEmpty() {
        return files.isEmpty();
    }

    /** One reading of every device; null entries where a file could not be read. */
    DeviceStat[] read() {
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

    List<DeviceDelta> delta(DeviceStat[] before, DeviceStat[] after) {
        List<DeviceDelta> out = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (before[i] != null && after[i] != null) {
                out.add(new DeviceDelta(names.get(i), terminal.get(i), after[i].minus(before[i])));
            }
        }
        return out;
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
