"""Helpers of the web view tests: headless Chromium, and the virtual board on a serial line."""

import os
import shutil
import subprocess
import tempfile
import threading
import time

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


class Browser:
    """A fresh headless Chromium driven over its DevTools pipe (fds 3 and 4, JSON messages ended
    by NUL): open a page, read its DOM or evaluate JavaScript in it at any moment, screenshot it."""

    def __init__(self, size=(1180, 640)):
        import json  # noqa: F401

        self.profile = tempfile.mkdtemp(prefix="bgc-chromium-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        def fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        args = [CHROMIUM] + CHROMIUM_FLAGS + ["--user-data-dir=" + self.profile, "--remote-debugging-pipe",
                                              "--window-size=%d,%d" % size, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=fds,
                                     close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.session = None

    def _call(self, method, params=None, session=True):
        import json

        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self._buf:
                chunk = os.read(self._r, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium went away")
                self._buf += chunk
            raw, self._buf = self._buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    def open(self, url, device=None):
        """Open ``url`` in a new tab. ``device``: (width, height, mobile) emulated before the page
        loads, as Chrome DevTools' device mode does: with mobile True the page is laid out as on a
        phone (a 980 px wide layout unless its viewport tag says otherwise, text not inflated)."""
        target = self._call("Target.createTarget", {"url": "about:blank" if device else url}, session=False)["targetId"]
        self.session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        if device:
            width, height, mobile = device
            self._call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "mobile": mobile,
                                                               "deviceScaleFactor": 3 if mobile else 1,
                                                               "screenWidth": width, "screenHeight": height})
            self._call("Page.navigate", {"url": url})

    def js(self, expression, must=False):
        """The value of ``expression`` in the page; None if it threw (a page still loading, where
        the callers poll), or with ``must`` a RuntimeError saying what it threw and where."""
        r = self._call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if must and "exceptionDetails" in r:
            # a page that failed to load (or a renderer that died) would otherwise read as None
            details = r["exceptionDetails"]
            raise RuntimeError("the page threw evaluating %r: %s (page: %s)" % (
                expression[:60], details.get("exception", {}).get("description") or details.get("text"),
                self._call("Runtime.evaluate", {"expression": "location.href", "returnByValue": True})
                .get("result", {}).get("value")))
        return r.get("result", {}).get("value")

    def dom(self):
        return self.js("document.documentElement.outerHTML") or ""

    def screenshot(self, path):
        import base64

        data = self._call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            self._call("Browser.close", session=False)
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class SerialBoard:
    """The firmware on the virtual board (a bgc.board.sim.Sim) behind a pseudo-terminal at ``link``, as a
    Pico on USB is: its serial events come out of the port, commands written to it go in.
    ``unplug()`` closes the port and removes ``link``; ``plug()`` brings a new one."""

    def __init__(self, sim, link):
        self.sim = sim
        self.link = link
        self.master = self.slave = None
        self.sent = 0
        self.inbuf = b""
        self.lock = threading.Lock()

    def plug(self):
        import tty

        with self.lock:
            self.master, self.slave = os.openpty()
            tty.setraw(self.slave)
            os.set_blocking(self.master, False)
            self.sent = len(self.sim.serial.lines)  # a new connection hears what is said from now on
            os.symlink(os.ttyname(self.slave), self.link)

    def unplug(self):
        with self.lock:
            os.remove(self.link)
            os.close(self.master)
            os.close(self.slave)
            self.master = self.slave = None

    def pump(self):
        with self.lock:
            if self.master is None:
                self.sent = len(self.sim.serial.lines)
                return
            lines = self.sim.serial.lines
            while self.sent < len(lines):
                try:
                    os.write(self.master, (lines[self.sent] + "\r\n").encode())
                except BlockingIOError:
                    pass  # nobody reads: the line is lost, as on a real USB port
                self.sent += 1
            try:
                self.inbuf += os.read(self.master, 4096)
            except (BlockingIOError, OSError):
                pass
            while b"\n" in self.inbuf:
                line, self.inbuf = self.inbuf.split(b"\n", 1)
                if line.strip():
                    self.sim.serial.send(line.decode("utf-8", "replace").strip())


def wait_for(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False
