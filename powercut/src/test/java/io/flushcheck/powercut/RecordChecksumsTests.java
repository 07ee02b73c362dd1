package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two small stores after the reboot, their synced records changed at rest on what survived the cut: one with a
 * CRC-32 a record detects bit rot and zeroed bytes, and names the record; one without checksums returns different
 * records without an error, silent corruption.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class RecordChecksumsTests {

    private static final int RECORDS = 60;

    @TempDir
    Path tmp;

    private static List<String> records() {
        List<String> r = new ArrayList<>();
        for (int i = 1; i <= RECORDS; i++) {
            r.add("record " + i + ": balance " + (i * 37));
        }
        return r;
    }

    @ParameterizedTest(name = "{0} model")
    @ValueSource(strings = {"block", "file"})
    void aStoreWithChecksumsDetectsBitRotAndZeroedBytesAndOneWithoutReturnsSilentCorruption(String model)
            throws IOException {
        try (SimulatedDisk disk = model.equals("block") ? TestDisks.ext4(tmp) : TestDisks.files(tmp)) {
            for (String r : records()) {
                for (String kind : new String[] {"rot", "zero"}) {
                    CheckedRecords.append(disk.path().resolve("checked-" + kind), r);
                    PlainRecords.append(disk.path().resolve("plain-" + kind), r);
                }
            }
            PosixCalls.syncDirectory(disk.path());
            Path survivor = disk.cutPower();
            for (String store : new String[] {"checked", "plain"}) {
                Corruption rot = disk.corrupt(DataFault.bitRot(survivor.resolve(store + "-rot")).seed(5));
                Corruption zero = disk.corrupt(DataFault.zeroed(survivor.resolve(store + "-zero")).range(1024, 512));
                for (Corruption c : List.of(rot, zero)) {
                    Path file = survivor.resolve(c.name());
                    if (store.equals("checked")) {
                        assertThatThrownBy(() -> CheckedRecords.read(file)).as("detected: %s", c)
                                .isInstanceOf(IOException.class).hasMessageMatching("record \\d+ at byte \\d+: .*");
                        String said = messageOf(file);
                        System.out.printf("%s model, %s: the store with checksums says \"%s\"%n", model, c, said);
                    } else {
                        List<String> read = PlainRecords.read(file);
                        long changed = changed(read, records());
                        System.out.printf("%s model, %s: the store without checksums returned %d records, %d of them"
                                + " not as acknowledged, and no error%n", model, c, read.size(), changed);
                        assertThat(read).as("silent corruption: %s", c).isNotEqualTo(records());
                    }
                }
            }
        }
    }

    private static String messageOf(Path file) {
        try {
            CheckedRecords.read(file);
            return "nothing";
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** How many of {@code read} differ from {@code acknowledged}, record by record (a missing or extra one counts). */
    private static long changed(List<String> read, List<String> acknowledged) {
        long n = Math.abs(read.size() - acknowledged.size());
        for (int i = 0; i < Math.min(read.size(), acknowledged.size()); i++) {
            n += read.get(i).equals(acknowledged.get(i)) ? 0 : 1;
        }
        return n;
    }
}
