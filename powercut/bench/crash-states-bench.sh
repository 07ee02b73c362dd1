#!/usr/bin/env bash
# Every crash state of one recorded run against the sweep that re-runs the workload for each crash point, side
# by side in one run, printed, not asserted: a record a flush (FLUSHES records) and SQLite WAL+FULL (COMMITS
# one-row commits), on the block model (32 MiB ext4 with 4 KiB blocks) and the file model (64 MiB, journaled
# rules). Target: 1,000 states of a 100-flush workload in under 30 s. The states are checked once for each count
# of workers in WORKERS (states checked at once, each on a loop device of its own, or on the file model in a
# directory of its own), side by side, the counts alternating over ROUNDS rounds (after an untimed round that
# warms the JVM up where the sweep does not); the medians are printed with their ratio to the first count's.
# -s SLOW_MS makes each check sleep that long first, as a slow check would (a server to start, a process to run).
#
# usage: powercut/bench/crash-states-bench.sh [-f FLUSHES] [-c COMMITS] [-m MAX_STATES] [-M MODELS] [-j WORKERS]
#                                             [-r ROUNDS] [-s SLOW_MS] [-S]
#   defaults: 100 records, 100 commits, at most 5000 states, models block,file; 0 skips that workload; workers
#   1 and the machine's default (twice its processors), e.g. -j 1,2,4; 1 round; no sleep; -S leaves the sweep out
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the reactor (package, no tests, no install)
set -euo pipefail
flushes=100 commits=100 max=5000 models=block,file workers="1,$(( 2 * $(nproc) ))" rounds=1 sweep=true slow=0
while getopts "f:c:m:M:j:r:s:Sh" opt; do
    case $opt in
        f) flushes=$OPTARG ;;
        c) commits=$OPTARG ;;
        m) max=$OPTARG ;;
        M) models=$OPTARG ;;
        j) workers=$OPTARG ;;
        r) rounds=$OPTARG ;;
        s) slow=$OPTARG ;;
        S) sweep=false ;;
        *) sed -n '2,17p' "$0"; exit 2 ;;
    esac
done
[[ $models != *block* || $(id -u) == 0 ]] || { echo "bench: the block model needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "bench: building what it needs (package, no tests, no install)" >&2
mvn -B -q -o -Dstyle.color=never -pl sqlite -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile=target/crash-states-bench.classpath >/dev/null
cp="sqlite/target/classes:$(cat sqlite/target/crash-states-bench.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/CrashStatesBench.java" "$flushes" "$commits" "$max" "$models" "$workers" "$rounds" "$sweep" "$slow"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
