# The verify of header.py: every record acknowledged in ACKS is in DIR/data, and DIR/lock is absent, empty or
# starts with its header (the heartbeat was written after it, in the same page). It then removes ACKS.
# usage: header_check.py DIR ACKS
import os
import sys

directory, acks = sys.argv[1], sys.argv[2]
acked = [line.strip() for line in open(acks)] if os.path.exists(acks) else []
if os.path.exists(acks):
    os.remove(acks)
data = os.path.join(directory, "data")
have = [line.strip() for line in open(data)] if os.path.exists(data) else []
for record in acked:
    if record not in have:
        print("acknowledged %s, data holds %r" % (record, have))
        sys.exit(1)
lock = os.path.join(directory, "lock")
header = open(lock, "rb").read() if os.path.exists(lock) else b""
if header and not b"MAGICMAG".startswith(header[:8]):
    print("lock's header is lost: it holds %r" % header)
    sys.exit(1)
print("lock holds %r" % header)
