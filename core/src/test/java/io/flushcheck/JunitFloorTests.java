package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.Extension;
import org.junit.platform.commons.support.AnnotationSupport;

class JunitFloorTests {

    @Test
    void aMinorBelowTheFloorIsBelowAndTheFloorItselfAndLaterLinesAreNot() {
        assertThat(JunitFloor.below("5.11.4", "5.12")).isTrue();
        assertThat(JunitFloor.below("5.9.3", "5.12")).as("9 < 12 as numbers, not as text").isTrue();
        assertThat(JunitFloor.below("4.13.2", "5.12")).isTrue();
        assertThat(JunitFloor.below("5.12.0", "5.12")).isFalse();
        assertThat(JunitFloor.below("5.12.0-RC1", "5.12")).isFalse();
        assertThat(JunitFloor.below("5.14.4", "5.12")).isFalse();
        assertThat(JunitFloor.below("6.0.0", "5.12")).isFalse();
        assertThat(JunitFloor.below("6.1.3", "1.12")).as("JUnit 6's Platform against the 5 line's").isFalse();
        assertThat(JunitFloor.below("1.11.4", "1.12")).isTrue();
    }

    @Test
    void aVersionThatDoesNotStartWithNumbersIsNotRefused() {
        assertThat(JunitFloor.below(null, "5.12")).isFalse();
        assertThat(JunitFloor.below("", "5.12")).isFalse();
        assertThat(JunitFloor.below("5", "5.12")).isFalse();
        assertThat(JunitFloor.below("five.twelve", "5.12")).isFalse();
        assertThat(JunitFloor.below("5.x", "5.12")).isFalse();
    }

    @Test
    void theRefusalNamesTheVersionFoundAndTheOneNeeded() {
        assertThat(JunitFloor.refusalFor("5.11.4", "1.11.4")).contains("JUnit Jupiter 5.12 or later")
                .contains("junit-jupiter-api 5.11.4").contains("org.junit:junit-bom 5.12");
        assertThat(JunitFloor.refusalFor("5.14.4", "1.11.4")).contains("JUnit Platform 1.12 or later")
                .contains("junit-platform-commons 1.11.4").contains("beside junit-jupiter-api 5.14.4");
        assertThat(JunitFloor.refusalFor("5.12.2", "1.12.2")).isNull();
        assertThat(JunitFloor.refusalFor("6.0.3", "6.0.3")).isNull();
        assertThat(JunitFloor.refusalFor(null, null)).isNull();
    }

    @Test
    void theJunitThisSuiteRunsOnIsReadFromItsJarsAndPasses() {
        assertThat(Extension.class.getPackage().getImplementationVersion()).as("junit-jupiter-api's version")
                .matches("\\d+\\.\\d+.*");
        assertThat(AnnotationSupport.class.getPackage().getImplementationVersion())
                .as("junit-platform-commons' version").matches("\\d+\\.\\d+.*");
        assertThat(JunitFloor.refusal(Extension.class, AnnotationSupport.class)).isNull();
    }
}
