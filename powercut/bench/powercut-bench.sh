#!/usr/bin/env bash
# The power-cut figures, printed, not asserted: the median cost of a cut-and-verify cycle beyond its
# workload, on the block model (make a 32 MiB ext4 on the simulated drive, cut, mount and read the
# survivor, undo it all) and on the file model (serve an empty tree, cut, write out and read the
# survivor, undo), alternated cycle by cycle (target: block < 50 ms); a sweep of every flush of a
# workload of F flushes on the block model (target: 100 flushes < 15 s); the time of
# `flushcheck powercut sqlite --model block --cuts N` (target: N = 20 < 20 s); and the WAL+FULL one-row
# commit rate on the simulated disk against the same ext4 on a plain loop device over a file on the real
# disk (REAL_DIR) and over one in /dev/shm, alternated round by round in one run (target: simulated/plain >= 0.5).
#
# usage: powercut/bench/powercut-bench.sh [-c CYCLES] [-f FLUSHES] [-n CUTS] [-m COMMITS] [-r ROUNDS] [-d REAL_DIR]
#   defaults: 15 cycles, 100 flushes, 20 cuts a cell, 500 commits, 5 rounds, REAL_DIR the repository's
#   target directory; 0 skips that part
# needs: root, /dev/fuse, free loop devices, mkfs.ext4; builds the reactor (package, no tests, no install)
set -euo pipefail
cycles=15 flushes=100 cuts=20 commits=500 rounds=5
root=$(cd "$(dirname "$0")/../.." && pwd)
real=$root/target
while getopts "c:f:n:m:r:d:h" opt; do
    case $opt in
        c) cycles=$OPTARG ;;
        f) flushes=$OPTARG ;;
        n) cuts=$OPTARG ;;
        m) commits=$OPTARG ;;
        r) rounds=$OPTARG ;;
        d) real=$OPTARG ;;
        *) sed -n '2,13p' "$0"; exit 2 ;;
    esac
done
[[ $(id -u) == 0 ]] || { echo "bench: needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }

cd "$root"
mkdir -p "$real"
echo "bench: building the command and what it needs (package, no tests, no install)" >&2
mvn -B -q -Dstyle.color=never -pl cli -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile=target/powercut-bench.classpath >/dev/null
cp="sqlite/target/classes:$(cat sqlite/target/powercut-bench.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/PowerCutBench.java" "$cycles" "$flushes" "$commits" "$rounds" "$real"
if ((cuts > 0)); then
    start=$(date +%s%N)
    java -jar cli/target/flushcheck.jar powercut sqlite --model block --cuts "$cuts" >/dev/null
    awk -v n="$cuts" -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "flushcheck powercut sqlite --model block --cuts %d (8 cells, %d cuts): %.1f s; target < 20 s for 20\n", n, 8 * n, ns / 1e9 }'
fi
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
