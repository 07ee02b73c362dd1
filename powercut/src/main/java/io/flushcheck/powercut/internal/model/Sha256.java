package io.flushcheck.powercut.internal.model;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apiguardian.api.API;

/** SHA-256, by which a recording names its files and a crash state what it keeps. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Sha256 {

    private Sha256() {
    }

    /** A fresh digest. */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** {@code d}'s digest, as hex. */
    public static String hex(MessageDigest d) {
        return HexFormat.of().formatHex(d.digest());
    }

    /** The SHA-256 of {@code file}'s bytes, as hex. */
    public static String of(Path file) throws IOException {
        MessageDigest d = digest();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), d)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return hex(d);
    }

    /** The SHA-256 of the bytes of {@code file}, opened already, read by position from its start. */
    public static String of(RegularFile file) throws IOException {
        MessageDigest d = digest();
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        for (long at = 0; file.channel().read(buffer.clear(), at) > 0; at += buffer.position()) {
            d.update(buffer.flip().duplicate());
            buffer.position(buffer.limit());
        }
        return hex(d);
    }
}
