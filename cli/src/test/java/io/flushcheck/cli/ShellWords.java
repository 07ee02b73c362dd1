package io.flushcheck.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A shell line split into the words {@code sh} would pass a program: blanks separate words, a backslash
 * before a newline joins two lines, {@code '...'} keeps everything, {@code "..."} keeps all but {@code $NAME},
 * {@code \"}, {@code \\} and {@code \$}, and an unquoted backslash keeps the next character. {@code $NAME}
 * (or {@code ${NAME}}, or {@code $1}) outside single quotes becomes what {@code variables} gives for NAME.
 * No globbing, no pipes, no command substitution: a documented command line needs none of them.
 */
final class ShellWords {

    private ShellWords() {
    }

    /** The words of {@code line}; {@code variables} may throw for a variable it has no value for. */
    static List<String> split(String line, UnaryOperator<String> variables) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '\n') {
                i += 2;
            } else if (c == ' ' || c == '\t' || c == '\n') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("an unterminated ' in: " + line);
                }
                word.append(line, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i = doubleQuoted(line, i + 1, word, variables);
                inWord = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(i + 1));
                inWord = true;
                i += 2;
            } else if (c == '$') {
                i = variable(line, i, word, variables);
                inWord = true;
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Appends a double-quoted string starting after its quote; returns the index after the closing quote. */
    private static int doubleQuoted(String line, int from, StringBuilder word, UnaryOperator<String> variables) {
        int i = from;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') {
                return i + 1;
            } else if (c == '\\' && i + 1 < line.length() && "\"\\$".indexOf(line.charAt(i + 1)) >= 0) {
                word.append(line.charAt(i + 1));
                i += 2;
            } else if (c == '$') {
                i = variable(line, i, word, variables);
            } else {
                word.append(c);
                i++;
            }
        }
        throw new IllegalArgumentException("an unterminated \" in: " + line);
    }

    /** Appends the value of the variable named at {@code at} (a {@code $}); a lone {@code $} stands for itself. */
    private static int variable(String line, int at, StringBuilder word, UnaryOperator<String> variables) {
        int i = at + 1;
        if (i < line.length() && line.charAt(i) == '{') {
            int end = line.indexOf('}', i);
            if (end < 0) {
                throw new IllegalArgumentException("an unterminated ${ in: " + line);
            }
            word.append(variables.apply(line.substring(i + 1, end)));
            return end + 1;
        }
        if (i < line.length() && Character.isDigit(line.charAt(i))) {
            word.append(variables.apply(line.substring(i, i + 1)));
            return i + 1;
        }
        int end = i;
        while (end < line.length() && (Character.isLetterOrDigit(line.charAt(end)) || line.charAt(end) == '_')) {
            end++;
        }
        if (end == i) {
            word.append('$');
            return i;
        }
        word.append(variables.apply(line.substring(i, end)));
        return end;
    }
}
