/** The file model: a tree of files with POSIX's durability rules, their bytes, and its FUSE server. */
package io.flushcheck.powercut.internal.files;
