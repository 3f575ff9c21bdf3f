"""What the PC reads from a board's serial port (bgc.pico.events): event lines are taken as they
arrive, whole, with the noise between them skipped, and a line split across two reads is kept
until its end comes. bgc play, watch, relay, remote, setup and chouette read through it: the
computer's answer, a watcher's line and a relayed state must not wait for the port's timeout."""

import os
import time
import tty

import serial

from bgc.pico.events import read_arrived, read_events


def test_a_line_is_read_when_it_arrives_not_when_the_ports_timeout_ends():
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), 115200, timeout=5)
    try:
        os.write(master, b'{"ev": "roll", "p": 0, "dice": [6, 5]}\n')
        t = time.monotonic()
        got = b""
        while not got.endswith(b"\n"):
            got += read_arrived(port)
        waited = time.monotonic() - t
        # (read(4096) waited the whole timeout for bytes that never came: five seconds here)
        assert waited < 2.5, waited
        found, rest = read_events(got)
        assert [ev for _, ev in found] == [{"ev": "roll", "p": 0, "dice": [6, 5]}] and rest == b""
    finally:
        port.close()
        os.close(master)
        os.close(slave)


def test_nothing_sent_is_nothing_read_after_the_timeout():
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), 115200, timeout=0.05)
    try:
        assert read_arrived(port) == b""
    finally:
        port.close()
        os.close(master)
        os.close(slave)


def test_noise_is_skipped_and_a_split_line_waits_for_its_end():
    found, rest = read_events(b'MicroPython v1.27\r\n>>> \r\n{"ev": "ok", "p": 0}\r\n{"ev": "pl')
    assert [ev for _, ev in found] == [{"ev": "ok", "p": 0}]
    assert rest == b'{"ev": "pl'
    found, rest = read_events(rest + b'ay", "p": 1, "move": "8/5 6/5"}\n')
    assert [ev for _, ev in found] == [{"ev": "play", "p": 1, "move": "8/5 6/5"}] and rest == b""
