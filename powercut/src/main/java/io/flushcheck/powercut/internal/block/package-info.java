/**
 * The block model's rooms below the faces: its crash states mounted on loop devices to be looked at.
 */
package io.flushcheck.powercut.internal.block;
