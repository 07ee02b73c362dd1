package io.flushcheck.powercut.internal.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The drive's replies as {@link DriveClient} reads them: each command's answer, and what a broken server might say instead. */
class DriveClientTests {

    @Test
    void statsAreReadFigureByFigure() throws IOException {
        assertThat(DriveClient.stats("flushes 7 unflushed 4096 failed 2 failed-writes 3"))
                .isEqualTo(new DriveClient.Stats(7, 4096, 2, 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "error unknown command stats", "flushes 7 unflushed 4096 failed 2",
            "flushes 7 unflushed 4096 failed 2 failed-writes 3 more", "flushes x unflushed 4096 failed 2 failed-writes 3",
            "flushes 7 unflushed -1 failed 2 failed-writes 3", "flushes 7 cached 4096 failed 2 failed-writes 3",
            "flushes 7 unflushed 4096 failed 2 failed-writes 99999999999999999999"})
    void statsThatDoNotReadAreAnErrorQuotingTheReply(String reply) {
        assertThatThrownBy(() -> DriveClient.stats(reply)).isInstanceOf(IOException.class)
                .isNotInstanceOf(DriveClient.Refused.class)
                .hasMessage("the simulated drive did not answer stats: " + reply);
    }

    @Test
    void failedReadsAreACount() throws IOException {
        assertThat(DriveClient.failedReads("failed-reads 0")).isZero();
        assertThat(DriveClient.failedReads("failed-reads 12")).isEqualTo(12);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "error unknown command failed-reads", "failed-reads", "failed-reads -1", "failed-reads x",
            "failed-reads 3 more", "failed-writes 3", "failed-reads 99999999999999999999"})
    void failedReadsThatDoNotReadAreAnErrorQuotingTheReply(String reply) {
        assertThatThrownBy(() -> DriveClient.failedReads(reply)).isInstanceOf(IOException.class)
                .isNotInstanceOf(DriveClient.Refused.class)
                .hasMessage("the simulated drive did not answer failed-reads: " + reply);
    }

    @Test
    void liedWritesAreTwoCountsAsTheServerSaysThem() throws IOException {
        assertThat(DriveClient.liedWritesReply(2, 5)).isEqualTo("lied-writes lost 2 misdirected 5");
        assertThat(DriveClient.liedWrites(DriveClient.liedWritesReply(2, 5))).isEqualTo(new DriveClient.LiedWrites(2, 5));
        assertThat(DriveClient.liedWrites("lied-writes lost 0 misdirected 0")).isEqualTo(new DriveClient.LiedWrites(0, 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "error unknown command lied-writes", "lied-writes", "lied-writes lost 1",
            "lied-writes lost 1 misdirected", "lied-writes lost -1 misdirected 0", "lied-writes lost 1 misdirected x",
            "lied-writes misdirected 1 lost 2", "lied-writes lost 1 misdirected 2 more", "failed-reads 3",
            "lied-writes lost 99999999999999999999 misdirected 0"})
    void liedWritesThatDoNotReadAreAnErrorQuotingTheReply(String reply) {
        assertThatThrownBy(() -> DriveClient.liedWrites(reply)).isInstanceOf(IOException.class)
                .isNotInstanceOf(DriveClient.Refused.class)
                .hasMessage("the simulated drive did not answer lied-writes: " + reply);
    }

    @Test
    void aCutIsReadWithItsNoteAndWhatItLostEntryByEntry() throws IOException {
        String reply = DriveClient.cutReply(3, 5, 12, true, "the POSIX floor lost /a b", List.of("write /x 0+4", "", "100%"));
        assertThat(reply).doesNotContain("\n").startsWith("cut kept 3 discarded 5 at 12 armed note ");
        assertThat(DriveClient.cut(reply)).isEqualTo(
                new DriveClient.Cut(3, 5, 12, true, "the POSIX floor lost /a b", List.of("write /x 0+4", "", "100%")));
    }

    @Test
    void aCutThatLostNothingHasNoNoteAndNoEntries() throws IOException {
        assertThat(DriveClient.cutReply(0, 0, 4, false, "", List.of())).isEqualTo("cut kept 0 discarded 0 at 4 now");
        assertThat(DriveClient.cut("cut kept 0 discarded 0 at 4 now"))
                .isEqualTo(new DriveClient.Cut(0, 0, 4, false, "", List.of()));
        assertThat(DriveClient.cut("cut kept 1 discarded 2 at 4 now lost a%20b"))
                .isEqualTo(new DriveClient.Cut(1, 2, 4, false, "", List.of("a b")));
    }

    @Test
    void aReplyThatIsNoCutIsARefusalQuotingIt() {
        assertThatThrownBy(() -> DriveClient.cut("error the power is already cut"))
                .isInstanceOfSatisfying(DriveClient.Refused.class, r -> {
                    assertThat(r.reply()).isEqualTo("error the power is already cut");
                    assertThat(r.reason()).isEqualTo("the power is already cut");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"cut ", "cut kept 1 discarded 2 at 4", "cut kept 1 discarded 2 at 4 later",
            "cut kept one discarded 2 at 4 now", "cut kept 1 discarded -2 at 4 now", "cut held 1 discarded 2 at 4 now",
            "cut kept 1 discarded 2 at 4 now note", "cut kept 1 discarded 2 at 4 now lost", "cut kept 1 discarded 2 at 4 now extra",
            "cut kept 1 discarded 2 at 4 now note a lost", "cut kept 1 discarded 2 at 4 now note %zz",
            "cut kept 1 discarded 2 at 4 now lost ok %4"})
    void aCutThatDoesNotReadIsAnErrorQuotingTheReply(String reply) {
        assertThatThrownBy(() -> DriveClient.cut(reply)).isInstanceOf(IOException.class)
                .isNotInstanceOf(DriveClient.Refused.class)
                .hasMessage("the simulated drive's reply to cut cannot be read: " + reply);
    }

    @Test
    void powerIsOnOrOffAndNothingElse() throws IOException {
        assertThat(DriveClient.powered("powered true")).isTrue();
        assertThat(DriveClient.powered("powered false")).isFalse();
        for (String reply : List.of("powered", "powered no", "error unknown command powered", "")) {
            assertThatThrownBy(() -> DriveClient.powered(reply)).isInstanceOf(IOException.class)
                    .hasMessage("the simulated drive did not answer powered: " + reply);
        }
    }

    @Test
    void aWorldIsTakenOrKilledAtOnceAndAnythingElseIsARefusal() throws IOException {
        assertThat(DriveClient.world("world")).isTrue();
        assertThat(DriveClient.world("world killed")).isFalse();
        assertThatThrownBy(() -> DriveClient.world("worlds")).isInstanceOfSatisfying(DriveClient.Refused.class,
                r -> assertThat(r.reply()).isEqualTo("worlds"));
        assertThatThrownBy(() -> DriveClient.world("error no such process 12")).isInstanceOf(DriveClient.Refused.class)
                .hasMessage("the simulated drive refused world: error no such process 12");
    }

    @Test
    void aServerIsReadyOnlyWhenItSaysSo() {
        assertThat(DriveClient.ready("ready")).isTrue();
        assertThat(DriveClient.ready(null)).isFalse();
        assertThat(DriveClient.ready("ready now")).isFalse();
    }
}
