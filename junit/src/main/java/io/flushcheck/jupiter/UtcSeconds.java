package io.flushcheck.jupiter;

/**
 * A moment as ISO-8601 in UTC to the second ({@code 2026-12-03T00:21:58Z}), as {@code Instant.toString}
 * writes it for the years 0 to 9999. By hand: the first {@code Instant.toString} in a JVM initializes
 * {@code DateTimeFormatter} and its many formatters, milliseconds that a fork reading a shared verdict
 * would otherwise spend on its one verdict line.
 */
final class UtcSeconds {

    private UtcSeconds() {
    }

    static String of(long epochMillis) {
        long seconds = Math.floorDiv(epochMillis, 1000L);
        long days = Math.floorDiv(seconds, 86_400L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        // Howard Hinnant's days_from_civil inverted: years of 400 (146,097 days) from 0000-03-01.
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097L);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        long month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        StringBuilder sb = new StringBuilder(20);
        digits(sb, year, 4).append('-');
        digits(sb, month, 2).append('-');
        digits(sb, day, 2).append('T');
        digits(sb, secondOfDay / 3600, 2).append(':');
        digits(sb, secondOfDay / 60 % 60, 2).append(':');
        return digits(sb, secondOfDay % 60, 2).append('Z').toString();
    }

    private static StringBuilder digits(StringBuilder sb, long value, int width) {
        String s = Long.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(s);
    }
}
