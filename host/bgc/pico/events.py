"""A board's events (the JSON lines of companion.protocol on its serial port) in words, as
``bgc watch`` prints them and its web page lists them."""

import json

from bgrules.chouette import signed


def read_arrived(ser, most=4096):
    """The bytes the board has sent: waits up to the port's timeout for the first one, then takes
    what has arrived with it (at most ``most``). ``ser.read(4096)`` alone would wait the whole
    timeout for 4096 bytes, so each event line was handled up to that long after it came."""
    chunk = ser.read(1)
    if chunk:
        waiting = ser.in_waiting
        if waiting:
            chunk += ser.read(min(waiting, most - 1))
    return chunk


def read_events(buf):
    """The whole event lines in ``buf`` (bytes read from a board) as [(text, event)], and the
    bytes after the last newline, kept for the next read. Lines that are not an event (REPL
    noise, tracebacks, other prints) are skipped."""
    found = []
    while b"\n" in buf:
        raw, buf = buf.split(b"\n", 1)
        text = raw.decode("utf-8", "replace").strip()
        if not text.startswith("{"):
            continue
        try:
            ev = json.loads(text)
        except ValueError:
            continue
        if isinstance(ev, dict) and "ev" in ev:
            found.append((text, ev))
    return found, buf


def describe(ev, status):
    names = (status or {}).get("names") or ["White", "Black"]

    def who(key="p"):
        p = ev.get(key)
        return names[p] if p in (0, 1) else "?"

    kind = ev.get("ev")
    if ev.get("name") and kind == "cube":
        return "%s %ss (cube %s)" % (ev["name"], ev.get("action", "double"), ev.get("cube", "?"))
    if kind == "seat":
        return "%s rolls %s for the seats" % (ev.get("name"), ev.get("die"))
    if kind == "ledger" and "points" in ev:
        return "game %s: %s" % (ev.get("game"), ", ".join("%s %s" % (n, signed(p)) for n, p in ev["points"]))
    if kind == "roll":
        d = ev.get("dice") or [0, 0]
        return "%s rolls %d-%d" % (who(), d[0], d[1])
    if kind == "gnu":
        return "%s (GNU Backgammon) plays %s: move its checkers as the LEDs show" % (who(), ev.get("move") or "nothing")
    if kind == "advice":
        return "%s asks GNU Backgammon for the best play" % who()
    if kind == "back":
        return "%s takes the last play back: put the checkers back as the red LEDs show" % who()
    if kind == "play":
        return "%s plays %s%s" % (who(), ev.get("move") or "(no move)", " (accepted illegal play)" if ev.get("condoned") else "")
    if kind == "cube":
        value = ev.get("cube", ev.get("value"))
        return "%s %ss%s" % (who(), ev.get("action", "double"), (" (cube %s)" % value) if value else "")
    if kind == "pass":
        return "%s is closed out: no roll" % who()
    if kind == "illegal":
        return "ILLEGAL: %s" % (ev.get("reason") or ev.get("msg") or "")
    if kind == "resign":
        return "%s resigns (%s)" % (who(), ev.get("kind", ""))
    if kind == "game_end":
        points = ev.get("points", "?")
        return "game over: %s wins %s point%s" % (who("winner"), points, "" if points == 1 else "s")
    if kind == "match_end":
        return "match over: %s wins" % who("winner")
    if kind == "error":
        return "board error: %s" % (ev.get("msg") or ev.get("error") or "")
    if kind == "boot":
        return "board started%s" % (" (%s)" % ev["msg"] if ev.get("msg") else "")
    if kind == "logs":
        return "journals: %s" % (ev.get("files") or ev.get("msg") or "")
    return ev.get("msg") or json.dumps(ev)
