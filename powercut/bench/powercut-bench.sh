#!/usr/bin/env bash
# The power-cut figures, printed, not asserted: the median cost of a cut-and-verify cycle beyond its
# workload, on the block model (make a 32 MiB ext4 on the simulated drive, cut, mount and read the
# survivor, undo it all) and on the file model (serve an empty tree, cut, write out and read the
# survivor, undo), alternated cycle by cycle, the time of a sweep of N cuts per SQLite journal mode x synchronous cell (target:
# all six cells of 20 cuts < 2 min), and the WAL+FULL one-row commit rate on the simulated disk against
# a directory on a real disk, alternated round by round in one run (target: simulated >= real).
#
# usage: powercut/bench/powercut-bench.sh [-c CYCLES] [-n CUTS] [-m COMMITS] [-r ROUNDS] [-d REAL_DIR]
#   defaults: 15 cycles, 20 cuts a cell, 500 commits, 5 rounds, REAL_DIR the repository's directory
# needs: root, /dev/fuse, a free loop device, mkfs.ext4; builds the reactor's classes (no install)
set -euo pipefail
cycles=15 cuts=20 commits=500 rounds=5
root=$(cd "$(dirname "$0")/../.." && pwd)
real=$root
while getopts "c:n:m:r:d:h" opt; do
    case $opt in
        c) cycles=$OPTARG ;;
        n) cuts=$OPTARG ;;
        m) commits=$OPTARG ;;
        r) rounds=$OPTARG ;;
        d) real=$OPTARG ;;
        *) sed -n '2,11p' "$0"; exit 2 ;;
    esac
done
[[ $(id -u) == 0 ]] || { echo "bench: needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }

cd "$root"
echo "bench: building the sqlite module and what it needs (test-compile, no install)" >&2
mvn -B -q -Dstyle.color=never -pl sqlite -am test-compile dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile=target/powercut-bench.classpath >/dev/null
cp="sqlite/target/classes:$(cat sqlite/target/powercut-bench.classpath)"
echo "bench: real disk for the commit rate: $(findmnt -n -o SOURCE,FSTYPE -T "$real") at $real" >&2
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/PowerCutBench.java" "$cycles" "$cuts" "$commits" "$rounds" "$real"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
