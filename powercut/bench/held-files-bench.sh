#!/usr/bin/env bash
# A class of 20 @RepeatedPowerCut invocations over a store that keeps its file open across the cut (and past
# its invocation, as a cut leaves an embedded store open), on the block model (32 MiB ext4) and the file
# model, with the block model's class again closing its files at the end of each invocation, alternated
# round by round in one run; printed, not asserted: wall time per invocation and the loop devices of the
# run attached during a class, after it and once its files are closed. Target: the block model's
# invocation within 2x of the file model's; no loop device attached once the files are closed.
#
# usage: powercut/bench/held-files-bench.sh [-r ROUNDS]   (default 1 round: 20 invocations of each class)
# needs: root, /dev/fuse, mkfs.ext4; builds the reactor (package, no tests, no install)
set -euo pipefail
rounds=1
while getopts "r:h" opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        *) sed -n '2,10p' "$0"; exit 2 ;;
    esac
done
[[ $(id -u) == 0 ]] || { echo "bench: needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "bench: building what it needs (package, no tests, no install)" >&2
mvn -B -q -o -Dstyle.color=never -pl powercut -am package -DskipTests dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/held-files-bench.classpath >/dev/null
cp="powercut/target/classes:$(cat powercut/target/held-files-bench.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/HeldFilesBench.java" "$rounds"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
