package io.flushcheck.vm;

import io.flushcheck.storage.DeviceStat;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the guest's probe printed on the serial console, line by line (see the probe's source for the
 * protocol), with the host's counters read at each mode's begin and end.
 */
final class GuestOutput {

    /** One mode's figures from both sides of the edge. */
    static final class Mode {
        final String id;
        DeviceStat guest;
        DeviceStat hostBefore;
        DeviceStat hostAfter;
        long loopNanos = -1;
        final List<Long> latencies = new ArrayList<>();

        Mode(String id) {
            this.id = id;
        }

        DeviceStat host() {
            return hostBefore == null || hostAfter == null ? null : hostAfter.minus(hostBefore);
        }
    }

    /** What the host must do after a line: nothing, or read its counters and let the guest go on. */
    enum Step { NONE, BEGIN, END, DONE }

    final Map<String, Mode> modes = new LinkedHashMap<>();
    String writeCache;
    long readyNanos = -1;
    String error;
    boolean done;
    private final Deque<String> tail = new ArrayDeque<>();

    /** Reads one line; returns what the host must do now. */
    Step accept(String raw, long nanos) {
        String line = raw.replace("\r", "");
        tail.addLast(line);
        if (tail.size() > 15) {
            tail.removeFirst();
        }
        String[] w = line.trim().split(" ");
        if (w.length == 0) {
            return Step.NONE;
        }
        switch (w[0]) {
            case "flushcheck-guest:":
                if (w.length >= 2 && w[1].equals("ready")) {
                    readyNanos = nanos;
                    writeCache = line.substring(line.indexOf("ready") + 5).trim();
                } else if (w.length >= 2 && w[1].equals("error:") && error == null) {
                    error = line.trim();
                }
                return Step.NONE;
            case "begin":
                if (w.length == 2) {
                    modes.put(w[1], new Mode(w[1]));
                    return Step.BEGIN;
                }
                return Step.NONE;
            case "stat":
                if (w.length == 5 && modes.containsKey(w[1])) {
                    modes.get(w[1]).guest = new DeviceStat(Long.parseLong(w[2]), Long.parseLong(w[3]), Long.parseLong(w[4]));
                }
                return Step.NONE;
            case "lat":
                if (w.length >= 3 && modes.containsKey(w[1])) {
                    for (int i = 2; i < w.length; i++) {
                        modes.get(w[1]).latencies.add(Long.parseLong(w[i]));
                    }
                }
                return Step.NONE;
            case "end":
                if (w.length == 3 && modes.containsKey(w[1])) {
                    modes.get(w[1]).loopNanos = Long.parseLong(w[2]);
                    return Step.END;
                }
                return Step.NONE;
            case "error":
                if (error == null) {
                    error = line.trim();
                }
                return Step.NONE;
            case "done":
                done = true;
                return Step.DONE;
            default:
                return Step.NONE;
        }
    }

    /** The last lines seen, for an error message. */
    String tail() {
        return String.join(" | ", tail);
    }

    /** The mode that began last. */
    Mode current() {
        Mode last = null;
        for (Mode m : modes.values()) {
            last = m;
        }
        return last;
    }
}
