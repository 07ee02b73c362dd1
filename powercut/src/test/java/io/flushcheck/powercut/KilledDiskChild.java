package io.flushcheck.powercut;

import java.nio.file.Path;

/**
 * A JVM that makes a simulated disk under args[0], writes to it, and dies without any cleanup; with
 * args[1] = "both", it first kills the drive's server too, as a SIGKILL of the process group would.
 */
public final class KilledDiskChild {

    private KilledDiskChild() {
    }

    public static void main(String[] args) throws Exception {
        SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).create(Path.of(args[0]));
        SimulatedPowerLossExtensionTests.append(disk.path().resolve("data"), "x", true);
        if (args.length > 1 && args[1].equals("both")) {
            ProcessHandle server = ProcessHandle.of(disk.serverPid()).orElseThrow();
            server.destroyForcibly();
            server.onExit().get();
        }
        System.out.println("created " + disk.path());
        System.out.flush();
        Runtime.getRuntime().halt(9);
    }
}
