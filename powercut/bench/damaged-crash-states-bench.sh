#!/usr/bin/env bash
# The crash states of one recorded run of SQLite WAL+FULL (COMMITS one-row commits) checked undamaged and with up
# to BLOCKS damaged blocks of 4096 bytes a state (bit rot and zeroed, CrashStates.damaged), the two checks of the
# same recording alternating over ROUNDS rounds, on the file model (64 MiB, journaled rules) and the block model
# (32 MiB ext4 with 4 KiB blocks); printed, not asserted: the medians and their ratio, and what the damaged checks'
# reads came to (intact, detected, silent loss, silent corruption).
#
# usage: powercut/bench/damaged-crash-states-bench.sh [-c COMMITS] [-m MAX_STATES] [-b BLOCKS] [-M MODELS] [-r ROUNDS]
#   defaults: 100 commits, at most 300 states, 4 blocks a state, models file,block, 3 rounds
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the reactor (package, no tests, no install)
set -euo pipefail
commits=100 max=300 blocks=4 models=file,block rounds=3
while getopts "c:m:b:M:r:h" opt; do
    case $opt in
        c) commits=$OPTARG ;;
        m) max=$OPTARG ;;
        b) blocks=$OPTARG ;;
        M) models=$OPTARG ;;
        r) rounds=$OPTARG ;;
        *) sed -n '2,11p' "$0"; exit 2 ;;
    esac
done
[[ $models != *block* || $(id -u) == 0 ]] || { echo "bench: the block model needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "bench: building what it needs (package, no tests, no install)" >&2
mvn -B -q -o -Dstyle.color=never -pl sqlite -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile=target/damaged-crash-states-bench.classpath >/dev/null
cp="sqlite/target/classes:$(cat sqlite/target/damaged-crash-states-bench.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/DamagedCrashStatesBench.java" "$commits" "$max" "$blocks" "$models" "$rounds"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
