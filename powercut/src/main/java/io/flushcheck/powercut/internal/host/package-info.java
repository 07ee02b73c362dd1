/** The server process that serves every disk of a JVM, and the command protocol between it and the disk. */
package io.flushcheck.powercut.internal.host;
