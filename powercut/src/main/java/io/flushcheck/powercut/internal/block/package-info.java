/**
 * The block model below the faces: its disk, a real filesystem on a loop device over the drive, its survivor mounted
 * after a cut ({@code BlockDisk}), and its crash states, each an image mounted on a loop device to be checked and
 * looked at ({@code BlockCrashStates}, {@code StateMounts}).
 */
package io.flushcheck.powercut.internal.block;
