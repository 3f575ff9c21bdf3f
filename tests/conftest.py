import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# The firmware's own packages (companion, drivers) are imported in place, as bgrules is.
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)

# Hypothesis' timing checks (an example's deadline, slow input generation) judge the machine, not
# the code: on a shared 2-core machine running the whole suite a draw took 1.3 s once and failed
# test_match_id's round trip with no wrong answer. The properties and their examples are the same.
try:
    from hypothesis import HealthCheck, settings

    settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("suite")
except ImportError:
    pass


# ------------------------------------------------------------------ the suite writes nothing into the checkout
# Tests write under their own temporary folders only. At the end of the session (in the controller
# when xdist runs the suite), `git status` of the checkout must show nothing that was not there when
# the session started: a developer's own uncommitted edits are left out of the comparison. Not a
# git checkout (an unpacked sdist, git missing): no check.
import subprocess  # noqa: E402

import pytest  # noqa: E402

_STATUS_BEFORE = pytest.StashKey()


def _git_status():
    """The lines of `git status --porcelain` (every untracked file listed), or None."""
    try:
        r = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=all"],
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    return set(r.stdout.splitlines()) if r.returncode == 0 else None


def _is_controller(config):
    return not hasattr(config, "workerinput")  # an xdist worker has workerinput


def pytest_sessionstart(session):
    if _is_controller(session.config):
        session.config.stash[_STATUS_BEFORE] = _git_status()


def left_in_checkout(before, after):
    """What the session left in the checkout: status lines at its end that were not there at its
    start."""
    return sorted(after - before)


def pytest_sessionfinish(session, exitstatus):
    if not _is_controller(session.config):
        return
    before = session.config.stash.get(_STATUS_BEFORE, None)
    after = _git_status() if before is not None else None
    if after is None:
        return
    left = left_in_checkout(before, after)
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        text = ("the tests left files in the checkout (git status; tests write under their own "
                "temporary folders):\n" + "\n".join("  " + line for line in left[:50]))
        if reporter is not None:
            reporter.write_line("")
            reporter.write_sep("=", "checkout not clean", red=True)
            reporter.write_line(text)
        else:
            print(text, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# ------------------------------------------------------------------ the longest modules first
# --dist loadscope gives each worker whole modules, in the order collected (with
# --no-loadscope-reorder, pyproject.toml: else by their count of tests, the many-test modules
# first): a module of several minutes started late ran alone on one worker while the other had
# finished (the suite's tail).
# These took a minute or more of one worker each in the runs of docs/performance.md ("The
# suite's time"), longest first; they are collected first, the rest in their own order after.
LONGEST_FIRST = ("test_variants_board.py", "test_pico_emulated.py", "test_computer_money.py",
                 "test_sim_reliability.py", "test_club_remote.py", "test_journal_tail.py",
                 "test_computer_offline.py", "test_computer_play.py", "test_computer_sim.py",
                 "test_variant_tavli.py", "test_hw_boards.py")


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    last = len(LONGEST_FIRST)
    items.sort(key=lambda item: rank.get(os.path.basename(str(item.path)), last))


# ------------------------------------------------------------------ the virtual board put back
# The virtual board (bgc.board.virtual.install, what a Sim does) makes itself the process's
# ``time``, ``machine`` and ``os``: a module imported while it is installed keeps its clock for
# good. Under --dist loadscope a worker runs module after module, so a module that leaves it
# installed hands a frozen clock to whichever module that worker runs next (the club page's relays
# then waited on virtual time: "one event sent in 12 s"). Each module must put it back (close()
# every Sim); this says which one did not, and puts it back itself.
import time as _REAL_TIME  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def _virtual_board_put_back(request):
    yield
    if sys.modules.get("time") is _REAL_TIME:
        return
    from bgc.board import virtual

    virtual.uninstall()
    sys.modules["time"] = _REAL_TIME
    pytest.fail("%s left the virtual board installed (the process's time was its clock): close() every "
                "Sim it makes" % os.path.basename(str(request.path)), pytrace=False)


# ------------------------------------------------------------------ one worker more than the cores
# `-n auto` (pyproject.toml) starts this many workers. A third of the suite's time is matches played
# in real time (the board's hands behind `bgc vpico`, two boards through a broker, Chromium's
# page), each using half a core or so while it waits for the clock: with one worker per core the
# machine sat partly idle (docs/performance.md, "The suite's time").
def pytest_xdist_auto_num_workers(config):
    return (os.cpu_count() or 1) + 1
