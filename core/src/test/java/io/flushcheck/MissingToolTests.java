package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.SystemProperties;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The key that says what a test whose tool is missing does: skipped by default, failed with {@code fail}. */
class MissingToolTests {

    @Test
    void unsetOrBlankOrSkipSkipsAndFailFails() {
        assertThat(MissingTool.parse(null)).isEqualTo(MissingTool.SKIP);
        assertThat(MissingTool.parse(" ")).isEqualTo(MissingTool.SKIP);
        assertThat(MissingTool.parse("skip")).isEqualTo(MissingTool.SKIP);
        assertThat(MissingTool.parse(" Fail ")).isEqualTo(MissingTool.FAIL);
        assertThat(SystemProperties.with(MissingTool.KEY, null, MissingTool::current)).isEqualTo(MissingTool.SKIP);
        assertThat(SystemProperties.with(MissingTool.KEY, "fail", MissingTool::current)).isEqualTo(MissingTool.FAIL);
    }

    @Test
    void aBadValueNamesTheKeyTheValueAndWhatIsAllowed() {
        assertThatThrownBy(() -> MissingTool.parse("true"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("flushcheck.missing-tool=true is not skip or fail");
    }

    @Test
    void theProjectsOwnRequirementsFollowTheKey() {
        Runnable missing = () -> Requirements.require(false, "a tool nobody has");
        SystemProperties.with(MissingTool.KEY, null, () -> {
            assertThatThrownBy(missing::run).isInstanceOf(TestAbortedException.class)
                    .hasMessageContaining("a tool nobody has");
            return null;
        });
        SystemProperties.with(MissingTool.KEY, "skip", () -> {
            assertThatThrownBy(missing::run).isInstanceOf(TestAbortedException.class);
            return null;
        });
        SystemProperties.with(MissingTool.KEY, "fail", () -> {
            assertThatThrownBy(missing::run).isInstanceOf(AssertionFailedError.class)
                    .hasMessageContaining("a tool nobody has").hasMessageContaining("flushcheck.missing-tool=fail");
            return null;
        });
    }
}
