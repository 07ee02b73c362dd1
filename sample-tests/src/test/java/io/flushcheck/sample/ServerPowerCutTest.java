package io.flushcheck.sample;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.flushcheck.powercut.ProcessWorld;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A program in its own process on the simulated disk, killed by the cut: a python3 log server that appends each
 * line it reads to a log, fsyncs it, and answers "ok" once the fsync has returned.
 */
@SimulatedPowerLoss(sizeMiB = 64)
class ServerPowerCutTest {

    static final String SERVER = """
            import os, sys
            log = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            for line in sys.stdin:
                os.write(log, line.encode())
                os.fsync(log)
                print("ok", flush=True)
            """;

    // tag::disk-start[]
    @Test
    void everyAcknowledgedLineSurvives(SimulatedDisk disk) throws Exception {
        ProcessWorld server = disk.start(new ProcessBuilder("python3", "-c", SERVER, disk.path() + "/log"));
        Writer requests = new OutputStreamWriter(server.process().getOutputStream(), UTF_8);
        BufferedReader answers = new BufferedReader(new InputStreamReader(server.process().getInputStream(), UTF_8));
        List<String> acknowledged = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            requests.write("line " + i + "\n");
            requests.flush();
            assertEquals("ok", answers.readLine());       // the server synced it
            acknowledged.add("line " + i);
        }
        Path survivor = disk.cutPower();                  // the server is dead and reaped here
        assertEquals(acknowledged, Files.readAllLines(survivor.resolve("log")));
    }
    // end::disk-start[]
}
