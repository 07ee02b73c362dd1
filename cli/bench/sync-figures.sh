#!/usr/bin/env bash
# flushcheck's sync figures beside fio's and a C loop's, on one directory in one run, and where any difference
# goes. Every round runs each case once, in an order that turns from round to round; each row says the load
# average when it ran. At the end: each case's medians, and the median over the rounds of its ratio to the
# reference that round (fio for etcd's check, the plain C loop for overwrite-fdatasync), which load that drifts
# from round to round does not skew as a ratio of medians would.
#
#   etcd      fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300 (the reference), flushcheck
#             --preset etcd, and the C loop (sync-loop.c) in fio's layout (fallocate'd file written from its
#             start), in an appended file, and in fio's layout with what flushcheck's probe does around its
#             syncs for the verdict (C-...+windows: a flush bracket read around each sync, and after every 10 ms
#             of rounds an idle window as long, spent spinning, with unsynced writes to a control file)
#   overwrite the C loop rewriting a preallocated file at 4 KiB (the reference), flushcheck --modes
#             overwrite-fdatasync, and the C loop with the same windows (C+windows)
#
# usage: cli/bench/sync-figures.sh [-p ROUNDS] [-n WRITES] [-c CASES] [DIR]
#   ROUNDS  rounds of every case (default 5); WRITES: overwrite-fdatasync's rounds per run (default 1000)
#   CASES   etcd, overwrite or both (default both)
#   DIR     a directory on the disk to judge (default: cli/target/bench-figures, created)
# needs: fio, gcc, java 17, python3, cli/target/flushcheck.jar (mvn -q -B -pl cli -am package -DskipTests)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$(dirname "$here")/target/flushcheck.jar"
rounds=5
writes=1000
cases=both
while getopts "p:n:c:h" opt; do
    case $opt in
        p) rounds=$OPTARG ;;
        n) writes=$OPTARG ;;
        c) cases=$OPTARG ;;
        *) sed -n '2,20p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[[ $rounds =~ ^[1-9][0-9]*$ && $writes =~ ^[1-9][0-9]*$ ]] \
    || { echo "sync-figures.sh: -p and -n take whole numbers from 1" >&2; exit 2; }
[[ $cases =~ ^(etcd|overwrite|both)$ ]] || { echo "sync-figures.sh: -c takes etcd, overwrite or both" >&2; exit 2; }
dir=${1:-"$(dirname "$here")/target/bench-figures"}
mkdir -p "$dir"
for tool in fio gcc java python3 findmnt; do
    command -v $tool >/dev/null || { echo "sync-figures.sh: needs $tool" >&2; exit 2; }
done
[[ -f $jar ]] || { echo "sync-figures.sh: no $jar: mvn -q -B -pl cli -am package -DskipTests" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f "$dir"/etcd.0.0 "$dir"/.bench-loop-*.probe' EXIT INT TERM
gcc -O2 -Wall -o "$work/sync-loop" "$here/sync-loop.c"

# The stat files flushcheck brackets a sync with: the directory's device and, for a partition, its disk.
dev=$(findmnt -no MAJ:MIN -T "$dir" | tr -d ' ')
brackets=()
if [[ -e /sys/dev/block/$dev/stat ]]; then
    brackets+=(-s "/sys/dev/block/$dev/stat")
    [[ -e /sys/dev/block/$dev/partition ]] && brackets+=(-s "$(readlink -f "/sys/dev/block/$dev/..")/stat")
fi

load() { cut -d' ' -f1 /proc/loadavg; }
# row ROUND CASE LOAD SYNC_P50 SYNC_P99 ROUND_P50 (microseconds)
row() { printf '%-3s %-26s %6s %10.1f %10.1f %10.1f\n' "$@" | tee -a "$work/rows"; }

etcd_fio() {
    local l; l=$(load)
    fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300 --name=etcd --directory="$dir" \
        --output-format=json >"$work/fio.json"
    rm -f "$dir"/etcd.0.0
    python3 - "$work/fio.json" >"$work/v" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
s, w = job["sync"]["lat_ns"], job["write"]["clat_ns"]
print(s["percentile"]["50.000000"] / 1000, s["percentile"]["99.000000"] / 1000,
      (s["percentile"]["50.000000"] + w["percentile"]["50.000000"]) / 1000)
PY
    row "$1" "etcd fio" "$l" $(cat "$work/v")
}
etcd_flushcheck() {
    local l; l=$(load)
    java -jar "$jar" --preset etcd --json --quiet "$dir" >"$work/fc.json"
    python3 - "$work/fc.json" >"$work/v" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
p, c = r["preset"], r["costs"][0]
if p["syncP99Micros"] is None:
    sys.exit("flushcheck measured nothing in this directory: " + r["verdict"])
print(p["syncP50Micros"], p["syncP99Micros"], c["p50Micros"])
PY
    row "$1" "etcd flushcheck" "$l" $(cat "$work/v")
}
c_loop() { # ROUND CASE sync-loop-args...
    local r=$1 name=$2 l; shift 2; l=$(load)
    "$work/sync-loop" "$@" >"$work/v"
    read -r s50 s99 _ r50 _ <"$work/v"
    row "$r" "$name" "$l" "$s50" "$s99" "$r50"
}
overwrite_flushcheck() {
    local l; l=$(load)
    java -jar "$jar" --json --quiet --modes overwrite-fdatasync --rounds "$writes" "$dir" >"$work/fc.json"
    python3 - "$work/fc.json" >"$work/v" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
if not r["costs"]:
    sys.exit("flushcheck measured nothing in this directory: " + r["verdict"])
c = r["costs"][0]
print(c["sync"]["p50Micros"], c["sync"]["p99Micros"], c["p50Micros"])
PY
    row "$1" "overwrite flushcheck" "$l" $(cat "$work/v")
}

size=$((22 << 20))
list=()
if [[ $cases != overwrite ]]; then
    list+=("etcd_fio" "etcd_flushcheck" "c_loop etcd C-fallocate $dir fallocate 2300 $size"
           "c_loop etcd C-append $dir append 2300 $size"
           "c_loop etcd C-fallocate+windows ${brackets[*]} -I -c $dir fallocate 2300 $size")
fi
if [[ $cases != etcd ]]; then
    list+=("c_loop overwrite C $dir overwrite 4096 $((writes * 4096))" "overwrite_flushcheck"
           "c_loop overwrite C+windows ${brackets[*]} -I -c $dir overwrite 4096 $((writes * 4096))")
fi

echo "directory $dir: $(findmnt -no FSTYPE,SOURCE -T "$dir" | tr -s ' '), $(nproc) cores;" \
    "brackets on: ${brackets[*]:-none}"
printf '%-3s %-26s %6s %10s %10s %10s\n' rnd case load "sync p50" "sync p99" "round p50"
for ((r = 1; r <= rounds; r++)); do
    n=${#list[@]}
    for ((k = 0; k < n; k++)); do
        # Turn the order each round, so that no case always follows the same one.
        read -r fn a b rest <<<"${list[$(((k + r - 1) % n))]}"
        if [[ $fn == c_loop ]]; then
            c_loop "$r" "$a $b" $rest
        else
            $fn "$r"
        fi
    done
done 2>&1
python3 - "$work/rows" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
recs = []
for r in rows:
    recs.append(dict(rnd=r[0], case=" ".join(r[1:-4]), load=float(r[-4]), s50=float(r[-3]), s99=float(r[-2]),
                     r50=float(r[-1])))
ref = {"etcd": "etcd fio", "overwrite": "overwrite C"}
print("\nmedians over the rounds; ratios are the median of each round's ratio to %s" % " / ".join(ref.values()))
print("%-26s %6s %10s %10s %10s %8s %8s %8s" % ("case", "load", "sync p50", "sync p99", "round p50",
                                                 "x p50", "x p99", "x round"))
for case in dict.fromkeys(x["case"] for x in recs):
    mine = [x for x in recs if x["case"] == case]
    base = ref[case.split()[0]]
    ratios = {k: [] for k in ("s50", "s99", "r50")}
    for x in mine:
        b = [y for y in recs if y["case"] == base and y["rnd"] == x["rnd"]]
        if b:
            for k in ratios:
                ratios[k].append(x[k] / b[0][k])
    med = lambda k: st.median(x[k] for x in mine)
    print("%-26s %6.2f %10.1f %10.1f %10.1f %8.2f %8.2f %8.2f" % (case, med("load"), med("s50"), med("s99"), med("r50"),
          st.median(ratios["s50"]), st.median(ratios["s99"]), st.median(ratios["r50"])))
PY
