#!/usr/bin/env bash
# The cold probe path of two builds of the command, side by side: `java -jar flushcheck.jar --json
# /dev/shm` (a verdict the storage facts decide), runs alternating between the builds. Prints the
# median wall time of each (JVM start included) and the median of the command's own elapsedMillis.
#
# usage: cli/bench/cold-probe-compare.sh BEFORE_DIR AFTER_DIR [RUNS]
#   BEFORE_DIR, AFTER_DIR  directories each holding a flushcheck.jar and its lib/ (copy cli/target's
#                          flushcheck.jar and lib/ there after each build)
#   RUNS                   runs of each (default 21)
set -euo pipefail
before=${1:?usage: cold-probe-compare.sh BEFORE_DIR AFTER_DIR [RUNS]}
after=${2:?usage: cold-probe-compare.sh BEFORE_DIR AFTER_DIR [RUNS]}
runs=${3:-21}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

once() { # DIR -> "WALL_MS ELAPSED_MS"
    local start end json
    start=$(date +%s%N)
    json=$(java -jar "$1/flushcheck.jar" --json /dev/shm)
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 )) $(printf '%s' "$json" | grep -m1 '"elapsedMillis"' | tr -dc '0-9')"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for _ in $(seq "$runs"); do
    once "$before" >> "$out/before"
    once "$after" >> "$out/after"
done
for side in before after; do
    printf '%-6s wall median %s ms, elapsedMillis median %s ms (%s runs)\n' "$side" \
        "$(cut -d' ' -f1 "$out/$side" | median)" "$(cut -d' ' -f2 "$out/$side" | median)" "$runs"
done
