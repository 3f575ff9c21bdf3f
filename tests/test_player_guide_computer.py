"""The walkthroughs "Playing against GNU Backgammon" and "A position to practise" of docs/player-guide.md, run line by line as the
page gives it (so the page and the test cannot drift): the `$ ` line started with the `sim> ` lines
typed into it; each line the page shows under a command (``...`` for what it leaves out) must be in
what that command printed, in the page's order."""

import os
import re
import shlex
import subprocess
import sys

import pytest

from bgc.logs import analysis

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "player-guide.md")
# the sections with a walkthrough: against the computer (advice, the teacher, take-back), and a
# position to practise
SECTIONS = ("## Playing against GNU Backgammon", "## A position to practise")


def walkthrough(section):
    with open(DOC, encoding="utf-8") as f:
        body = f.read().split(section, 1)[1].split("\n## ", 1)[0]
    block = body.split("The walkthrough", 1)[1].split("```", 2)[1]
    command, steps = None, []
    for line in block.splitlines():
        if line.startswith("$ "):
            command, steps = line[2:], [["", []]]
        elif line.startswith("sim> "):
            steps.append([line[len("sim> "):], []])
        elif line.strip():
            steps[-1][1].append(line)
    return command, steps


def _pattern(expected):
    return re.escape(" ".join(expected.split())).replace(re.escape("..."), ".*")


@pytest.mark.skipif(analysis.engine_version() is None and os.environ.get("BGC_SKIP_GNUBG") == "1",
                    reason="PyPI gnubg missing and BGC_SKIP_GNUBG=1")
@pytest.mark.parametrize("section", SECTIONS)
def test_the_player_guides_walkthrough_against_the_computer_runs_as_written(section):
    command, steps = walkthrough(section)
    argv = shlex.split(command)
    assert argv[0] == "bgc" and len(steps) >= 6
    typed = "".join(text + "\n" for text, _ in steps[1:]) + "quit\n"
    proc = subprocess.run([sys.executable, "-m", "bgc"] + argv[1:], input=typed, capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    lines = [" ".join(x.split()) for x in proc.stdout.splitlines()]
    at = 0
    for text, expected in steps:
        for e in expected:
            found = next((i for i in range(at, len(lines)) if re.search(_pattern(e), lines[i])), None)
            assert found is not None, "after `%s` the page shows %r, which is not in the output:\n%s" % (
                text, e, "\n".join(lines[at:at + 12]))
            at = found + 1
