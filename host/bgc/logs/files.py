"""Writing the files bgc makes (exports, pulled journals, drawings): whole or not at all.

``write_file`` writes a regular file through ``NAME.part`` renamed over NAME, so a full disk or a
cut never leaves half a file under the real name, and removes the ``.part`` when the write fails.
It never renames over what is not a regular file: a device or a pipe (``-o /dev/stdout``,
``/dev/full``) is written in place, a directory is refused; a symbolic link is followed and its
target replaced. ``output_folder`` makes the folders they go into, and ``left_clean`` removes the
folders a command made when nothing went into them; ``check_input`` refuses to read what is not a
regular file. Every failure is a bgc.cli.UserError that names the file or folder.
"""

import contextlib
import errno
import os
import stat

from ..errors import UserError

HINT_SPACE = "free some space or write somewhere else"


def _failure(path, exc, hint):
    if exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):  # the disk or a size limit is full
        hint = HINT_SPACE
    return UserError("cannot write %s: %s\nhint: %s" % (path, exc.strerror or exc, hint))


def write_file(path, data, hint="choose another output file"):
    """Write ``data`` (str as UTF-8, or bytes) to ``path`` completely, or raise UserError and
    leave nothing behind (an existing file keeps its old content)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise _failure(path, exc, hint) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UserError("cannot write %s: it is a directory\nhint: %s" % (path, hint))
    if mode is not None and not stat.S_ISREG(mode):
        _write_in_place(path, target, data, hint)
        return
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise UserError("cannot write %s: the folder %s does not exist\nhint: create it first, or %s"
                        % (path, folder, hint))
    part = target + ".part"
    try:
        with open(part, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, target)
    except OSError as exc:
        try:
            os.remove(part)
        except OSError:
            pass
        raise _failure(path, exc, hint) from None


def check_input(path, what, hint):
    """UserError unless ``path`` is a regular file (following links): a device such as /dev/zero
    would never end, a folder or a missing path cannot be read."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise UserError("cannot read %s %s: %s\nhint: %s" % (what, path, exc.strerror or exc, hint)) from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise UserError("cannot read %s %s: it is %s\nhint: %s" % (what, path, kind, hint))


def make_folder(path, what, hint):
    """Create the folder ``path`` (and its parents) where it is missing and make sure bgc may
    write in it; UserError "cannot use WHAT PATH: why" with ``hint`` otherwise."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise UserError("cannot use %s %s: it is not a folder\nhint: %s" % (what, path, hint))
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise UserError("cannot use %s %s: %s\nhint: %s" % (what, path, exc.strerror or exc, hint)) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UserError("cannot use %s %s: no permission to write in it\nhint: %s" % (what, path, hint))


@contextlib.contextmanager
def output_folder(path, what, hint):
    """``with output_folder(path, ...):`` a command's outputs go into the folder ``path``, made
    where it is missing (make_folder), and removed again when the command ends if no file went
    into it (left_clean). ``path`` None: no folder."""
    with left_clean(path):
        if path is not None:
            make_folder(path, what, hint)
        yield path


@contextlib.contextmanager
def left_clean(path):
    """``with left_clean(path):`` the folders of ``path`` that are missing now and get made while
    the block runs are removed at its end if no file went into them (the command failed, or had
    nothing to write): a command leaves nothing behind but its outputs. ``path`` None: nothing."""
    missing = []
    folder = os.path.abspath(path) if path is not None else None
    while folder and not os.path.lexists(folder) and os.path.dirname(folder) != folder:
        missing.insert(0, folder)
        folder = os.path.dirname(folder)
    try:
        yield
    finally:
        _remove_empty(missing)


def _remove_empty(made):
    """Remove the folders of ``made`` (outermost first, each inside the one before) if no file
    went anywhere into them; a folder with a file below is kept whole. Never removes a file."""
    if not made or not os.path.isdir(made[0]) or os.path.islink(made[0]):
        return
    for root, dirs, names in os.walk(made[0]):
        if names or any(os.path.islink(os.path.join(root, d)) for d in dirs):
            return  # something was written: keep it all
    for root, _, _ in os.walk(made[0], topdown=False):
        try:
            os.rmdir(root)
        except OSError:
            return  # written to meanwhile (another program): keep the rest


def _write_in_place(path, target, data, hint):
    try:
        with open(target, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise _failure(path, exc, hint) from None
