#!/bin/sh
# Starts PostgreSQL on what survived (it replays its WAL) and checks that every acknowledged row is there.
# A cut that came while the command was still copying the cluster onto the disk (no ACKS.ready) found
# nothing of PostgreSQL's to check.
# Usage: pg-verify.sh BINDIR DIR ACKS SOCKETS
set -u
bin=$1 dir=$2 acks=$3 sockets=$4
if [ ! -e "$acks.ready" ]; then
    echo "the cut came before the cluster was in place: 0 acknowledged rows present"
    exit 0
fi
rm -f "$sockets"/.s.PGSQL.*
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }
if ! as_pg "$bin/pg_ctl" -D "$dir/pg" -l "$dir/pg/verify.log" -w -s -t 60 \
        -o "-c listen_addresses= -c unix_socket_directories=$sockets" start; then
    tail -n 3 "$dir/pg/verify.log"
    echo "the survivor did not start"
    exit 2
fi
rows=$(as_pg "$bin/psql" -h "$sockets" -d postgres -qAtX -c "select string_agg(id::text, ' ' order by id) from t")
for id in $(cat "$acks"); do
    case " $rows " in
        *" $id "*) ;;
        *) echo "acknowledged row $id is missing"; exit 1 ;;
    esac
done
echo "$(wc -l < "$acks") acknowledged rows present"
