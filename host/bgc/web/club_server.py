"""The club's page (bgc club): every board of the club on one page, and one board's live view at
/board/NAME/ (the live page itself, its state relayed through the broker)."""

import json
import re
import urllib.parse

from .. import resource
from .server import _Handler

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
        club = self.club

        def wait(version, seconds):
            got = club.wait(version, seconds)
            return None if got is None else (got[0], json.dumps(got[1]))

        version, boards = club.changes(0)
        self.event_stream((version, json.dumps(boards)), wait)


def serve_club(club, host="127.0.0.1", port=8765):
    """Serve the club's page on host:port in a background thread (bgc.web.serve's server)."""
    from .server import serve

    return serve(club, host, port, type("ClubHandler", (_ClubHandler,), {"club": club}))
