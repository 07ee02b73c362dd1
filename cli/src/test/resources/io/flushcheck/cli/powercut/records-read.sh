#!/bin/sh
# records-read.sh DIR MODE: reads DIR/log back as records.sh MODE wrote it, writing each record to the file
# $FLUSHCHECK_READ names, a line each. MODE checksummed checks each line's CRC and exits 1 naming the first line
# whose CRC does not match, or when the last line has no newline; plain takes each line as it is. MODE ignore reads
# nothing back and exits 0; crash ends a program of its own with SIGSEGV and exits with its status; hang sleeps.
dir=$1 mode=$2
case "$mode" in
plain)
    cat "$dir/log" > "$FLUSHCHECK_READ" ;;
checksummed)
    # Each record was synced whole, its newline with it: a last line without one was damaged, not torn.
    if [ -s "$dir/log" ] && [ "$(tail -c 1 "$dir/log" | od -An -tx1 | tr -d ' ')" != 0a ]; then
        echo "the log's last line has lost its newline" >&2
        exit 1
    fi
    # The shell's read takes a failed read(2) for the end of the file: read the log with cat, which says so.
    if ! log=$(cat "$dir/log"); then
        echo "the log cannot be read" >&2
        exit 1
    fi
    : > "$FLUSHCHECK_READ"
    [ -n "$log" ] || exit 0
    n=0
    while IFS= read -r line; do
        n=$((n + 1))
        crc=${line%% *}
        record=${line#* }
        if [ "$crc" = "$line" ] || [ "$(printf '%s' "$record" | cksum | cut -d ' ' -f 1)" != "$crc" ]; then
            echo "line $n of the log fails its CRC" >&2
            exit 1
        fi
        printf '%s\n' "$record" >> "$FLUSHCHECK_READ"
    done <<EOF
$log
EOF
    ;;
ignore)
    cat "$dir/log" > /dev/null ;;
crash)
    sh -c 'kill -SEGV $$'
    exit $? ;;
hang)
    sleep 600 ;;
esac
