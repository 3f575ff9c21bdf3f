"""USB serial lines without blocking the game loop.

On the Pico the USB CDC serial is the REPL's stdin/stdout. ``read_line()`` polls stdin with
``select.poll`` (timeout 0) and takes at most ``max_bytes`` bytes per call, assembling them in a
preallocated buffer, so a slow or chatty host never stalls a frame. A line longer than the buffer
is returned cut and marked too long (longer than protocol.MAX_LINE) so that it is answered with an
error instead of being half-executed. Ctrl-C still reaches MicroPython as KeyboardInterrupt,
which ends the loop and lets mpremote take over.
"""
import select
import sys

LINE_MAX = 256


class UsbSerial:
    def __init__(self, stream=None, out=None, size=LINE_MAX, max_bytes=64):
        if stream is None:
            stream = sys.stdin
        self._stream = getattr(stream, "buffer", stream)  # bytes, not text, where available
        self._out = out if out is not None else sys.stdout
        self._poll = select.poll()
        self._poll.register(stream, select.POLLIN)
        self._buf = bytearray(size)
        self._n = 0
        self._long = False  # the line being read has overflowed the buffer
        self._max = max_bytes

    def read_line(self):
        """One whole line (without its end) or None; never waits."""
        poll = self._poll
        for _ in range(self._max):
            if not poll.poll(0):
                return None
            b = self._stream.read(1)
            if not b:
                return None
            c = b[0] if not isinstance(b, str) else ord(b)
            if c == 10 or c == 13:
                if self._n == 0 and not self._long:
                    continue  # the other half of CRLF, or an empty line
                line = bytes(self._buf[: self._n])
                long = self._long
                self._n = 0
                self._long = False
                try:
                    text = line.decode()
                except UnicodeError:  # garbage on the line: keep what is ASCII, the parser refuses it
                    text = "".join([chr(x) if x < 128 else "?" for x in line])
                if long:
                    text = text + "~" * 2  # longer than any valid command: answered with an error
                return text
            if self._n < len(self._buf):
                self._buf[self._n] = c
                self._n += 1
            else:
                self._long = True
        return None

    def write_line(self, text):
        self._out.write(text)
        self._out.write("\n")
