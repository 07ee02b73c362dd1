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
# flushcheck leaves the first two rounds after each of its windows out of its latencies (a sync after a pause is
# slower than one in a loop that does not pause); each C+windows case runs twice, with those rounds in (as fio
# would count them) and left out (...-left-out, as flushcheck does).
#
# usage: cli/bench/sync-figures.sh [-p ROUNDS] [-n WRITES] [-c CASES] [-B JAR] [-d] [-r] [-P CPU] [DIR]
#   ROUNDS  rounds of every case (default 5); WRITES: overwrite-fdatasync's rounds per run (default 1000)
#   CASES   etcd, overwrite or both (default both)
#   JAR     another build's flushcheck.jar, run as "flushcheck-B" beside this one's (before and after a change)
#   -d      where the differences go: flushcheck's own probe loop with each round noted (ProbeRounds.java, in a JVM
#           of its own: "probe-loop"), and a bare loop in Java (SyncRounds.java: JNA bound as the probe binds it)
#           without and with the windows, beside the C loop; then the rounds of each case with windows by their
#           place in their stretch (the round right after a window, the 2nd, 3rd, 4th to 10th, against the
#           others), and the first tenth of each loop's rounds against the rest (where a cold JVM compiles)
#   -r      every case at real-time priority (chrt -f 10; root): other processes' CPU use then delays none of
#           them, which on a loaded machine is most of every figure; a user's run does not look like that
#   -P CPU  every case on that CPU alone (taskset -c CPU). A sync's time depends on whether the loop runs on the
#           CPU that takes the disk's interrupts (/proc/interrupts): unpinned, each run draws its CPU, and single
#           runs differ by that much. A JVM so pinned sees one CPU, and its compiler threads share it
#   DIR     a directory on the disk to judge (default: cli/target/bench-figures, created)
# needs: fio, gcc, java 17, python3, cli/target/flushcheck.jar (mvn -q -B -pl cli -am package -DskipTests)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$(dirname "$here")/target/flushcheck.jar"
rounds=5
writes=1000
cases=both
before=
diagnose=
realtime=()
pin=()
while getopts "p:n:c:B:drP:h" opt; do
    case $opt in
        p) rounds=$OPTARG ;;
        n) writes=$OPTARG ;;
        c) cases=$OPTARG ;;
        B) before=$OPTARG ;;
        d) diagnose=1 ;;
        r) realtime=(chrt -f 10) ;;
        P) pin=(taskset -c "$OPTARG") ;;
        *) bench_usage ;;
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
[[ -z $before || -f $before ]] || { echo "sync-figures.sh: -B $before: no such jar" >&2; exit 2; }
if ((${#realtime[@]})); then
    chrt -f 10 true 2>/dev/null || { echo "sync-figures.sh: -r needs root (chrt -f)" >&2; exit 2; }
fi
if ((${#pin[@]})); then
    "${pin[@]}" true 2>/dev/null || { echo "sync-figures.sh: -P ${pin[2]}: not a CPU this process may run on" >&2; exit 2; }
fi
# Every case runs through this: the pinning and the priority asked for, else nothing.
realtime=("${pin[@]}" "${realtime[@]}")
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f "$dir"/etcd.0.0 "$dir"/.bench-loop-*.probe*' EXIT INT TERM
gcc -O2 -Wall -o "$work/sync-loop" "$here/sync-loop.c"
if [[ -n $diagnose ]]; then
    # ProbeRounds forwards the probe's calls through the core tests' ForwardingSyncCalls, compiled from its source
    # beside it: one forwarder, kept whole by the tests' build, and nothing of the bench's in the product.
    javac -d "$work/classes" -cp "$jar" "$here/SyncRounds.java" "$here/ProbeRounds.java" \
        "$(dirname "$(dirname "$here")")/core/src/test/java/io/flushcheck/probe/ForwardingSyncCalls.java"
fi

# The stat files flushcheck brackets a sync with: the directory's device and, for a partition, its disk.
dev=$(findmnt -no MAJ:MIN -T "$dir" | tr -d ' ')
brackets=()
if [[ -e /sys/dev/block/$dev/stat ]]; then
    brackets+=(-s "/sys/dev/block/$dev/stat")
    [[ -e /sys/dev/block/$dev/partition ]] && brackets+=(-s "$(readlink -f "/sys/dev/block/$dev/..")/stat")
fi

load() { cut -d' ' -f1 /proc/loadavg; }
# row ROUND CASE LOAD SYNC_P50 SYNC_P99 ROUND_P50 (microseconds)
row() { printf '%-3s %-34s %6s %10.1f %10.1f %10.1f\n' "$@" | tee -a "$work/rows"; }

etcd_fio() {
    local l; l=$(load)
    "${realtime[@]}" fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300 --name=etcd --directory="$dir" \
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
etcd_flushcheck() { # ROUND [JAR NAME]
    local l; l=$(load)
    "${realtime[@]}" java -jar "${2:-$jar}" --preset etcd --json --quiet "$dir" >"$work/fc.json"
    python3 - "$work/fc.json" >"$work/v" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
p, c = r["preset"], r["costs"][0]
if p["syncP99Micros"] is None:
    sys.exit("flushcheck measured nothing in this directory: " + r["verdict"])
print(p["syncP50Micros"], p["syncP99Micros"], c["p50Micros"])
PY
    row "$1" "etcd ${3:-flushcheck}" "$l" $(cat "$work/v")
}
# A C loop (sync-loop) or, with java: first, the same loop in Java (SyncRounds); -b lines kept for the breakdown.
c_loop() { # ROUND CASE sync-loop-args...
    local r=$1 name=$2 l; shift 2; l=$(load)
    local rc=0
    if [[ $1 == java: ]]; then
        shift
        "${realtime[@]}" java -cp "$work/classes:$jar" SyncRounds "$@" >"$work/v" || rc=$?
    elif [[ $1 == probe: ]]; then
        shift
        "${realtime[@]}" java -cp "$work/classes:$jar" io.flushcheck.probe.ProbeRounds "$@" >"$work/v" || rc=$?
    else
        "${realtime[@]}" "$work/sync-loop" "$@" >"$work/v" || rc=$?
    fi
    if ((rc)) || ! read -r s50 s99 _ r50 _ <"$work/v"; then
        echo "sync-figures.sh: round $r, $name: exit $rc, printed: $(head -c 300 "$work/v")" >&2
        exit 1
    fi
    row "$r" "$name" "$l" "$s50" "$s99" "$r50"
    sed -n '2,$s/^/'"$r ${name// /_} "'/p' "$work/v" >>"$work/extra"
}
overwrite_flushcheck() { # ROUND [JAR NAME]
    local l; l=$(load)
    "${realtime[@]}" java -jar "${2:-$jar}" --json --quiet --modes overwrite-fdatasync --rounds "$writes" "$dir" >"$work/fc.json"
    python3 - "$work/fc.json" >"$work/v" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
if not r["costs"]:
    sys.exit("flushcheck measured nothing in this directory: " + r["verdict"])
c = r["costs"][0]
print(c["sync"]["p50Micros"], c["sync"]["p99Micros"], c["p50Micros"])
PY
    row "$1" "overwrite ${3:-flushcheck}" "$l" $(cat "$work/v")
}

size=$((22 << 20))
b=${diagnose:+-b}
list=()
if [[ $cases != overwrite ]]; then
    list+=("etcd_fio" "etcd_flushcheck" "c_loop etcd C-fallocate $b $dir fallocate 2300 $size"
           "c_loop etcd C-append $dir append 2300 $size"
           "c_loop etcd C-fallocate+windows $b ${brackets[*]} -I -c $dir fallocate 2300 $size"
           "c_loop etcd C-fallocate+windows-left-out -x ${brackets[*]} -I -c $dir fallocate 2300 $size")
    [[ -n $before ]] && list+=("etcd_flushcheck $before flushcheck-B")
    [[ -n $diagnose ]] && list+=("c_loop etcd probe-loop probe: $dir append-fdatasync 2300 $((size / 2300)) fallocate")
fi
if [[ $cases != etcd ]]; then
    list+=("c_loop overwrite C $b $dir overwrite 4096 $((writes * 4096))" "overwrite_flushcheck"
           "c_loop overwrite C+windows $b ${brackets[*]} -I -c $dir overwrite 4096 $((writes * 4096))"
           "c_loop overwrite C+windows-left-out -x ${brackets[*]} -I -c $dir overwrite 4096 $((writes * 4096))")
    [[ -n $before ]] && list+=("overwrite_flushcheck $before flushcheck-B")
    if [[ -n $diagnose ]]; then
        list+=("c_loop overwrite probe-loop probe: $dir overwrite-fdatasync 4096 $writes"
               "c_loop overwrite Java-loop java: -b $dir overwrite 4096 $((writes * 4096))"
               "c_loop overwrite Java-loop+windows java: -b ${brackets[*]} -I -c $dir overwrite 4096 $((writes * 4096))")
    fi
fi

echo "directory $dir: $(findmnt -no FSTYPE,SOURCE -T "$dir" | tr -s ' '), $(nproc) cores;" \
    "brackets on: ${brackets[*]:-none}${realtime[*]:+; every case under: ${realtime[*]}}"
printf '%-3s %-34s %6s %10s %10s %10s\n' rnd case load "sync p50" "sync p99" "round p50"
for ((r = 1; r <= rounds; r++)); do
    n=${#list[@]}
    for ((k = 0; k < n; k++)); do
        # Turn the order each round, so that no case always follows the same one.
        read -r fn a c rest <<<"${list[$(((k + r - 1) % n))]}"
        if [[ $fn == c_loop ]]; then
            c_loop "$r" "$a $c" $rest
        else
            $fn "$r" $a $c
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
print("%-34s %6s %10s %10s %10s %8s %8s %8s" % ("case", "load", "sync p50", "sync p99", "round p50",
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
    print("%-34s %6.2f %10.1f %10.1f %10.1f %8.2f %8.2f %8.2f" % (case, med("load"), med("s50"), med("s99"), med("r50"),
          st.median(ratios["s50"]), st.median(ratios["s99"]), st.median(ratios["r50"])))
PY
if [[ -s $work/extra ]]; then
    python3 - "$work/extra" <<'PY'
import math, statistics as st, sys
# Lines: ROUND CASE by-place 1:COUNT P50 P99 2:... 4-10:... 11+:..., and SyncRounds' others (ROUND CASE first-tenth
# P50 P99 rest P50 P99; ROUND CASE brackets MICROS; ProbeRounds': ROUND CASE compiling MILLIS, ROUND CASE warm-up
# MILLIS COMPILING_MILLIS)
by, tenth, brackets, compiling, warmup = {}, {}, {}, {}, {}
for l in open(sys.argv[1]):
    f = l.split()
    case = f[1].replace("_", " ")
    if f[2] == "first-tenth":
        tenth.setdefault(case, []).append((float(f[3]) / float(f[6]), float(f[4]) / float(f[7])))
        continue
    if f[2] == "brackets":
        brackets.setdefault(case, []).append(float(f[3]))
        continue
    if f[2] == "compiling":
        compiling.setdefault(case, []).append(float(f[3]))
        continue
    if f[2] == "warm-up":
        warmup.setdefault(case, []).append((float(f[3]), float(f[4])))
        continue
    if f[2] != "by-place" or not ("+windows" in case or "probe-loop" in case):
        continue
    places = {}
    for j in range(3, len(f), 3):
        name, n = f[j].split(":")
        places[name] = (int(n), float(f[j + 1]), float(f[j + 2]))
    by.setdefault(case, []).append(places)
print("\nfdatasync by the round's place in its stretch: median over the rounds of its p50 (and p99) over the p50 (p99)"
      "\nof the 11th and later rounds of the same run; 1 is the round right after a window")
print("%-34s %7s %16s %16s %16s %16s" % ("case", "rounds", "1", "2", "3", "4-10"))
for case, runs in by.items():
    runs = [p for p in runs if p["11+"][0] > 0 and not math.isnan(p["11+"][1])]
    if not runs:
        continue
    cells = []
    for k in ("1", "2", "3", "4-10"):
        x50 = [p[k][1] / p["11+"][1] for p in runs if p[k][0] > 0]
        x99 = [p[k][2] / p["11+"][2] for p in runs if p[k][0] > 0]
        cells.append("%6.2f (%6.2f)" % (st.median(x50), st.median(x99)) if x50 else "-")
    print("%-34s %7d %16s %16s %16s %16s" % (case, st.median(sum(v[0] for v in p.values()) for p in runs), *cells))
if tenth:
    print("\nthe first tenth of each run's rounds against the rest (a cold JVM's code is compiled while the loop runs),"
          "\nmedian over the rounds of its fdatasync p50 (p99) over the rest's:")
for case, x in tenth.items():
    print("%-34s %6.2f (%6.2f)" % (case, st.median(v[0] for v in x), st.median(v[1] for v in x)))
for case, x in brackets.items():
    print("%s: the two bracket reads around a sync take %.1f us (median p50)" % (case, st.median(x)))
for case, x in compiling.items():
    print("%s: the JVM's compilers worked %.0f ms while the measured rounds ran (median; %.0f to %.0f)"
          % (case, st.median(x), min(x), max(x)))
for case, x in warmup.items():
    print("%s: before the measured rounds (the probe's warm-up, the file's layout) %.0f ms, the compilers working %.0f ms"
          " of it (medians)" % (case, st.median(v[0] for v in x), st.median(v[1] for v in x)))
PY
fi
