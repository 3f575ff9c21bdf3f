"""bgc: the PC side of the backgammon board companion."""

import os as _os
from importlib import resources as _resources

__version__ = "0.1.0"

# The checkout this bgc runs from (host/bgc inside it: an editable install or the tests), else None
# (installed from a wheel).
_TOP = _os.path.dirname(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))))
CHECKOUT = _TOP if _os.path.isfile(_os.path.join(_TOP, "pyproject.toml")) and \
    _os.path.isdir(_os.path.join(_TOP, "firmware")) else None


def resource(*parts):
    """The path of a file or folder the tool ships, named as in a checkout: ``resource("firmware")``
    is the tree `bgc deploy` copies (main.py, drivers/, bgrules/, companion/),
    ``resource("hardware", "geometry.json")`` the board's sensing geometry, ``resource("web",
    "page.html")`` the live page. An installed bgc carries them inside the package (the wheel's
    build copies firmware/ and hardware/geometry.json there: setup.py); a checkout has them at its
    top. The path is returned even when nothing is there, for the caller's error to name."""
    packaged = _resources.files(__name__).joinpath(*parts)
    if packaged.is_file() or packaged.is_dir() or CHECKOUT is None:
        return str(packaged)
    return _os.path.join(CHECKOUT, *parts)


# The firmware tree (what is copied onto the Pico). The host imports bgrules and companion from it
# in place in a checkout, and from the installed packages of the same files otherwise.
FIRMWARE_DIR = resource("firmware")
