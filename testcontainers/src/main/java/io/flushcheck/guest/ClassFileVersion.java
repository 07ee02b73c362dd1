package io.flushcheck.guest;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The version in a class file's header (JVMS 4.1): the magic {@code 0xCAFEBABE}, then the minor and the major
 * version, which names the oldest Java release whose JVM loads the class (major 61 is Java 17, 65 is Java 21).
 *
 * @param major the class file's major version, 45 or more
 * @param minor its minor version ({@code 0xFFFF} for a class compiled with preview features)
 */
record ClassFileVersion(int major, int minor) {

    /** The first major version, Java 1.0 and 1.1's; every later Java release adds one. */
    static final int FIRST_MAJOR = 45;

    private static final int MAGIC = 0xCAFEBABE;

    ClassFileVersion {
        if (major < FIRST_MAJOR || major > 0xFFFF || minor < 0 || minor > 0xFFFF) {
            throw new IllegalArgumentException("class file version " + major + "." + minor + " is out of range");
        }
    }

    /**
     * Reads the header's first eight bytes; reads nothing more.
     *
     * @throws IllegalArgumentException when the stream does not start like a class file, naming what it found
     * @throws IOException              when the stream cannot be read
     */
    static ClassFileVersion read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int magic;
        int minor;
        int major;
        try {
            magic = data.readInt();
            minor = data.readUnsignedShort();
            major = data.readUnsignedShort();
        } catch (EOFException e) {
            throw new IllegalArgumentException("shorter than a class file's 8-byte header", e);
        }
        if (magic != MAGIC) {
            throw new IllegalArgumentException(String.format("not a class file: it starts with 0x%08X, not 0xCAFEBABE",
                    magic));
        }
        if (major < FIRST_MAJOR) {
            throw new IllegalArgumentException("not a class file: major version " + major + " is below "
                    + FIRST_MAJOR);
        }
        return new ClassFileVersion(major, minor);
    }

    /** The Java feature release that introduced this major version: 17 for 61, 21 for 65 (1 for 45). */
    int release() {
        return major - (FIRST_MAJOR - 1);
    }

    /** The major version a Java feature release writes: 61 for 17. */
    static int majorOf(int release) {
        return release + FIRST_MAJOR - 1;
    }
}
