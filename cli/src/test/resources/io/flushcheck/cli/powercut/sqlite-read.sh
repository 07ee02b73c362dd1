#!/bin/sh
# sqlite-read.sh DIR: the rows of DIR/db's table t, a line each, to the file $FLUSHCHECK_READ names; sqlite3's
# exit (non-zero on an error: a malformed database, a missing table) is the script's.
exec sqlite3 "$1/db" "SELECT v FROM t ORDER BY rowid;" > "$FLUSHCHECK_READ"
