"""The walkthrough "Every verb without hardware" of docs/virtual-pico.md, run command by command
as the page gives it (so the page and the test cannot drift): `bgc vpico --board` in one process,
the prompt lines typed into it, every other `bgc` command run against its port; each line the page
shows under a command must be in what that command printed."""

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "virtual-pico.md")
SECTION = "## Every verb without hardware"
DOC_LINK = "/tmp/bgc-pico"


def walkthrough():
    """[kind, text, expected lines]: kind "cmd" for `$ ` lines, "board" for `board> ` lines."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    assert SECTION in text, "docs/virtual-pico.md lost its walkthrough section"
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    steps = []
    in_code = False
    for line in body.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if not in_code:
            continue
        if line.startswith("$ "):
            steps.append(["cmd", line[2:], []])
        elif line.startswith("board> "):
            steps.append(["board", line[len("board> "):], []])
        elif line.strip():
            assert steps, "output before the first command: %r" % line
            steps[-1][2].append(line)
    return steps


def _pattern(expected):
    return re.escape(" ".join(expected.split())).replace(re.escape("..."), ".*")


def missing(expected_lines, output_lines):
    flat = [" ".join(a.split()) for a in output_lines]
    return [e for e in expected_lines if not any(re.search(_pattern(e), a) for a in flat)]


class Board:
    """`bgc vpico --board` as a person runs it in the first terminal."""

    def __init__(self, argv, cwd):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, expected, since=0, timeout=60):
        deadline = time.monotonic() + timeout
        while missing(expected, self.lines[since:]):
            assert self.proc.poll() is None, "the board stopped:\n" + "\n".join(self.lines)
            assert time.monotonic() < deadline, "the board did not print %r; it printed:\n%s" % (
                missing(expected, self.lines[since:]), "\n".join(self.lines[since:]))
            time.sleep(0.05)

    def type(self, line, timeout=30):
        """Type a prompt line; return once it is answered (every action ends with the OLED line)."""
        start = len(self.lines)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while not any(x.startswith("  OLED:") for x in self.lines[start:]):
            assert self.proc.poll() is None, "the board stopped:\n" + "\n".join(self.lines)
            assert time.monotonic() < deadline, "no answer to %r:\n%s" % (line, "\n".join(self.lines[start:]))
            time.sleep(0.02)
        answer = self.lines[start:]
        assert not [x for x in answer if x.startswith(("? ", "expectation not met"))], answer
        return start


def run_web_watch(argv, cwd, expected):
    """`bgc watch --web` until Ctrl-C: its page and /state are read first."""
    # (Ctrl-C as a terminal sends it, even where this test runs with SIGINT ignored)
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines = []
    try:
        url = None
        deadline = time.monotonic() + 30
        while url is None:
            line = proc.stdout.readline()
            assert line, "bgc watch --web ended:\n" + "".join(lines)
            lines.append(line)
            m = re.search(r"live view: (http://\S+)", line)
            if m:
                url = m.group(1)
            assert time.monotonic() < deadline
        assert "<html" in urllib.request.urlopen(url, timeout=10).read().decode().lower()
        state = {}
        while time.monotonic() < deadline:
            state = json.loads(urllib.request.urlopen(url.rstrip("/") + "/state", timeout=10).read())
            if "Anna" in json.dumps(state):
                break
            time.sleep(0.2)
        # the board's own status, names and all, reached the page through the serial line
        assert "Anna" in json.dumps(state), state
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
        lines += out.splitlines(True)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, "".join(lines)  # stopped by Ctrl-C, as the page says
    assert not missing(expected, [x.rstrip("\n") for x in lines]), (expected, lines)


def verb_of(argv):
    """'watch', 'watch --web', 'chouette join'... of a bgc command line."""
    words = []
    i = 1
    while i < len(argv):
        if argv[i] == "--port":
            i += 2
            continue
        if not argv[i].startswith("-"):
            words.append(argv[i])
        i += 1
    verb = " ".join(words[:2]) if words[0] == "chouette" else words[0]
    return verb + "".join(" " + flag for flag in ("--web", "--box") if flag in argv)


def test_every_verb_of_the_walkthrough_works_against_the_virtual_board(tmp_path):
    steps = walkthrough()
    link = str(tmp_path / "bgc-pico")
    for step in steps:
        step[1] = step[1].replace(DOC_LINK, link)
        step[2] = [e.replace(DOC_LINK, link) for e in step[2]]
    kind, first, expected = steps[0]
    assert kind == "cmd" and first.startswith("bgc vpico --board"), "the walkthrough starts the board"
    board = Board([sys.executable, "-m", "bgc"] + shlex.split(first)[1:], str(tmp_path))
    verbs = set()
    try:
        board.wait_for(expected)
        for kind, text, expected in steps[1:]:
            if kind == "board":
                start = board.type(text)
                board.wait_for(expected, since=start, timeout=10)
                continue
            argv = shlex.split(text)
            assert argv[0] == "bgc", text
            verbs.add(verb_of(argv))
            cmd = [sys.executable, "-m", "bgc"] + argv[1:]
            if "--web" in argv:
                run_web_watch(cmd, str(tmp_path), expected)
                continue
            r = subprocess.run(cmd, cwd=str(tmp_path), capture_output=True, text=True, timeout=60)
            printed = (r.stdout + r.stderr).splitlines()
            assert r.returncode == 0, "%s -> %d:\n%s" % (text, r.returncode, "\n".join(printed))
            assert not missing(expected, printed), "%s printed:\n%s\nnot %r" % (text, "\n".join(printed),
                                                                                missing(expected, printed))
        # The walkthrough covers every board verb, every chouette subcommand among them.
        assert {"devices", "deploy", "watch", "watch --web", "pull", "chouette start", "chouette join",
                "chouette leave", "chouette cubes", "chouette partner", "chouette double", "chouette double --box",
                "chouette ledger"} <= verbs, verbs
        # not in the page: a line the prompt does not know is one line, and the prompt carries on
        start = len(board.lines)
        board.proc.stdin.write("frobnicate 12\ndice 1 2\n")
        board.proc.stdin.flush()
        board.wait_for(["  OLED: ..."], since=start, timeout=30)  # the next command's answer
        said = board.lines[start:]
        assert said[0].startswith("? ") and "frobnicate" in said[0], said
        assert not [x for x in said if "Traceback" in x], said
        board.proc.stdin.write("quit\n")
        board.proc.stdin.flush()
        assert board.proc.wait(timeout=30) == 0, "\n".join(board.lines)
    finally:
        if board.proc.poll() is None:
            board.proc.kill()
            board.proc.wait()
    assert not os.path.lexists(link)  # the port's name goes with the board
    assert os.path.exists(tmp_path / "pico-flash" / "journal" / "m0001.jnl")  # the flash stays
