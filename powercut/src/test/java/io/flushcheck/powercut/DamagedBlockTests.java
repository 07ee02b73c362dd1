package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A damaged block's name, as a display name writes it and {@code block = "..."} reads it, and the fault it places. */
class DamagedBlockTests {

    @Test
    void everyKindReadsBackAsItIsWritten() {
        List<String> names = List.of("bit rot in journal bytes 8192+4096, seed 31", "zeroed in db/wal bytes 0+4096",
                "lost write in journal bytes 4096+4096", "misdirected write in journal bytes 0+4096 to bytes 8192",
                "bad sector in journal bytes 0+512", "transient read error in a b/journal bytes 4096+4096");
        for (String name : names) {
            assertThat(DamagedBlock.parse(name)).hasToString(name);
        }
        assertThat(DamagedBlock.parse(names.get(3))).extracting(DamagedBlock::kind, DamagedBlock::target)
                .containsExactly(BlockDamage.MISDIRECTED_WRITE, 8192L);
        assertThat(DamagedBlock.parse(names.get(5)).file()).isEqualTo("a b/journal");
    }

    /**
     * A file name may hold a newline, a quote or a backslash: the block reads back, and the hint that repeats it is a
     * Java string literal that compiles to the same text.
     */
    @Test
    void aFileNameWithANewlineReadsBackAndItsHintIsAJavaLiteral() {
        DamagedBlock block = new DamagedBlock(BlockDamage.ZEROED, "odd\nname \"q\" \\b", 0, 4096, 0);
        assertThat(DamagedBlock.parse(block.toString())).isEqualTo(block);
        assertThat(CrashStateReport.javaString(block.toString()))
                .isEqualTo("\"zeroed in odd\\012name \\\"q\\\" \\\\b bytes 0+4096\"");
    }

    @Test
    void aSeedOrATargetWhereTheKindHasNoneIsRefused() {
        for (String bad : List.of("lost write in journal bytes 0+4096, seed 3", "bit rot in journal bytes 0+4096",
                "misdirected write in journal bytes 0+4096", "zeroed in journal bytes 0+4096 to bytes 8192",
                "bad sector in journal bytes 0+0")) {
            assertThatThrownBy(() -> DamagedBlock.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("not a damaged block: \"" + bad + "\"");
        }
    }

    @Test
    void eachKindPlacesItsOwnFaultOnTheFileUnderTheRootAndNoOther() {
        Path root = Path.of("/disk");
        assertThat(DamagedBlock.parse("lost write in journal bytes 4096+4096").writes(root))
                .isEqualTo(WriteFault.toFile(root.resolve("journal")).range(4096, 4096).lost().always());
        assertThat(DamagedBlock.parse("misdirected write in journal bytes 0+4096 to bytes 8192").writes(root))
                .isEqualTo(WriteFault.toFile(root.resolve("journal")).range(0, 4096).misdirectedTo(root.resolve("journal"),
                        8192).always());
        assertThat(DamagedBlock.parse("bad sector in journal bytes 0+4096").reads(root))
                .isEqualTo(ReadFault.toFile(root.resolve("journal")).range(0, 4096));
        assertThat(DamagedBlock.parse("transient read error in journal bytes 0+4096").reads(root))
                .isEqualTo(ReadFault.toFile(root.resolve("journal")).range(0, 4096).once());
        assertThatThrownBy(() -> DamagedBlock.parse("bad sector in journal bytes 0+4096").on(root))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is no change to data at rest");
        assertThatThrownBy(() -> DamagedBlock.parse("zeroed in journal bytes 0+4096").writes(root))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is no write fault");
        assertThatThrownBy(() -> DamagedBlock.parse("lost write in ../etc/passwd bytes 0+4096").writes(root))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a file of /disk");
    }

    @Test
    void aMisdirectedWriteLandsOnAnotherBlockOfItsFileDrawnFromTheSeedAndPastTheEndOfAFileOfOneBlock() {
        List<BlockSites.SurvivingFile> files = List.of(new BlockSites.SurvivingFile("a", 4000),
                new BlockSites.SurvivingFile("b", 5 * 4096));
        List<DamagedBlock> all = BlockSites.spread(files, new BlockDamage[] {BlockDamage.MISDIRECTED_WRITE}, 4096, 6, 7);
        assertThat(all).hasSize(6);
        assertThat(all.get(0).target()).as("a's only block").isEqualTo(4096);
        for (DamagedBlock d : all.subList(1, 6)) {
            assertThat(d.target()).as(d.toString()).isNotEqualTo(d.offset()).isBetween(0L, 4L * 4096).matches(t -> t % 4096 == 0);
        }
        assertThat(BlockSites.spread(files, new BlockDamage[] {BlockDamage.MISDIRECTED_WRITE}, 4096, 6, 7)).isEqualTo(all);
    }
}
