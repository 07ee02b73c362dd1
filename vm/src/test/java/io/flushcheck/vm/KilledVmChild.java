package io.flushcheck.vm;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.verdict.Thresholds;
import java.nio.file.Path;
import java.util.List;

/**
 * A JVM that starts a long guest run, then kills itself with SIGKILL while QEMU runs: no shutdown hook, no
 * finally. Arguments: the host directory, the rounds (the marker on QEMU's command line).
 */
public final class KilledVmChild {

    private KilledVmChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        VmProbe probe = new VmProbe(null, m -> {
            System.out.println(m);
            System.out.flush();
            if (m.contains("booting")) {
                Thread killer = new Thread(() -> {
                    try {
                        Thread.sleep(5000); // booted, probing
                        System.out.println("killing");
                        System.out.flush();
                        new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                    } catch (Exception e) {
                        e.printStackTrace();
                    }
                });
                killer.start();
            }
        });
        probe.run(CacheMode.NONE, dir, ProbePlan.defaults().withModes(List.of(SyncMode.OVERWRITE_FDATASYNC)).withRounds(rounds),
                null, Thresholds.DEFAULT);
        System.out.println("finished before the kill");
    }
}
