package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.DataFault;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.report.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What explore prints of damaged blocks a state had no place for: a report built here, as the block model makes one
 * of a file with no bytes of its own on the drive (a hole), which the file model never lists.
 */
class ExploreOutputTests {

    private static final ProgramStates.Recorded RECORDED = new ProgramStates.Recorded(0, "", 2, 4, 3, 1, 0.1);

    private static CrashStateReport report(long damagedChecks, long notPlaced) {
        List<CrashStateReport.State> states = List.of(new CrashStateReport.State("after sync 1", 0, null),
                new CrashStateReport.State("after sync 2", 0, null));
        return new CrashStateReport(2, List.of(), 0, 0, 1000, 0.2, states, 0, damagedChecks, notPlaced);
    }

    @Test
    void damagedBlocksNotPlacedAreCountedInTheTextEvenWithNoDamagedCheck() {
        String text = ExploreOutput.text("ext4 (256 MiB)", DiskModel.BLOCK, RECORDED, report(0, 2), true);
        assertThat(text).as("undamaged, as the JSON's failed does not count them").contains(
                "2 states checked in 0.2 s, 0 failing as the crash left them, 0 duplicates");
        assertThat(text).contains("\n0 more checks with a damaged block, 0 failing, 2 damaged blocks not placed"
                + " (not checked)\n");
        assertThat(ExploreOutput.text("ext4 (256 MiB)", DiskModel.BLOCK, RECORDED, report(3, 1), true))
                .contains("\n3 more checks with a damaged block, 0 failing, 1 damaged block not placed (not checked)\n");
        assertThat(ExploreOutput.text("ext4 (256 MiB)", DiskModel.BLOCK, RECORDED, report(0, 0), false))
                .doesNotContain("damaged").contains("2 states checked in 0.2 s, 0 failing, 0 duplicates");
    }

    @Test
    void damagedBlocksNotPlacedAreInTheJsonWithDamageOnly() {
        ExploreOutput.Damage damage = ExploreOutput.Damage.of(1, List.of(DataFault.Kind.ZEROED), 4096, 1);
        String json = Json.write(ExploreOutput.json(List.of("true"), "true {dir}", DiskModel.BLOCK, null, "ext4", 256,
                4096, null, damage, RECORDED, report(0, 2), null));
        assertThat(json).containsPattern("\"damagedChecks\": ?0").containsPattern("\"notPlaced\": ?2");
        String undamaged = Json.write(ExploreOutput.json(List.of("true"), "true {dir}", DiskModel.BLOCK, null, "ext4",
                256, 4096, null, null, RECORDED, report(0, 0), null));
        assertThat(undamaged).doesNotContain("notPlaced").doesNotContain("damagedChecks");
    }
}
