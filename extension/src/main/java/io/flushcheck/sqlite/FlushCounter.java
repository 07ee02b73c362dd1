package io.flushcheck.sqlite;

import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads flushes and sectors on the devices where a directory's flushes land: the terminal devices
 * of its {@link StorageFacts#flushPoints()} (the bottom of the chain, or the mount's own device when
 * it is alone), as the probe counts them.
 */
final class FlushCounter {

    private final List<Path> files = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    FlushCounter(StorageFacts facts, StorageInspector inspector) {
        if (facts == null) {
            return;
        }
        List<BlockDevice> points = facts.flushPoints();
        boolean firstIsMount = facts.device() != null;
        for (int i = 0; i < points.size(); i++) {
            BlockDevice d = points.get(i);
            boolean terminal = points.size() == 1 || !(firstIsMount && i == 0) || d.lower().isEmpty();
            if (terminal) {
                files.add(inspector.statFile(d));
                names.add(d.name());
            }
        }
    }

    List<String> devices() {
        return List.copyOf(names);
    }

    /** The summed counters now, or null when no device can be read (then nothing is counted). */
    DeviceStat read() {
        DeviceStat sum = null;
        for (Path f : files) {
            try {
                DeviceStat s = DeviceStat.read(f);
                sum = sum == null ? s : sum.plus(s);
            } catch (IOException | IllegalArgumentException e) {
                return null;
            }
        }
        return sum;
    }
}
