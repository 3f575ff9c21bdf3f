"""The local web server of the live view: the page, its event stream, the save links and the
review (GNU Backgammon's analysis of the match so far)."""

import datetime
import email.utils
import json
import socket
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

    def date_time_string(self, timestamp=None):
        # The Date header from the computer's clock: under bgc sim the ``time`` module is the
        # virtual board's clock (bgc.virtual.clock), which http.server would otherwise read.
        # datetime asks the system itself.
        return email.utils.format_datetime(datetime.datetime.now(datetime.timezone.utc), usegmt=True)

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
        if path == "/favicon.ico":  # the page names its own icon; older browsers ask anyway
            return self._send(204, "image/x-icon", b"")
        if path == "/review":  # GNU Backgammon's analysis of the match so far (bgc analyze --json)
            try:
                body = json.dumps(self.hub.review())
            except ValueError as exc:
                return self._send(409, "text/plain; charset=utf-8", "bgc: %s\n" % exc)
            return self._send(200, "application/json", body)
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
        self.event_stream(self.hub.snapshot(), self.hub.wait)

    def event_stream(self, first, wait):
        """A server-sent event stream: ``first`` (version, text) at once, then each (version,
        text) ``wait(version, seconds)`` gives (None: nothing new, a keep-alive comment)."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            seq, state = first
            self.wfile.write(("retry: 1000\ndata: %s\n\n" % state).encode("utf-8"))
            self.wfile.flush()
            while not self.server.stopping:
                got = wait(seq, KEEPALIVE_S)
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


WILDCARDS = ("", "0.0.0.0", "::")


def local_addresses():
    """This computer's IPv4 addresses other devices can reach (not loopback), one per network
    interface, read from the interfaces themselves (Linux), else from the host name."""
    found = []
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _index, name in socket.if_nameindex():
                try:
                    raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
                except OSError:
                    continue  # no IPv4 address on this interface
                found.append(socket.inet_ntoa(raw[20:24]))
    except (ImportError, OSError, AttributeError):
        pass
    if not found:
        try:
            found = [a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
    out = []
    for a in found:
        if not a.startswith("127.") and a != "0.0.0.0" and a not in out:
            out.append(a)
    return out


def _url(host, port):
    return "http://%s:%d/" % (host if ":" not in host else "[%s]" % host, port)


def serve(hub, host="127.0.0.1", port=8765, handler=None):
    """Serve the page for ``hub`` on host:port in a background thread; returns the server
    (``server.url``: an address to open on this computer; ``server.urls``: (url, who can open
    it), every address of this computer for a wildcard host such as 0.0.0.0; ``server.stop()``).
    OSError when the port is taken or the host unknown. ``handler``: a _Handler subclass of
    another page (the club's, bgc.web.club_server)."""
    handler = type("Handler", (handler or _Handler,), {"hub": hub})
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    server_class = _Server if family == socket.AF_INET else type("Server6", (_Server,), {"address_family": family})
    server = server_class((host, port), handler)
    server.hub = hub
    bound = server.server_address[1]
    if host in WILDCARDS:
        server.urls = [(_url(a, bound), "other devices on the network") for a in local_addresses()]
        server.urls.append((_url("127.0.0.1" if family == socket.AF_INET else "::1", bound), "this computer"))
        server.url = server.urls[-1][0]
    else:
        server.url = _url(host, bound)
        server.urls = [(server.url, "this computer" if host in ("127.0.0.1", "localhost", "::1") else "")]
    threading.Thread(target=server.serve_forever, name="bgc-web", daemon=True).start()
    return server
