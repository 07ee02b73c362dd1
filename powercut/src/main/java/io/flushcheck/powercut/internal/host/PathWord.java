package io.flushcheck.powercut.internal.host;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A path as one word of the drives' line protocol ({@link DiskServerMain}, {@link DriveControl}), whose
 * words are split at spaces and whose commands end at a newline: every byte of the path's UTF-8 but
 * letters, digits and {@code / . _ - +} written as {@code %XX}, so that a temporary directory named with
 * spaces, newlines or any other character reaches the server as it is.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PathWord {

    private PathWord() {
    }

    /** {@code path} as one word. */
    public static String of(Path path) {
        return ofText(path.toString());
    }

    /** Any text as one word, escaped as {@link #of} escapes a path. */
    public static String ofText(String text) {
        StringBuilder sb = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "/._-+".indexOf(c) >= 0)) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        return sb.toString();
    }

    /** The path a word of {@link #of} names. */
    public static Path path(String word) {
        return Path.of(text(word));
    }

    /** The text a word of {@link #ofText} stands for. */
    public static String text(String word) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '%' && i + 2 < word.length()) {
                bytes.write(Integer.parseInt(word.substring(i + 1, i + 3), 16));
                i += 2;
            } else if (c == '%') {
                throw new IllegalArgumentException("a path word ends in a broken escape: " + word);
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
