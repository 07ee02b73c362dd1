package io.flushcheck.powercut;

import java.util.ArrayList;
import java.util.List;

/** The {@link ProcessWorld}s started on a {@link SimulatedDisk} ({@link SimulatedDisk#start}), killed with its power. */
final class DiskWorlds {

    private final List<ProcessWorld> worlds = new ArrayList<>();

    /** Notes {@code world} as running on the disk. */
    synchronized void add(ProcessWorld world) {
        worlds.add(world);
    }

    /** Kills every world noted, and forgets them. */
    void killAll() {
        List<ProcessWorld> all;
        synchronized (this) {
            all = List.copyOf(worlds);
            worlds.clear();
        }
        for (ProcessWorld w : all) {
            w.kill();
        }
    }
}
