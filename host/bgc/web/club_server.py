"""The club's page (bgc club): every board of the club on one page, and one board's live view at
/board/NAME/ (the live page itself, its state relayed through the broker)."""

import json
import re
import threading
import urllib.parse

from .. import resource
from .server import KEEPALIVE_S, _Handler, _Server

CLUB_PAGE = resource("web", "club.html")
BOARD_PATH = re.compile(r"^/board/([^/]+)(/.*)?$")


class _ClubHandler(_Handler):
    club = None  # set per server

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            with open(CLUB_PAGE, "rb") as f:
                return self._send(200, "text/html; charset=utf-8", f.read())
        if path == "/club":
            return self._send(200, "application/json", json.dumps(self.club.changes(0)[1]))
        if path == "/club/events":
            return self._club_stream()
        m = BOARD_PATH.match(path)
        if m:
            name = urllib.parse.unquote(m.group(1))
            hub = self.club.hubs.get(name)
            if hub is None:
                return self._send(404, "text/plain; charset=utf-8", "no board %s in the club (yet)\n" % name)
            if not m.group(2):  # the live page asks for its files next to itself
                return self._send(301, "text/plain; charset=utf-8", "", [("Location", "/board/%s/" % m.group(1))])
            self.hub = hub
            self.path = m.group(2)
        return _Handler.do_GET(self)

    def _club_stream(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        club = self.club
        try:
            version, boards = club.changes(0)
            self.wfile.write(("retry: 1000\ndata: %s\n\n" % json.dumps(boards)).encode("utf-8"))
            self.wfile.flush()
            while not self.server.stopping:
                got = club.wait(version, KEEPALIVE_S)
                if got is None:
                    self.wfile.write(b": still here\n\n")
                else:
                    version, boards = got
                    self.wfile.write(("data: %s\n\n" % json.dumps(boards)).encode("utf-8"))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


def serve_club(club, host="127.0.0.1", port=8765):
    """Serve the club's page on host:port in a background thread (as bgc.web.serve does)."""
    from .server import WILDCARDS, _url, local_addresses
    import socket

    handler = type("ClubHandler", (_ClubHandler,), {"club": club, "hub": club})
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    server_class = _Server if family == socket.AF_INET else type("Server6", (_Server,), {"address_family": family})
    server = server_class((host, port), handler)
    server.hub = club
    bound = server.server_address[1]
    if host in WILDCARDS:
        server.urls = [(_url(a, bound), "other devices on the network") for a in local_addresses()]
        server.urls.append((_url("127.0.0.1", bound), "this computer"))
        server.url = server.urls[-1][0]
    else:
        server.url = _url(host, bound)
        server.urls = [(server.url, "")]
    threading.Thread(target=server.serve_forever, name="bgc-club-web", daemon=True).start()
    return server
