#!/bin/sh
# A PostgreSQL server as a user would run it under flushcheck powercut: the cluster copied onto the
# disk and synced, the server daemonized by pg_ctl (its workers are session leaders), one-row commits by
# psql, each acknowledgement logged outside the disk. ACKS.ready, outside the disk too, says the cluster
# was in place (copied and synced) before the server started. It exits leaving the server running.
# Usage: pg-command.sh BINDIR TEMPLATE DIR ACKS SOCKETS COMMITS
set -eu
bin=$1 template=$2 dir=$3 acks=$4 sockets=$5 commits=$6
: > "$acks"
rm -f "$acks.ready" "$sockets"/.s.PGSQL.*
cp -a "$template" "$dir/pg"
sync -f "$dir/pg"
: > "$acks.ready"
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }
as_pg "$bin/pg_ctl" -D "$dir/pg" -l "$dir/pg/server.log" -w -s \
    -o "-c listen_addresses= -c unix_socket_directories=$sockets" start
i=1
while [ "$i" -le "$commits" ]; do
    as_pg "$bin/psql" -h "$sockets" -d postgres -qAtX -v ON_ERROR_STOP=1 -c "insert into t values ($i)"
    echo "$i" >> "$acks"
    i=$((i + 1))
done
