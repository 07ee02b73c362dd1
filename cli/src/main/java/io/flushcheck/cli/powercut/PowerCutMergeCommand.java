package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.report.Json;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code flushcheck powercut merge A.json B.json ...}: the shards' reports of one recording, as one. */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "merge", synopsisHeading = "usage: ",
        customSynopsis = "flushcheck powercut merge SHARD.json...",
        description = {"join the replay --shard I/N --json documents of one recording into one",
            "",
            "Prints on stdout the JSON one replay of the recording would print, every state from the shard",
            "that checked it, in the order the states are enumerated; the counts are the states', \"seconds\"",
            "the sum of the shards'. Refuses documents of different recordings (their \"recording\" id differs),",
            "of different bounds or verifies, a shard missing or given twice, and any document that is not a",
            "regular file of at most " + DocumentFile.MAX_SHOWN + " (a link, a FIFO, a device), or whose fields are",
            "missing, out of range or not what its states count."},
        descriptionHeading = "%n",
        footer = {"%nexit codes: 0 every state passed, 1 some state failed, 2 bad usage or documents that are not"
            + " the shards of one check, 4 the output could not be written"})
public final class PowerCutMergeCommand implements Job {

    @Parameters(paramLabel = "SHARD.json", arity = "1..*", description = "the shards' documents")
    List<Path> files = new ArrayList<>();

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        List<String> names = new ArrayList<>();
        List<ReplayOutput.Document> docs = new ArrayList<>();
        for (Path f : files) {
            byte[] text;
            try {
                text = DocumentFile.read(f);
            } catch (IllegalArgumentException e) {
                throw new UsageException("powercut merge: " + e.getMessage());
            }
            try {
                // A decoder of its own reports bytes that are not UTF-8 rather than replacing them.
                docs.add(ReplayDocumentReader.read(new InputStreamReader(new ByteArrayInputStream(text),
                        StandardCharsets.UTF_8.newDecoder())));
            } catch (IllegalArgumentException e) {
                throw new UsageException("powercut merge: " + f + ": " + e.getMessage());
            }
            names.add(f.toString());
        }
        ReplayOutput.Document merged;
        try {
            merged = ReplayMerge.merge(names, docs);
        } catch (IllegalArgumentException e) {
            throw new UsageException("powercut merge: " + e.getMessage());
        }
        out.print(Json.write(merged));
        out.flush();
        return merged.failed() == 0 ? ExitCodes.OK : ExitCodes.VERIFY_FAILED;
    }
}
