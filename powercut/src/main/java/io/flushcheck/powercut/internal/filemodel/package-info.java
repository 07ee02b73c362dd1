/**
 * The file model below the faces: its disk, a tree of files served over FUSE and written out after a cut
 * ({@code FileDisk}), and its crash states, replayed from the tree's log into a plain directory ({@code FileCrashStates}).
 */
package io.flushcheck.powercut.internal.filemodel;
