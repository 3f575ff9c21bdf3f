"""The local web server of the live view: the page, its event stream and the save links."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .. import resource

PAGE = resource("web", "page.html")
KEEPALIVE_S = 10.0


class _Handler(BaseHTTPRequestHandler):
    hub = None  # set per server
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # the terminal belongs to the game, not to access logs
        pass

    def _send(self, code, ctype, body, extra=()):
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            with open(PAGE, "rb") as f:
                return self._send(200, "text/html; charset=utf-8", f.read())
        if path == "/state":
            return self._send(200, "application/json", self.hub.snapshot()[1])
        if path == "/events":
            return self._stream()
        if path in ("/match.mat", "/match.sgf"):
            fmt = path[-3:]
            try:
                name, text = self.hub.export(fmt)
            except ValueError as exc:
                return self._send(409, "text/plain; charset=utf-8", "bgc: %s\n" % exc)
            return self._send(200, "text/plain; charset=utf-8", text,
                              [("Content-Disposition", 'attachment; filename="%s"' % name)])
        return self._send(404, "text/plain; charset=utf-8", "not here: %s\n" % path)

    def _stream(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        hub = self.hub
        try:
            seq, state = hub.snapshot()
            self.wfile.write(("retry: 1000\ndata: %s\n\n" % state).encode("utf-8"))
            self.wfile.flush()
            while not self.server.stopping:
                got = hub.wait(seq, KEEPALIVE_S)
                if got is None:
                    self.wfile.write(b": still here\n\n")
                else:
                    seq, state = got
                    self.wfile.write(("data: %s\n\n" % state).encode("utf-8"))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass  # the page was closed; a new one opens its own stream


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    stopping = False

    def stop(self):
        self.stopping = True
        with self.hub.cond:
            self.hub.cond.notify_all()
        self.shutdown()
        self.server_close()


def serve(hub, host="127.0.0.1", port=8765):
    """Serve the page for ``hub`` on host:port in a background thread; returns the server
    (``server.url``; ``server.stop()``). OSError when the port is taken or the host unknown."""
    handler = type("Handler", (_Handler,), {"hub": hub})
    server = _Server((host, port), handler)
    server.hub = hub
    shown = host if ":" not in host else "[%s]" % host
    server.url = "http://%s:%d/" % (shown, server.server_address[1])
    threading.Thread(target=server.serve_forever, name="bgc-web", daemon=True).start()
    return server
