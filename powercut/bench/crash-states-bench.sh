#!/usr/bin/env bash
# Every crash state of one recorded run against the sweep that re-runs the workload for each crash point, side
# by side in one run, printed, not asserted: a record a flush (FLUSHES records) and SQLite WAL+FULL (COMMITS
# one-row commits), block model, 32 MiB ext4 with 4 KiB blocks. Target: 1,000 states of a 100-flush workload
# in under 30 s.
#
# usage: powercut/bench/crash-states-bench.sh [-f FLUSHES] [-c COMMITS] [-m MAX_STATES]
#   defaults: 100 records, 100 commits, at most 5000 states; 0 skips that workload
# needs: root, /dev/fuse, free loop devices, mkfs.ext4; builds the reactor (package, no tests, no install)
set -euo pipefail
flushes=100 commits=100 max=5000
while getopts "f:c:m:h" opt; do
    case $opt in
        f) flushes=$OPTARG ;;
        c) commits=$OPTARG ;;
        m) max=$OPTARG ;;
        *) sed -n '2,9p' "$0"; exit 2 ;;
    esac
done
[[ $(id -u) == 0 ]] || { echo "bench: needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "bench: building what it needs (package, no tests, no install)" >&2
mvn -B -q -o -Dstyle.color=never -pl sqlite -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile=target/crash-states-bench.classpath >/dev/null
cp="sqlite/target/classes:$(cat sqlite/target/crash-states-bench.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/CrashStatesBench.java" "$flushes" "$commits" "$max"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
