package io.flushcheck.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the project version, written into {@code version.txt} when the module is built. */
final class Version implements IVersionProvider {

    static String number() {
        try (InputStream in = Version.class.getResourceAsStream("version.txt")) {
            String v = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return v.isEmpty() || v.startsWith("$") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"flushcheck " + number()};
    }
}
