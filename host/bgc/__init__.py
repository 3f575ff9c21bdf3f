"""bgc: the PC side of the backgammon board companion."""

import os as _os

__version__ = "0.1.0"

# The firmware tree (what is copied onto the Pico). The host imports bgrules from it in place.
FIRMWARE_DIR = _os.path.normpath(_os.path.join(_os.path.dirname(__file__), "..", "..", "firmware"))
# The checkout (pyproject.toml, hardware/, scripts/).
ROOT = _os.path.dirname(FIRMWARE_DIR)
