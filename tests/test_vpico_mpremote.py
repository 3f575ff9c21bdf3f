"""The virtual Pico against the real, unmodified mpremote (its command line, in a subprocess)."""

import json
import os
import subprocess
import sys
import time

import pytest
import serial

from bgc.pico.vpico import VirtualPico

MPREMOTE = [sys.executable, "-m", "mpremote", "connect"]

LOOP_MAIN = """\
import json, sys, select, time
p = select.poll()
p.register(sys.stdin, select.POLLIN)
n = 0
while True:
    for obj, ev in p.poll(0):
        line = sys.stdin.readline()
        print(json.dumps({"echo": line.strip()}))
    print(json.dumps({"n": n}))
    n += 1
    time.sleep_ms(20)
"""


def mp(pico, *args, timeout=30):
    return subprocess.run(MPREMOTE + [pico.port] + list(args), capture_output=True, timeout=timeout)


@pytest.fixture(scope="module")
def pico():
    with VirtualPico() as p:
        yield p


def read_until(port, marker, timeout=10):
    deadline = time.monotonic() + timeout
    data = b""
    while marker not in data:
        assert time.monotonic() < deadline, "timed out waiting for %r; got %r" % (marker, data[-500:])
        data += port.read(port.in_waiting or 1)
    return data


def test_fs_cp_both_ways_and_ls(pico, tmp_path):
    blob = os.urandom(5000) + b"\n\r\n\x00\x03\x04end"
    (tmp_path / "blob.bin").write_bytes(blob)
    r = mp(pico, "fs", "cp", str(tmp_path / "blob.bin"), ":blob.bin")
    assert r.returncode == 0, r.stderr
    assert (open(os.path.join(pico.flash_dir, "blob.bin"), "rb").read()) == blob
    r = mp(pico, "fs", "cp", ":blob.bin", str(tmp_path / "back.bin"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "back.bin").read_bytes() == blob
    r = mp(pico, "fs", "ls")
    assert r.returncode == 0
    assert (b" %d blob.bin" % len(blob)) in r.stdout
    assert mp(pico, "fs", "rm", ":blob.bin").returncode == 0
    assert not os.path.exists(os.path.join(pico.flash_dir, "blob.bin"))


def test_run_script_sees_an_rp2_pico(pico, tmp_path):
    script = tmp_path / "who.py"
    script.write_text(
        "import sys, os, machine\n"
        "print(sys.implementation._machine, sys.implementation._mpy, sys.platform)\n"
        "print(os.uname().sysname, machine.unique_id().hex())\n"
    )
    r = mp(pico, "run", str(script))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.decode().splitlines()
    assert lines[0] == "Raspberry Pi Pico with RP2040 4870 rp2"
    assert lines[1] == "rp2 e6614104032b5e2c"


def test_exec_errors_come_back_as_tracebacks(pico):
    r = mp(pico, "exec", "1/0")
    assert r.returncode == 1
    assert b"ZeroDivisionError" in r.stdout
    r = mp(pico, "fs", "cat", ":no-such-file.txt")
    assert r.returncode == 1
    assert b"No such file" in r.stderr


def test_globals_live_until_soft_reset(pico):
    r = mp(pico, "exec", "y = 41", "+", "resume", "exec", "print(y + 1)")
    assert r.stdout.strip() == b"42"
    r = mp(pico, "exec", "y = 41", "+", "soft-reset", "exec", "print(y)")
    assert b"NameError" in r.stdout


def test_files_persist_across_soft_reset_and_restart(tmp_path):
    flash = tmp_path / "flash"
    with VirtualPico(str(flash)) as p:
        r = mp(p, "exec", "open('keep.txt', 'w').write('kept')", "+", "soft-reset", "fs", "cat", ":keep.txt")
        assert r.stdout.endswith(b"kept"), r
    with VirtualPico(str(flash)) as p:
        assert mp(p, "fs", "cat", ":keep.txt").stdout.endswith(b"kept")


def test_main_py_streams_json_reads_stdin_and_stops_on_ctrl_c(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(LOOP_MAIN)
    with VirtualPico(str(flash)) as p:
        with serial.Serial(p.port, timeout=0.2) as port:
            data = read_until(port, b'{"n": 3}')
            port.write(b"ping\r\n")
            data += read_until(port, b'{"echo": "ping"}\r\n')
            # The first line may be cut: opening the port drops what was buffered before.
            events = [json.loads(line) for line in data.split(b"\r\n")[1:] if line.strip()]
            counts = [e["n"] for e in events if "n" in e]
            assert counts == list(range(counts[0], counts[0] + len(counts)))
            assert {"echo": "ping"} in events
            port.write(b"\x03")
            data = read_until(port, b">>> ")
            assert b"KeyboardInterrupt" in data
            assert b"MicroPython v1.27.0 on" in data and b"Raspberry Pi Pico with RP2040" in data
            # Ctrl-D in the friendly REPL: soft reboot, and main.py runs again.
            port.write(b"\x04")
            data = read_until(port, b'{"n": 1}')
            assert b"MPY: soft reboot\r\n" in data
        # mpremote interrupts it too, and soft-reset from the raw REPL does not restart main.py.
        r = mp(p, "fs", "ls")
        assert r.returncode == 0 and b"main.py" in r.stdout


def test_ctrl_c_stops_a_loop_that_never_yields(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text("x = 0\nwhile True:\n    x += 1\n")
    with VirtualPico(str(flash), kill_grace=0.3) as p:
        t = time.monotonic()
        r = mp(p, "exec", "print('alive')")
        assert r.stdout.strip() == b"alive"
        assert time.monotonic() - t < 10


def test_friendly_repl_evaluates_and_auto_indents(pico):
    with serial.Serial(pico.port, timeout=0.2) as port:
        port.write(b"\r\x03")
        read_until(port, b">>> ")
        port.write(b"6*7\r")
        assert b"42\r\n>>> " in read_until(port, b"42\r\n>>> ")
        port.write(b"for i in range(2):\rprint(i)\r\r")
        assert b"0\r\n1\r\n>>> " in read_until(port, b"1\r\n>>> ")


def test_setup_hook_and_host_functions_reach_the_firmware(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    setup = (
        "import sys, _vpico\n"
        "class ADC:\n"
        "    def __init__(self, pin):\n        self.pin = pin\n"
        "    def read_u16(self):\n        return _vpico.call('adc', self.pin)\n"
        "sys.modules['machine'].ADC = ADC\n"
    )
    with VirtualPico(str(flash), setup_code=setup, host_functions={"adc": lambda pin: 1000 + pin}) as p:
        r = mp(p, "exec", "import machine; print(machine.ADC(26).read_u16())")
        assert r.stdout.strip() == b"1026", r


def test_the_garbage_collector_runs_in_a_bounded_heap(pico, tmp_path):
    # The virtual Pico is a real MicroPython with its collector on: gc.collect() frees garbage,
    # the heap is bounded like a Pico's, and a program whose garbage adds up to many times the
    # heap keeps running (only what is live at once must fit).
    heap = pico.heap_kb * 1024
    script = tmp_path / "gc_check.py"
    script.write_text(
        "import gc\n"
        "gc.collect()\n"
        "total = gc.mem_free() + gc.mem_alloc()\n"
        "before = gc.mem_free()\n"
        "junk = [bytearray(1000) for i in range(50)]\n"
        "held = gc.mem_free()\n"
        "junk = None\n"
        "gc.collect()\n"
        "print('total', total, 'held', before - held, 'freed', gc.mem_free() - held)\n"
        "n = 0\n"
        "for i in range(4000):\n"
        "    b = bytearray(2000)\n"
        "    n += len(b)\n"
        "print('allocated', n, 'collections survived', gc.mem_free() > 0)\n"
        "try:\n"
        "    live = [bytearray(4000) for i in range(%d)]\n"
        "except MemoryError:\n"
        "    live = None\n"
        "    print('MemoryError')\n" % (2 * heap // 4000)
    )
    r = mp(pico, "run", str(script))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.decode().split("\r\n")
    words = lines[0].split()
    total, held, freed = int(words[1]), int(words[3]), int(words[5])
    assert heap // 2 < total <= heap
    assert held >= 50000 and freed >= 50000  # 50 kB of garbage taken and given back
    allocated = int(lines[1].split()[1])
    assert allocated == 8000000 and allocated > 10 * heap
    assert lines[2] == "MemoryError"  # live data beyond the heap does not fit, as on a Pico
    assert mp(pico, "exec", "print('still here')").stdout.strip() == b"still here"


def test_kbd_intr_off_makes_ctrl_c_plain_input(tmp_path):
    # micropython.kbd_intr(-1): 0x03 is data for the program, even while it computes (no
    # KeyboardInterrupt); kbd_intr(3) turns Ctrl-C back on.
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(
        "import micropython, sys, time\n"
        "sys.stdin.readline()\n"
        "micropython.kbd_intr(-1)\n"
        "print('busy')\n"
        "t = time.ticks_ms()\n"
        "while time.ticks_diff(time.ticks_ms(), t) < 1500:\n"
        "    pass\n"
        "c = sys.stdin.buffer.read(1)\n"
        "micropython.kbd_intr(3)\n"
        "print('got', c)\n"
        "while True:\n"
        "    time.sleep_ms(20)\n"
    )
    with VirtualPico(str(flash)) as p:
        with serial.Serial(p.port, timeout=0.2) as port:
            port.write(b"go\n")
            read_until(port, b"busy")
            port.write(b"\x03")
            data = read_until(port, b"got b'\\x03'")
            assert b"KeyboardInterrupt" not in data
            port.write(b"\x03")
            data = read_until(port, b">>> ")
            assert b"KeyboardInterrupt" in data


def test_ctrl_c_interrupts_a_program_that_allocates_and_collects_cleanly_every_time(tmp_path):
    # Like the firmware's loop: allocations, collections, the clock. A Ctrl-C must stop it with a
    # KeyboardInterrupt at a safe point each time (a signal raised inside an allocation left the
    # UNIX port's heap locked and then hung it), and it restarts after each soft reset.
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(
        "import gc, time\n"
        "print('started')\n"
        "n = 0\n"
        "while True:\n"
        "    frame = [bytearray(64) for i in range(40)]\n"
        "    if n % 50 == 0:\n"
        "        gc.collect()\n"
        "    time.ticks_ms()\n"
        "    n += 1\n"
    )
    with VirtualPico(str(flash)) as p:
        with serial.Serial(p.port, timeout=0.2) as port:
            for i in range(30):
                time.sleep(0.02 * (i % 4))
                port.write(b"\x03")
                data = read_until(port, b">>> ")
                assert b"KeyboardInterrupt" in data and b"vpico:" not in data, data
                port.write(b"\x04")
                read_until(port, b"started")
        assert p.log == []  # never restarted the hard way


# The heap filled with 1 kB blocks, then N of them given back: N kB free, in pieces.
FILL_HEAP_BUT = ("import gc\nhold = []\ntry:\n while True:\n  hold.append(bytearray(1000))\n"
                 "except MemoryError:\n pass\ndel hold[:%d]\ngc.collect()")


def test_a_memory_error_with_the_heap_held_comes_back_and_the_globals_stay(pico):
    # A program that leaves the heap nearly full, then fails with MemoryError: on a Pico the REPL
    # reports it and the program's globals are still there for the next one.
    assert mp(pico, "exec", FILL_HEAP_BUT % 3).returncode == 0
    r = mp(pico, "resume", "exec", "more = [bytearray(200) for i in range(100)]")
    assert r.returncode == 1 and b"MemoryError: memory allocation failed" in r.stdout, r
    r = mp(pico, "resume", "exec", "hold = len(hold)\ngc.collect()\nprint('held', hold > 100)")
    assert r.returncode == 0 and r.stdout.strip() == b"held True", r


def test_a_pasted_program_larger_than_the_free_heap_is_a_memory_error_and_the_board_stays(pico):
    # On a Pico a raw-pasted program that does not fit fails with MemoryError at the REPL, which
    # stays, with the globals of the programs before. Here the program comes over the link as
    # one line: a line larger than the heap is read to its end and dropped, not the interpreter.
    assert mp(pico, "exec", FILL_HEAP_BUT % 20).returncode == 0  # about 20 kB free, in 1 kB holes
    program = "x = 1\n" + "# a comment that makes the program long\n" * 1500  # 60 kB
    r = mp(pico, "resume", "exec", program)
    assert r.returncode == 1 and b"MemoryError: memory allocation failed" in r.stdout, r
    r = mp(pico, "resume", "exec", "hold = len(hold)\ngc.collect()\nprint('held', hold > 100)")
    assert r.returncode == 0 and r.stdout.strip() == b"held True", r
