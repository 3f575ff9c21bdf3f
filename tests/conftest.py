import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# The firmware's own packages (companion, drivers) are imported in place, as bgrules is.
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
