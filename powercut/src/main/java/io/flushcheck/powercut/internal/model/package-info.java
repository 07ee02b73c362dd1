/**
 * What both power-loss models share: the model's interface, its power switch, failing flushes and writes, the
 * sparse file their bytes live in.
 */
package io.flushcheck.powercut.internal.model;
