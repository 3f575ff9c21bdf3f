"""The virtual Pico's output to a port nobody has open: dropped at once, as rp2 drops what it
prints without a USB host (no DTR), instead of stalling the program 0.5 s per full pty buffer (the
wait that is right only for a host that has the port open and reads slowly). A board left running
without `bgc watch` must not freeze its firmware (bgc vpico --board)."""

import time

from bgc.pico.vpico import TX_TIMEOUT, VirtualPico

# 200 lines of 2 kB, 400 kB: the pty takes some 25 kB before a write would block, so waiting
# TX_TIMEOUT each time it is full held this program for 8 s and more.
MAIN = """\
import time
t = time.ticks_ms()
for i in range(200):
    print('x' * 2000)
open('/done', 'w').write(str(time.ticks_diff(time.ticks_ms(), t)))
"""


def test_output_to_a_port_nobody_has_open_does_not_stall_the_program(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(MAIN)
    with VirtualPico(str(flash)):
        deadline = time.monotonic() + 60
        while not (flash / "done").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert (flash / "done").exists(), "main.py never finished printing"
        took_ms = int((flash / "done").read_text() or 0)
    assert took_ms < 4 * TX_TIMEOUT * 1000, "%d ms: the program waited for a host that is not there" % took_ms
