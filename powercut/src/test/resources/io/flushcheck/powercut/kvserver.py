# A key-value server, written as small services are: it makes its data directory when it starts
# (os.makedirs), appends each PUT to a log it fsyncs, and answers 204 once that fsync has returned. It never
# fsyncs a directory: on a journaled filesystem the log's first fsync commits the directories' creation.
# Every request is answered, a PUT it cannot store with the reason, and every answer says the connection
# ends with it (an HTTP/1.0 server closes it; a client that kept it would send its next request into nothing).
# usage: kvserver.py DIR; prints the port it listens on (127.0.0.1), then serves until killed.
import http.server
import os
import sys

data = os.path.join(sys.argv[1], "server", "data")
os.makedirs(data, exist_ok=True)
log = os.open(os.path.join(data, "log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        length = self.headers["Content-Length"]
        if length is None or not length.isdigit():
            self.answer(411, "a PUT needs a Content-Length")
            return
        body = self.rfile.read(int(length))
        try:
            os.write(log, self.path[1:].encode() + b"=" + body + b"\n")
            os.fsync(log)
        except OSError as e:
            self.answer(500, "not stored: " + str(e))
            return
        self.answer(204, None)

    def answer(self, status, reason):
        self.send_response(status)
        self.send_header("Connection", "close")
        if reason is not None:
            text = (reason + "\n").encode()
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)
        else:
            self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_port, flush=True)
server.serve_forever()
