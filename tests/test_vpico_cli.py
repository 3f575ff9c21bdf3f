"""`bgc vpico` in the foreground, as a user (or another program) starts it."""

import os
import signal
import subprocess
import sys


def test_bgc_vpico_prints_its_port_serves_mpremote_and_stops_cleanly(tmp_path):
    flash, link = tmp_path / "flash", tmp_path / "pico"
    # Ctrl-C as a terminal sends it, even where this test runs with SIGINT ignored (a background
    # job's children inherit that: `bgc vpico` then rightly ignores it, and this test once hung on
    # it). PYTHONFAULTHANDLER: a stop that hangs is shown with every thread's stack (SIGABRT below).
    proc = subprocess.Popen([sys.executable, "-m", "bgc", "vpico", "--flash", str(flash), "--link", str(link)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONFAULTHANDLER="1"),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        port = proc.stdout.readline().decode().strip()
        assert port.startswith("/dev/pts/"), proc.stderr.read1().decode() if proc.poll() is not None else port
        assert os.path.realpath(link) == port
        r = subprocess.run([sys.executable, "-m", "mpremote", "connect", str(link), "exec",
                            "open('hello.txt', 'w').write('hi')"], capture_output=True, timeout=30)
        assert r.returncode == 0, r.stderr
        assert (flash / "hello.txt").read_text() == "hi"
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            proc.wait(timeout=15)
            raise AssertionError("bgc vpico did not stop within 15 s of Ctrl-C; its threads:\n"
                                 + proc.stderr.read().decode(errors="replace")[-6000:])
        assert code == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not os.path.lexists(link)
    assert (flash / "hello.txt").exists()  # the flash directory outlives the virtual Pico


def test_bgc_vpico_rejects_a_flash_path_that_is_a_file(tmp_path):
    f = tmp_path / "not-a-dir"
    f.write_text("")
    r = subprocess.run([sys.executable, "-m", "bgc", "vpico", "--flash", str(f)], capture_output=True, timeout=30)
    assert r.returncode == 2
    assert b"is not a directory" in r.stderr


def test_bgc_vpico_with_unusable_flash_or_link_paths_says_so_in_one_line(tmp_path):
    # Issue 11 item 6: these gave tracebacks.
    for args, expected in ((["--flash", "/proc/x"], "cannot use /proc/x as the flash directory"),
                           (["--link", "/proc/x/port"], "cannot make the link /proc/x/port")):
        r = subprocess.run([sys.executable, "-m", "bgc", "vpico"] + args, capture_output=True, timeout=30)
        assert r.returncode == 2, r.stderr
        assert b"Traceback" not in r.stderr
        assert expected.encode() in r.stderr.splitlines()[0]
