"""What every layer of bgc raises when the user can act: UserError, printed by the CLI as one
``bgc: ...`` line and a hint; and how an error message repeats the user's own input."""

SHOWN = 60  # characters of the user's own input that an error message repeats


class UserError(Exception):
    """A failure the user can act on: printed as ``bgc: <message>`` with exit status 2.

    The message is one line saying what happened, then a line ``hint: <what to do>``; where the
    raiser gives no hint, main() adds one pointing at the command's --help.
    """


def shown(text, limit=SHOWN):
    """``text`` (the user's input) as an error message may repeat it: quoted, and cut to a short
    prefix so that a huge or binary input never comes back whole."""
    text = str(text)
    if len(text) > limit:
        return "%r... (%d characters)" % (text[:limit], len(text))
    return repr(text)
