#!/usr/bin/env bash
# The VM guests' time target: `flushcheck vm --json` for all five cache modes with the guest image cached.
# Caches the image first (one short unsafe guest), then times RUNS full runs and prints, per run, the
# wall time and per environment the verdict, the guest's boot and run times and the flushes on both sides
# of the disk, with the load average before each run (the figures depend on it: QEMU emulates the CPU).
#
# usage: vm/bench/five-cache-modes.sh [-r RUNS] [-n ROUNDS] [HOST_DIR]
#   RUNS    timed runs (default 1), ROUNDS per mode (default: the command's, 200)
#   HOST_DIR  where the host probe runs and the disk images lie (default: cli/target/bench-vm, created)
# needs: root, cli/target/flushcheck.jar (mvn -q -B -pl cli -am package -DskipTests), what `flushcheck vm` needs
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$(dirname "$here")")
jar="$repo/cli/target/flushcheck.jar"
runs=1
rounds=()
while getopts "r:n:h" opt; do
    case $opt in
        r) runs=$OPTARG ;;
        n) rounds=(--rounds "$OPTARG") ;;
        *) bench_usage ;;
    esac
done
shift $((OPTIND - 1))
bench_whole -r "$runs"
bench_need_jar "$jar"
dir=${1:-$repo/cli/target/bench-vm}
mkdir -p "$dir"
out=$(mktemp)
trap 'rm -f "$out"' EXIT INT TERM

java -jar "$jar" vm --quiet --cache unsafe --rounds 1 --modes overwrite-fdatasync --host-dir "$dir" >/dev/null
for ((i = 1; i <= runs; i++)); do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    start=$(date +%s%N)
    java -jar "$jar" vm --json --quiet "${rounds[@]}" --host-dir "$dir" >"$out"
    end=$(date +%s%N)
    printf 'run %d: %.1f s for the host and five guests (load average before: %s)\n' "$i" \
        "$(echo "($end - $start) / 1000000000" | bc -l)" "$load"
    /usr/bin/python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    if r["environment"] == "host":
        syncs = sum(c["rounds"] for c in r["costs"])
        flushes = sum(c["flushes"] or 0 for c in r["costs"])
        print("  %-24s %-14s %5.1f s              host flushes %6d for %d syncs" % ("host", r["verdict"],
              r["elapsedMillis"] / 1000, flushes, syncs))
        continue
    print("  %-24s %-14s %5.1f s (boot %.1f s)  guest flushes %6d  host flushes %6d" % (r["environment"], r["verdict"],
          r["elapsedMillis"] / 1000, r["bootMillis"] / 1000, r["guestFlushes"], r["hostFlushes"]))
for f in doc["failures"]:
    print("  failed: %s" % f["reason"])
PY
done
