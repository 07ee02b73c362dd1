/** The FUSE kernel protocol and mounting, by {@code mount(2)} as root or through fusermount otherwise. */
package io.flushcheck.powercut.internal.fuse;
