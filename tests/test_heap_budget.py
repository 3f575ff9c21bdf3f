"""Issue 10's heap budget: with every module of firmware/bgrules (variants included) and
firmware/companion imported from source into the Pico's free heap at boot (240 KB) on a real
MicroPython with its collector on, at least 150,000 B stay free for the game (the chouette, own
dice and every variant may all be in use at once on the board). The figures come from
scripts/heap_modules.py (docs/performance.md); they are a Pico's only on the 32-bit build of
../shared/tools, whose objects have the Pico's sizes."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import heap_modules  # noqa: E402

FREE_AFTER_IMPORT = 150_000  # issue 10: free heap after importing the firmware's library code


def test_every_module_is_measured_in_dependency_order():
    names = heap_modules.modules()
    on_disk = set()
    for package in heap_modules.PACKAGES:
        for root, dirs, files in os.walk(os.path.join(ROOT, "firmware", package)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            rel = os.path.relpath(root, os.path.join(ROOT, "firmware")).replace(os.sep, ".")
            on_disk.update(rel if f == "__init__.py" else rel + "." + f[:-3] for f in files if f.endswith(".py"))
    assert sorted(names) == sorted(on_disk)
    # a module comes after its package and after what it imports at its top level
    assert names.index("bgrules") < names.index("bgrules.position") < names.index("bgrules.match")
    assert names.index("bgrules.variants") < names.index("bgrules.variants.oldbritain")
    assert names.index("bgrules.turn") < names.index("bgrules.variants.oldbritain")
    assert names.index("companion.tracker") < names.index("companion.controller")


@pytest.mark.micropython
def test_firmware_library_leaves_150000_bytes_free_in_a_pico_heap():
    free, costs, argv, is32 = heap_modules.measure()
    assert len(costs) == len(heap_modules.modules())  # every module imported under MicroPython
    if not is32:
        pytest.skip("heap figures need the 32-bit MicroPython of ../shared/tools (Pico-sized objects); "
                    "%s is 64-bit: every module imported, %d B free of a doubled heap" % (argv[0], free))
    biggest = ", ".join("%s %d" % c[:2] for c in sorted(costs, key=lambda c: -c[1])[:5])
    assert free >= FREE_AFTER_IMPORT, "%d B free after importing the firmware (biggest: %s)" % (free, biggest)
