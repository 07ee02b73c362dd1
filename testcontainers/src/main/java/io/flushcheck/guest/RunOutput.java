package io.flushcheck.guest;

/**
 * What came back from one run, before it is read: the result document (null when none came back), the
 * in-environment JVM's exit code and its stdout and stderr.
 */
record RunOutput(String json, int exitCode, String log) {
}
