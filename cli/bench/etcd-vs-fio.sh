#!/usr/bin/env bash
# etcd's disk check two ways on one directory in one run, alternating: `flushcheck --preset etcd` and
# the fio command etcd's documentation gives (fio --rw=write --ioengine=sync --fdatasync=1 --size=22m
# --bs=2300). Prints each run's fdatasync latency alone (p50, p99; fio's "sync" figures, flushcheck's
# "preset" ones), the median of each tool's p99s and their ratio.
#
# usage: cli/bench/etcd-vs-fio.sh [-p PAIRS] [DIR]
#   PAIRS  alternating flushcheck/fio runs (default 2)
#   DIR    a directory on the disk to judge (default: cli/target/bench-etcd, created)
# needs: fio, java 17, python3, cli/target/flushcheck.jar (mvn -q -B -pl cli -am package -DskipTests)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$(dirname "$here")/target/flushcheck.jar"
pairs=2
while getopts "p:h" opt; do
    case $opt in
        p) pairs=$OPTARG ;;
        *) bench_usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $pairs =~ ^[1-9][0-9]*$ ]] || { echo "etcd-vs-fio.sh: -p takes a positive number" >&2; exit 2; }
dir=${1:-"$(dirname "$here")/target/bench-etcd"}
mkdir -p "$dir"
command -v fio >/dev/null || { echo "etcd-vs-fio.sh: needs fio (apt-get install fio)" >&2; exit 2; }
[[ -f $jar ]] || { echo "etcd-vs-fio.sh: no $jar: mvn -q -B -pl cli -am package -DskipTests" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f "$dir"/etcd.0.0' EXIT

printf '%-4s %-11s %10s %10s\n' run tool "p50 us" "p99 us"
for ((i = 1; i <= pairs; i++)); do
    java -jar "$jar" --preset etcd --json --quiet "$dir" >"$work/flushcheck-$i.json"
    python3 - "$work/flushcheck-$i.json" "$i" <<'PY' | tee -a "$work/rows"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
p = r["preset"]
if p["syncP99Micros"] is None:
    sys.exit("flushcheck measured nothing in this directory: " + r["verdict"])
print("%-4s %-11s %10.0f %10.0f" % (sys.argv[2], "flushcheck", p["syncP50Micros"], p["syncP99Micros"]))
PY
    fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300 --name=etcd --directory="$dir" \
        --output-format=json >"$work/fio-$i.json"
    rm -f "$dir"/etcd.0.0
    python3 - "$work/fio-$i.json" "$i" <<'PY' | tee -a "$work/rows"
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
pct = job["sync"]["lat_ns"]["percentile"]
print("%-4s %-11s %10.0f %10.0f" % (sys.argv[2], "fio", pct["50.000000"] / 1000, pct["99.000000"] / 1000))
PY
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
p99 = {t: statistics.median(float(r[3]) for r in rows if r[1] == t) for t in ("flushcheck", "fio")}
print("median p99 of the fdatasync alone: flushcheck %.0f us, fio %.0f us, flushcheck/fio %.2f"
      % (p99["flushcheck"], p99["fio"], p99["flushcheck"] / p99["fio"]))
PY
