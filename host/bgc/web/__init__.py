"""The live view in a browser: ``bgc watch --web`` and ``bgc sim --web`` serve a local page that
draws the board, the lit points, the OLED, the dice, cube, score and the move list, updated as the
board's events arrive (server-sent events), with links to save the match as .mat or .sgf. The page
fits any window from a 360 px phone up (tests/test_web_view.py lays it out in headless Chromium).

    hub = Hub("board on /dev/ttyACM0")     # what is known about the game, for every page open
    server = serve(hub, "127.0.0.1", 8765)  # a ThreadingHTTPServer running in its own thread
    hub.feed(event)                         # each serial event (docs/protocol.md)
    hub.set_view(checkers, leds, oled)      # the virtual board's checkers, LED chain and OLED
    hub.set_connected(False)                # the board was unplugged (the page says so)

Only the standard library: http.server for the page, ``text/event-stream`` for the updates (the
browser's EventSource reconnects by itself when the server goes away and comes back).
"""

from .hub import Hub  # noqa: F401
from .server import serve  # noqa: F401
