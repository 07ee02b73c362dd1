#!/bin/sh
# records.sh DIR MODE N: appends N records to DIR/log, each line synced (coreutils' sync FILE: its fsync) before the
# record is acknowledged, a line to the file $FLUSHCHECK_ACKS names. MODE checksummed writes each record after its
# CRC (cksum), "CRC RECORD"; plain writes the record alone.
set -e
dir=$1 mode=$2 n=$3
pad=$(printf '%0200d' 0)
i=1
while [ "$i" -le "$n" ]; do
    record="record $i $pad"
    if [ "$mode" = checksummed ]; then
        line="$(printf '%s' "$record" | cksum | cut -d ' ' -f 1) $record"
    else
        line=$record
    fi
    printf '%s\n' "$line" >> "$dir/log"
    sync "$dir/log"
    printf '%s\n' "$record" >> "$FLUSHCHECK_ACKS"
    i=$((i + 1))
done
