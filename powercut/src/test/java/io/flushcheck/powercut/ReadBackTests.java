package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How AcknowledgedRecords.readBack tells the outcomes apart, from what a reader returns or throws. */
class ReadBackTests {

    private static AcknowledgedRecords acknowledged(String... records) {
        List<AcknowledgedRecords.Ack> acks = new ArrayList<>();
        for (String r : records) {
            acks.add(new AcknowledgedRecords.Ack(r, 0, 1));
        }
        return AcknowledgedRecords.loaded(acks);
    }

    @Test
    void everyAcknowledgedRecordAndNothingElseIsIntact() {
        ReadBack r = acknowledged("a", "b").readBack(() -> List.of("a", "b"));
        assertThat(r.outcome()).isEqualTo(ReadBack.Outcome.INTACT);
        assertThat(r.explanation()).isEqualTo("the reader returned 2 records, 2 were acknowledged, all of them intact");
        r.assertNotSilent();
    }

    @Test
    void fewerRecordsWithoutAnErrorIsSilentLoss() {
        ReadBack r = acknowledged("a", "b", "c").readBack(() -> List.of("a"));
        assertThat(r.outcome()).isEqualTo(ReadBack.Outcome.SILENT_LOSS);
        assertThatThrownBy(r::assertNotSilent).hasMessage("the reader returned 1 records, 3 were acknowledged; 2 acknowledged"
                + " missing (\"b\", \"c\"); no error");
    }

    @Test
    void aRecordNeverAcknowledgedIsSilentCorruptionShownSafely() {
        ReadBack r = acknowledged("a", "b").readBack(() -> List.of("a", "\u0000\u0000b\"" + "x".repeat(100)));
        assertThat(r.outcome()).isEqualTo(ReadBack.Outcome.SILENT_CORRUPTION);
        assertThat(r.explanation()).isEqualTo("the reader returned 2 records, 2 were acknowledged; 1 returned never"
                + " acknowledged (\"\\x00\\x00b\"" + "x".repeat(56) + "\" (104 characters)), 1 acknowledged missing"
                + " (\"b\"); no error");
        assertThatThrownBy(r::assertNotSilent).isInstanceOf(AssertionError.class);
    }

    @Test
    void anErrorOfTheReadersOwnIsDetectedAndABrokenReaderCrashed() {
        ReadBack detected = acknowledged("a").readBack(() -> {
            throw new IOException("record 0 fails its checksum");
        });
        assertThat(detected.outcome()).isEqualTo(ReadBack.Outcome.DETECTED);
        assertThat(detected.explanation()).isEqualTo("the reader failed: java.io.IOException: record 0 fails its checksum"
                + " (1 records were acknowledged)");
        detected.assertNotSilent();
        ReadBack crashed = acknowledged("a").readBack(() -> List.of("a").subList(0, 3));
        assertThat(crashed.outcome()).isEqualTo(ReadBack.Outcome.CRASHED);
        assertThat(crashed.error()).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(crashed.explanation()).startsWith("the reader broke: java.lang.IndexOutOfBoundsException");
    }

    @Test
    void aReaderThatDoesNotReturnInItsTimeHung() {
        ReadBack r = acknowledged("a").readBack(() -> {
            Thread.sleep(60_000);
            return List.of("a");
        }, Duration.ofMillis(200));
        assertThat(r.outcome()).isEqualTo(ReadBack.Outcome.HUNG);
        assertThat(r.explanation()).isEqualTo("the reader did not return in PT0.2S (1 records were acknowledged)");
        assertThatThrownBy(() -> r.assertOutcome(ReadBack.Outcome.INTACT)).hasMessageStartingWith("expected INTACT, got HUNG: ");
    }

    @Test
    void aProgramsReadBackIsJudgedByTheSameRulesWithTheDamageOpeningTheExplanation() {
        ReadBack intact = AcknowledgedRecords.judge(List.of("a", "b"), List.of("c"), List.of("b", "a", "c"), "");
        assertThat(intact.outcome()).isEqualTo(ReadBack.Outcome.INTACT);
        assertThat(intact.explanation()).isEqualTo("the reader returned 3 records, 2 were acknowledged, all of them intact");
        ReadBack lost = AcknowledgedRecords.judge(List.of("a", "b", "c"), List.of(), List.of("a"),
                "bit 3 of byte 8200 of db/wal flipped");
        assertThat(lost.outcome()).isEqualTo(ReadBack.Outcome.SILENT_LOSS);
        assertThat(lost.explanation()).isEqualTo("bit 3 of byte 8200 of db/wal flipped: the reader returned 1 records, 3"
                + " were acknowledged; 2 acknowledged missing (\"b\", \"c\"); no error");
        ReadBack corrupt = AcknowledgedRecords.judge(List.of("a", "b"), List.of(), List.of("a", "c"), "bytes 0+4096 of"
                + " log zeroed");
        assertThat(corrupt.outcome()).isEqualTo(ReadBack.Outcome.SILENT_CORRUPTION);
        assertThat(corrupt.explanation()).startsWith("bytes 0+4096 of log zeroed: the reader returned 2 records, 2 were"
                + " acknowledged; 1 returned never acknowledged (\"c\"), 1 acknowledged missing (\"b\")");
        assertThat(acknowledged("a", "b").readBack(() -> List.of("a")).explanation())
                .as("the same words as the reader of a test gets").isEqualTo(AcknowledgedRecords.judge(List.of("a", "b"),
                        List.of(), List.of("a"), "").explanation());
    }
}
