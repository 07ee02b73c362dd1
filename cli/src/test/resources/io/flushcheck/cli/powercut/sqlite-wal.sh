#!/bin/sh
# sqlite-wal.sh DIR N: N one-row commits into the SQLite database DIR/db in WAL mode, synchronous FULL, with no
# checkpoint after the table's: each commit is a frame of DIR/db-wal, synced before sqlite3 acknowledges the row
# (".shell" appends it to the file $FLUSHCHECK_ACKS names, after the commit returned). sqlite3 is left running and
# dies at the cut, as a server does, so its WAL is not checkpointed at close.
dir=$1 n=$2
{
    echo "PRAGMA journal_mode=WAL;"
    echo "PRAGMA synchronous=FULL;"
    echo "PRAGMA wal_autocheckpoint=0;"
    echo "CREATE TABLE t(v TEXT);"
    echo "PRAGMA wal_checkpoint(TRUNCATE);"
    i=1
    while [ "$i" -le "$n" ]; do
        echo "INSERT INTO t VALUES('row $i');"
        echo ".shell echo 'row $i' >> \"\$FLUSHCHECK_ACKS\""
        i=$((i + 1))
    done
    sleep 600
} | sqlite3 "$dir/db" > /dev/null &
while [ "$(wc -l < "$FLUSHCHECK_ACKS")" -lt "$n" ]; do
    sleep 0.05
done
