# A header and a heartbeat written into the first 16 bytes of a lock file, never synced; then a record written,
# the record's file and the directory synced, and the record acknowledged (appended to ACKS, outside the disk).
# usage: header.py DIR ACKS
import os
import sys

d, acks = sys.argv[1], sys.argv[2]
fd = os.open(d + "/lock", os.O_CREAT | os.O_RDWR, 0o644)
os.pwrite(fd, b"MAGICMAG", 0)     # header
os.pwrite(fd, b"HEARTBT1", 8)     # heartbeat, the same 4 KiB page
os.close(fd)
fd = os.open(d + "/data", os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o644)
os.write(fd, b"record 1\n")
os.fsync(fd)
os.close(fd)
dfd = os.open(d, os.O_RDONLY)
os.fsync(dfd)
os.close(dfd)
with open(acks, "a") as a:
    a.write("record 1\n")
