package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class BooleansTests {

    @Test
    void everySpellingOfTheGrammarCaseInsensitive() {
        for (String t : List.of("true", "TRUE", "Yes", "on", "1", " 1 ")) {
            assertThat(Booleans.parse(t)).as(t).isTrue();
        }
        for (String f : List.of("false", "No", "OFF", "0", "\tfalse")) {
            assertThat(Booleans.parse(f)).as(f).isFalse();
        }
    }

    @Test
    void anythingElseIsRefusedWithTheGrammar() {
        for (String bad : List.of("", "2", "y", "enabled", "truee")) {
            assertThatThrownBy(() -> Booleans.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + bad.trim() + "' is not a boolean: use true, false, yes, no, on, off, 1 or 0");
        }
    }

    @Test
    void listsKeepTheirOrder() {
        assertThat(Booleans.parseList("0,1")).containsExactly(false, true);
        assertThat(Booleans.parseList("on, off ,YES")).containsExactly(true, false, true);
        assertThatThrownBy(() -> Booleans.parseList("0,")).hasMessageContaining("'' is not a boolean");
    }
}
