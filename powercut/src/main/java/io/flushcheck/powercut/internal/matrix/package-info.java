/** A power-cut matrix's figures for one row of settings, tallied cut by cut: what the SQLite and PostgreSQL matrices share. */
package io.flushcheck.powercut.internal.matrix;
