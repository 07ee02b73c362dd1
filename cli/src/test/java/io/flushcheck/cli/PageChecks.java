package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.MiniJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** What the report tests ask the browser about a page, and the rules every page keeps. */
public final class PageChecks {

    /**
     * Every plot as laid out: its kind, mode, the bars it says it has and the bars drawn with a size,
     * its axis titles and ticks, its rendered size, and the length of its curve.
     */
    static final String PLOTS = """
            JSON.stringify([...document.querySelectorAll('svg.plot')].map(svg => {
              const box = svg.getBoundingClientRect();
              const bars = [...svg.querySelectorAll('rect.bar')];
              const curve = svg.querySelector('polyline.curve');
              return {kind: svg.getAttribute('class').replace('plot ', ''), mode: svg.dataset.mode || null,
                section: svg.closest('section').id, declaredBars: svg.dataset.bars || null,
                bars: bars.length, drawnBars: bars.filter(r => { const b = r.getBBox(); return b.width > 0 && b.height > 0; }).length,
                axisTitles: [...svg.querySelectorAll('text.axis-title')].map(t => t.textContent),
                ticks: [...svg.querySelectorAll('text.tick')].map(t => t.textContent),
                values: [...svg.querySelectorAll('text.value')].map(t => t.textContent),
                width: box.width, height: box.height, curveLength: curve ? curve.getTotalLength() : 0};
            }))""";

    /** Each section: its id, heading and headline verdict. */
    static final String SECTIONS = """
            JSON.stringify([...document.querySelectorAll('section.report-section')].map(s => ({id: s.id,
              heading: s.querySelector('h2').textContent,
              verdict: s.querySelector('.headline .verdict') ? s.querySelector('.headline .verdict').textContent : null,
              findings: s.querySelectorAll('.headline .findings li').length})))""";

    private PageChecks() {
    }

    public static List<Map<String, Object>> plots(HeadlessChromium browser) throws Exception {
        return maps(browser.evaluate(PLOTS));
    }

    public static List<Map<String, Object>> sections(HeadlessChromium browser) throws Exception {
        return maps(browser.evaluate(SECTIONS));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(String json) {
        return (List<Map<String, Object>>) (List<?>) MiniJson.array(MiniJson.parse(json));
    }

    /** The page carries everything: no script, no style sheet or font fetched, and it asked for nothing but itself. */
    public static void selfContained(Path page, HeadlessChromium browser) throws Exception {
        String html = Files.readString(page);
        assertThat(html).doesNotContain("<script", "<link", "@import", "url(", " src=", "@font-face");
        assertThat(browser.requests()).as("requests the page made").containsExactly(page.toUri().toString());
    }

    /** Where screenshots go for a person to look at: target/html-report-screenshots. */
    public static Path screenshotDir() throws java.io.IOException {
        return Files.createDirectories(Path.of("target", "html-report-screenshots").toAbsolutePath());
    }
}
