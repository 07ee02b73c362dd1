package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.Sha256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * A crash state's digest as the sum of its parts' (lane by lane, four 64-bit lanes modulo 2^64): each name a
 * directory holds ({@link #name}) and what it names ({@link #node}) hashed with SHA-256 on its own, so that a state
 * differing from another in a few names or one file has its digest from the other's by those parts alone, and two
 * states keeping the same parts have the same digest whatever order they were added in.
 */
record TreeSum(long a, long b, long c, long d) {

    static final TreeSum ZERO = new TreeSum(0, 0, 0, 0);

    private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(Sha256::digest);
    private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal.withInitial(() -> ByteBuffer.allocate(64));

    TreeSum plus(TreeSum o) {
        return new TreeSum(a + o.a, b + o.b, c + o.c, d + o.d);
    }

    TreeSum minus(TreeSum o) {
        return new TreeSum(a - o.a, b - o.b, c - o.c, d - o.d);
    }

    /** This part {@code n} times over: a file under {@code n} names is named {@code n} times. */
    TreeSum times(long n) {
        return new TreeSum(a * n, b * n, c * n, d * n);
    }

    String hex() {
        return HexFormat.of().formatHex(ByteBuffer.allocate(32).putLong(a).putLong(b).putLong(c).putLong(d).array());
    }

    /** The part that directory {@code dir} holds {@code name} for node {@code node}. */
    static TreeSum name(long dir, String name, long node) {
        MessageDigest sha = SHA.get();
        sha.update(BUFFER.get().clear().put((byte) 'E').putLong(dir).putLong(node).flip());
        sha.update(name.getBytes(StandardCharsets.UTF_8));
        return of(sha);
    }

    /** The part of a directory named once: its node and permission bits. */
    static TreeSum dir(long node, int mode) {
        MessageDigest sha = SHA.get();
        sha.update(BUFFER.get().clear().put((byte) 'D').putLong(node).putInt(mode).flip());
        return of(sha);
    }

    /**
     * The part of a file named once: its node, permission bits, the changes its durable bytes were made by, its size
     * and the pieces of the changes since that a state keeps ({@link FilePages#pieceHash}, summed).
     */
    static TreeSum file(long node, int mode, long durableFold, long size, long pieces) {
        MessageDigest sha = SHA.get();
        sha.update(BUFFER.get().clear().put((byte) 'F').putLong(node).putInt(mode).putLong(durableFold).putLong(size)
                .putLong(pieces).flip());
        return of(sha);
    }

    private static TreeSum of(MessageDigest sha) {
        ByteBuffer h = ByteBuffer.wrap(sha.digest());
        return new TreeSum(h.getLong(), h.getLong(), h.getLong(), h.getLong());
    }
}
