/** What a block-model cut lost, by file. */
package io.flushcheck.powercut.internal.explain;
