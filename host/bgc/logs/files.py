"""Writing the files bgc makes (exports, pulled journals, drawings): whole or not at all.

``write_file`` writes a regular file through ``NAME.part`` renamed over NAME, so a full disk or a
cut never leaves half a file under the real name, and removes the ``.part`` when the write fails.
It never renames over what is not a regular file: a device or a pipe (``-o /dev/stdout``,
``/dev/full``) is written in place, a directory is refused; a symbolic link is followed and its
target replaced. ``make_folder`` makes the folders they go into; ``check_input`` refuses to read
what is not a regular file. Every failure is a bgc.cli.UserError that names the file or folder.
"""

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


def _write_in_place(path, target, data, hint):
    try:
        with open(target, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise _failure(path, exc, hint) from None

