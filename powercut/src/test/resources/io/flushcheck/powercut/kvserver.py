# A key-value server, written as small services are: it makes its data directory when it starts
# (os.makedirs), appends each PUT to a log it fsyncs, and answers 204 once that fsync has returned. It never
# fsyncs a directory: on a journaled filesystem the log's first fsync commits the directories' creation.
# usage: kvserver.py DIR; prints the port it listens on (127.0.0.1), then serves until killed.
import http.server
import os
import sys

data = os.path.join(sys.argv[1], "server", "data")
os.makedirs(data, exist_ok=True)
log = os.open(os.path.join(data, "log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        os.write(log, self.path[1:].encode() + b"=" + body + b"\n")
        os.fsync(log)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_port, flush=True)
server.serve_forever()
