#!/usr/bin/env bash
# Verdicts a CI gate can trust on a busy runner: the check behind @RequiresRealFlush (append-fsync and
# overwrite-fdatasync, 64 rounds, re-measured with more rounds while the disk is too busy to tell), run
# RUNS times in each case, each in a cold JVM, and the verdicts counted:
#   healthy-quiet        a directory on the disk under the working directory, nothing else running
#   healthy-fio1/-fio4   the same while 1 / 4 fio jobs append and fdatasync on that disk
#   fuse-swallow-fio1/-fio4  a FUSE daemon that swallows syncs (python3-fusepy), over that disk, under that load
#   loop-nobarrier-fio4  ext4 on a loop device whose image is on an ext4 mounted nobarrier, under that load
# A wrong verdict is anything but REAL_FLUSH for a healthy case, and REAL_FLUSH for the others.
# With BEFORE_DIR, the quiet case runs alternately with that build too, for the cold JVM's time. The JSON
# of each wrong verdict is kept in ./busy-verdicts-wrong/.
#
# usage: cli/bench/busy-verdicts.sh AFTER_DIR [RUNS] [BEFORE_DIR]
#   AFTER_DIR, BEFORE_DIR  directories each holding a flushcheck.jar and its lib/ (cli/target after a package)
# Needs root (mounts), fio, /usr/bin/python3 with fusepy, and a disk under the working directory.
set -euo pipefail
after=${1:?usage: busy-verdicts.sh AFTER_DIR [RUNS] [BEFORE_DIR]}
runs=${2:-20}
before=${3:-}
here=$(pwd)
work=$(mktemp -d "$here/busy-verdicts.XXXXXX")
script=$(cd "$(dirname "$0")/../.." && pwd)/core/src/test/resources/fuse/passthrough.py
fio_pid= fuse_pid=
cleanup() {
    [[ -n $fio_pid ]] && kill "$fio_pid" 2>/dev/null && wait "$fio_pid" 2>/dev/null
    mountpoint -q "$work/mnt" && fusermount -u "$work/mnt"
    [[ -n $fuse_pid ]] && wait "$fuse_pid" 2>/dev/null
    mountpoint -q "$work/inner" && umount "$work/inner"
    mountpoint -q "$work/outer" && umount "$work/outer"
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work"/{healthy,load,src,mnt,outer,inner,json}
results=0

load() { # JOBS: fio appending and fdatasyncing beside the probe
    fio --name=busy --directory="$work/load" --rw=write --bs=4k --size=4m --fdatasync=1 --numjobs="$1" \
        --time_based --runtime=3600 >/dev/null 2>&1 &
    fio_pid=$!
    sleep 2
}
unload() { kill "$fio_pid"; wait "$fio_pid" 2>/dev/null || true; fio_pid=; }

once() { # JAR_DIR DIR -> "VERDICT WALL_MS"; each result's JSON kept in $work/json for a wrong verdict's evidence
    local start end json
    start=$(date +%s%N)
    json=$(java -jar "$1/flushcheck.jar" --json --quiet --modes append-fsync,overwrite-fdatasync --rounds 64 "$2")
    end=$(date +%s%N)
    printf '%s' "$json" > "$work/json/$((++results)).json"
    echo "$(printf '%s' "$json" | grep -m1 '"verdict"' | tr -dc 'A-Z_') $(( (end - start) / 1000000 )) $results"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

report() { # CASE EXPECT FILE
    local n real unknown no wrong
    n=$(wc -l < "$3"); real=$(grep -c '^REAL_FLUSH ' "$3" || true); no=$(grep -c '^NO_REAL_FLUSH ' "$3" || true)
    unknown=$(grep -c '^UNKNOWN ' "$3" || true)
    if [[ $2 == REAL_FLUSH ]]; then wrong=$((n - real)); else wrong=$real; fi
    if ((wrong)); then # the evidence of each wrong verdict, kept where the script runs
        mkdir -p "$here/busy-verdicts-wrong"
        while read -r verdict _ id; do
            if [[ ($2 == REAL_FLUSH && $verdict != REAL_FLUSH) || ($2 != REAL_FLUSH && $verdict == REAL_FLUSH) ]]; then
                cp "$work/json/$id.json" "$here/busy-verdicts-wrong/$1-$id.json"
            fi
        done < "$3"
    fi
    printf '%-22s runs %3d  REAL_FLUSH %3d  UNKNOWN %3d  NO_REAL_FLUSH %3d  wrong %3d  median %5d ms\n' \
        "$1" "$n" "$real" "$unknown" "$no" "$wrong" "$(awk '{print $2}' "$3" | median)"
}

run_case() { # CASE EXPECT DIR
    : > "$work/$1"
    for _ in $(seq "$runs"); do once "$after" "$3" >> "$work/$1"; done
    report "$1" "$2" "$work/$1"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -n $before ]]; then
    : > "$work/before"; : > "$work/after"
    for _ in $(seq "$runs"); do once "$before" "$work/healthy" >> "$work/before"; once "$after" "$work/healthy" >> "$work/after"; done
    report healthy-quiet-before REAL_FLUSH "$work/before"
    report healthy-quiet REAL_FLUSH "$work/after"
else
    run_case healthy-quiet REAL_FLUSH "$work/healthy"
fi

/usr/bin/python3 "$script" --swallow-fsync "$work/src" "$work/mnt" & fuse_pid=$!
for _ in $(seq 300); do mountpoint -q "$work/mnt" && break; sleep 0.1; done
mountpoint -q "$work/mnt" || { echo "busy-verdicts.sh: the FUSE daemon did not mount $work/mnt in 30 s" >&2; exit 1; }
truncate -s 256M "$work/outer.img" && mkfs.ext4 -q -F "$work/outer.img" && mount -o loop,nobarrier "$work/outer.img" "$work/outer"
truncate -s 64M "$work/outer/inner.img" && mkfs.ext4 -q -F "$work/outer/inner.img" && mount -o loop "$work/outer/inner.img" "$work/inner"

for jobs in 1 4; do
    load "$jobs"
    run_case "healthy-fio$jobs" REAL_FLUSH "$work/healthy"
    run_case "fuse-swallow-fio$jobs" not "$work/mnt"
    [[ $jobs == 4 ]] && run_case "loop-nobarrier-fio$jobs" not "$work/inner"
    unload
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
