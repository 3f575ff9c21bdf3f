"""The RAM the firmware's library code takes: modules of firmware/bgrules and firmware/companion
imported from source on the UNIX-port MicroPython with the Pico's free heap at boot.

    .venv/bin/python scripts/bench/heap_modules.py [--heap-kb 240] [--top N]   # every module, one by one
    .venv/bin/python scripts/bench/heap_modules.py --configurations            # what a board holds at once
    .venv/bin/python scripts/bench/heap_modules.py --mqtt                      # a Pico W's MQTT link on top of boot

Every module at once is not a state a board can be in: a board plays one variant at a time, and
bgrules.variants.KEY is imported only when KEY is chosen. So issue 10's figures are taken for the
configurations a board really has (``configurations()``): at boot (what ``import main`` and the
power-up's journal reading load: >= 150,000 B must stay free) and the heaviest a session can reach,
every non-variant module (chouette, own dice, menu, serial commands, turn parts, journal repair,
host-only helpers) plus one variant's modules, for each variant in turn (>= 120,000 B, the in-play
floor, before the game's own data).

Modules are imported one at a time in dependency order (a module after every module it imports at
its top level), with a collection before and after each, so a module's cost is its own: its
bytecode, its globals and whatever it builds at import. A package's __init__ comes before its
modules. The interpreter is the one the tests use (bgc.pico.mpunix): the 32-bit v1.27 build of
../shared/tools where present, whose objects have the Pico's sizes; on a 64-bit build the heap is
doubled and the figures are not a Pico's (the report says so). The drivers and main.py are not
counted: they need the hardware (the emulated Pico's benchmark, scripts/bench/bench_pico.py, covers them).
"""

import argparse
import ast
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, os.path.join(ROOT, "host"))

from bgc.pico.mpunix import find_micropython  # noqa: E402

PACKAGES = ("bgrules", "companion")
PICO_HEAP_KB = 240  # the Pico's free heap at boot (MicroPython v1.27 RPI_PICO: 241,840 B)

# Each import prints MicroPython's qstr_info line (the interned names' pools, which grow in
# doubling steps: one module pays for a new pool that later modules fill) and NAME BYTES; the last
# line is the free heap after everything.
GUEST = """import gc, micropython
gc.collect()
f = open("modules.txt")
for name in f:
    name = name.strip()
    gc.collect()
    before = gc.mem_free()
    __import__(name)
    gc.collect()
    micropython.qstr_info()
    print(name, before - gc.mem_free())
f.close()
del f, name, before
gc.collect()
print("free", gc.mem_free())
"""


def _module_name(path):
    rel = os.path.relpath(path, FIRMWARE)[: -len(".py")].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def _imported(path, deep):
    """The module names ``path`` imports at its top level, or anywhere with ``deep``: each file
    is parsed once a process (the configurations ask again for most files, ~3,500 parses)."""
    st = os.stat(path)
    return _imported_in(path, deep, (st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=None)
def _imported_in(path, deep, _stamp):
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = []
    for node in ast.walk(tree) if deep else tree.body:
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
            found += [node.module + "." + a.name for a in node.names]
    return tuple(found)


def _top_imports(path, known):
    """The firmware modules ``path`` imports at its top level (not inside a function)."""
    return [name for name in _imported(path, False) if name in known]


def modules():
    """Every module of the packages, each after the modules it imports and after its package."""
    paths = {}
    for package in PACKAGES:
        for root, dirs, files in os.walk(os.path.join(FIRMWARE, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(root, name)
                    paths[_module_name(path)] = path
    order, placed = [], set()

    def place(name):
        if name in placed:
            return
        placed.add(name)
        if "." in name:
            place(name.rsplit(".", 1)[0])
        for dep in _top_imports(paths[name], paths):
            place(dep)
        order.append(name)

    for name in sorted(paths):
        place(name)
    return order


def _all_imports(path, known):
    """The firmware modules ``path`` imports anywhere (a variant's own modules, loaded when used)."""
    return [name for name in _imported(path, True) if name in known]


def _path(name):
    path = os.path.join(FIRMWARE, *name.split(".")) + ".py"
    return path if os.path.exists(path) else os.path.join(FIRMWARE, *name.split("."), "__init__.py")


def closure(roots, deep=False):
    """``roots`` and every module they import (at their top level; anywhere with ``deep``), in
    the dependency order of modules()."""
    order = modules()
    known = set(order)
    want = set()

    def add(name):
        if name in want:
            return
        want.add(name)
        if "." in name:
            add(name.rsplit(".", 1)[0])
        for dep in (_all_imports if deep else _top_imports)(_path(name), known):
            add(dep)

    for name in roots:
        add(name)
    return [name for name in order if name in want]


# What a board loads when it powers up: main.py's own imports of the companion, and the journal
# reading of every power-up (booting, recovery).
BOOT = ("companion.controller", "companion.store", "companion.booting", "companion.recovery")


def variants():
    return [name for name in modules() if name.startswith("bgrules.variants.")]


# Modules in firmware/ that a board never loads: the tests' automated players run them under
# MicroPython, the Pico does not (Turn.plays lists every play; the board asks directly).
HOST_ONLY = ("bgrules.turn_plays",)
# A chouette plays the standard game, and main.py drops these while no chouette is on: they never
# sit beside a variant's modules.
CHOUETTE = ("companion.chouette_session", "companion.protocol_chouette", "bgrules.chouette")
# A match against the computer plays the standard game (or Nackgammon) without a chouette: main.py
# drops these while no side is the computer's (main.COMPUTER)
COMPUTER = ("companion.phase_computer", "companion.computer_turn", "companion.protocol_computer",
            "companion.computer_help")
# A match from a set position (bgc setup) is a standard or Nackgammon match, never a chouette's
# game (a chouette journal has no setup record: companion.recovery.apply_chouette refuses one),
# and main.py drops it after use (main.ONCE_ONLY)
SET_POSITION = ("bgrules.match_setup",)
# The .mpy deploy (whose heap this measures) prepares no answers in idle loop steps, reads
# frames with the bytecode tracker and makes the game screen at every answer: only the image
# does otherwise, its code in flash
# (companion.controller.PREPARES; main.App calls companion.prepared.install_image, which builds
# companion.tracker_fast's tracker and installs companion.display_fast, ids_fast and search_fast)
IMAGE_ONLY = ("companion.display_fast", "companion.ids_fast", "companion.prepared", "companion.prepared_next",
              "companion.search_fast", "companion.tracker_fast", "companion.viper_source")
# A chouette evening's journal keeps no tail (its answers take littlefs's erases: companion.tail;
# main.py drops the module while a chouette is on)
TAILS = ("companion.tail",)


def variant_shared():
    """main.VARIANT_SHARED, read from firmware/main.py (it needs the hardware to import): the
    modules only a variant's match uses, which main.py drops while the standard game (a
    chouette's) is played."""
    with open(os.path.join(FIRMWARE, "main.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["VARIANT_SHARED"]:
            return tuple(ast.literal_eval(node.value))
    raise SystemExit("heap_modules: VARIANT_SHARED not found in firmware/main.py")


def configurations():
    """{"boot": [modules], "chouette": [every module of a chouette evening, the standard game's:
    not the variants' shared ones, main.VARIANT_SHARED],
    "heaviest": [modules every variant's session shares], "variant KEY": [its own]}."""
    every = [name for name in modules() if not name.startswith("bgrules.variants.") and name not in HOST_ONLY
             and name not in IMAGE_ONLY]
    only_variants = variant_shared()
    chouette = [name for name in every if name not in only_variants]
    chouette = [name for name in chouette if name not in COMPUTER and name not in SET_POSITION and name not in TAILS]
    computer = [name for name in every if name not in only_variants and name not in CHOUETTE]
    shared = [name for name in every if name not in CHOUETTE and name not in COMPUTER]
    found = {"boot": closure(BOOT), "chouette": chouette, "computer": computer, "heaviest": shared}
    for name in variants():
        roots = [name] + ["bgrules.variants." + game for game in _cycle(name.rsplit(".", 1)[1])]
        found["variant " + name.rsplit(".", 1)[1]] = [m for m in closure(roots, deep=True)
                                                    if m not in shared and m not in HOST_ONLY]
    return found


def _cycle(key):
    """The games a match of ``key`` plays in turn (Rules.cycle: Tavli's Portes, Plakoto, Fevga),
    each loaded by name when its game starts (bgrules.rules.ruleset, which the import scan above
    cannot see) and kept while the match goes on: main.py drops a variant's code only when no
    variant match is in play, so by a Tavli match's third game all three are in the heap."""
    if FIRMWARE not in sys.path:
        sys.path.insert(0, FIRMWARE)
    from bgrules.rules import VARIANTS, ruleset

    return (ruleset(key).cycle or ()) if key in VARIANTS else ()


# The heaviest configurations in one run: every shared module, then each variant's own modules
# imported, measured and dropped again (a board holds one variant at a time).
VARIANT_GUEST = """import gc, sys
gc.collect()
f = open("modules.txt")
shared = []
for line in f:
    line = line.strip()
    if line == "--":
        break
    shared.append(line)
for name in shared:
    __import__(name)
del shared
gc.collect()
print("shared", gc.mem_free())
for line in f:
    names = line.split()
    for name in names[1:]:
        __import__(name)
    gc.collect()
    print(names[0], gc.mem_free())
    for name in names[1:]:
        parent, _, leaf = name.rpartition(".")
        del sys.modules[name]
        delattr(sys.modules[parent], leaf)
    names = None
    gc.collect()
f.close()
"""


def measure_variants(heap_kb=PICO_HEAP_KB):
    """(free after every shared module, {variant key: free with its own modules too}, argv,
    is_32bit)."""
    argv, is32 = find_micropython(True)
    conf = configurations()
    lines = conf["heaviest"] + ["--"]
    for key, own in sorted(conf.items()):
        if key.startswith("variant "):
            lines.append(" ".join([key[8:]] + own))
    out = _run(argv, is32, heap_kb, lines, VARIANT_GUEST)
    found = {}
    for line in out.split("\n"):
        if line:
            key, value = line.split()
            found[key] = int(value)
    return found.pop("shared"), found, argv, is32


def _as_on_the_board(tree):
    """The firmware copied into ``tree``, the guest's working folder, whose modules MICROPYPATH's
    empty first entry then finds by relative paths ("companion/tracker.py"), as a board holds its
    files: a module's file name is an interned name in the heap, so imported from the checkout's
    absolute path every figure here moved with where the checkout sits (~150-250 B between two
    folders, and which module the every-module check refuses)."""
    shutil.copytree(FIRMWARE, tree, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))


def _run(argv, is32, heap_kb, lines, guest):
    heap = heap_kb * (1 if is32 else 2)
    with tempfile.TemporaryDirectory(prefix="bgc-heap-") as tree:
        _as_on_the_board(tree)
        with open(os.path.join(tree, "modules.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(tree, "heap.py"), "w") as f:
            f.write(guest)
        env = dict(os.environ, MICROPYPATH=":.frozen")
        r = subprocess.run(argv + ["-X", "heapsize=%dK" % heap, "heap.py"], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError("MicroPython failed:\n" + r.stdout + r.stderr)
    return r.stdout


def measure(heap_kb=PICO_HEAP_KB, names=None):
    """(free bytes after all imports, [(module, bytes, qstr bytes)], interpreter argv, is_32bit):
    a module's cost includes what the interned-name pools grew by (qstr bytes)."""
    argv, is32 = find_micropython(True)
    out = _run(argv, is32, heap_kb, names or modules(), GUEST)
    costs, free, qstr, grew = [], None, None, 0
    for line in out.split("\n"):
        if line.startswith("qstr pool:"):
            total = int(line.rsplit("n_total_bytes=", 1)[1])
            grew, qstr = total - (qstr if qstr is not None else total), total
        elif line:
            name, value = line.split()
            if name == "free":
                free = int(value)
            else:
                costs.append((name, int(value), grew))
    return free, costs, argv, is32


# Every module at once, as a check that knows nothing of the dependency order would import them:
# in name order, no collection between (the collector runs only when an allocation fails), each
# import's MemoryError caught so the rest are still tried. What fails there first is not the heap's
# size but MicroPython's interned-name pools (qstr pools): each new pool holds twice the last and
# needs one block, 20 + 40 + ... + 640 = 1,260 names fill six, and the seventh takes about 9 KB in
# one piece, which a heap fragmented by dozens of compilations no longer has (issue 34: 9 modules
# refused with 90,528 B free). The packages' own collection before their modules compile keeps it.
ALL_GUEST = """import gc, micropython
f = open("modules.txt")
names = [line.strip() for line in f if line.strip()]
f.close()
failed = []
for name in names:
    try:
        __import__(name)
    except MemoryError:
        failed.append(name)
micropython.qstr_info()
gc.collect()
print("failed", " ".join(failed) or "-")
print("free", gc.mem_free())
"""
POOL_NAMES = (20, 40, 80, 160, 320, 640, 1280, 2560)  # names each qstr pool holds (v1.27: 20, doubling)


def import_all(heap_kb=PICO_HEAP_KB, names=None):
    """Every module imported in name order in one process (``ALL_GUEST``): (modules that raised
    MemoryError, free bytes after, interned names, qstr pools, argv, is_32bit). The names counted
    are the modules' and the few of the guest itself (8)."""
    argv, is32 = find_micropython(True)
    out = _run(argv, is32, heap_kb, sorted(names or modules()), ALL_GUEST)
    failed, free, qstrs, pools = [], None, None, None
    for line in out.split("\n"):
        if line.startswith("qstr pool:"):
            pools = int(line.split("n_pool=")[1].split(",")[0])
            qstrs = int(line.split("n_qstr=")[1].split(",")[0])
        elif line.startswith("failed "):
            failed = [] if line == "failed -" else line.split()[1:]
        elif line.startswith("free "):
            free = int(line.split()[1])
    return failed, free, qstrs, pools, argv, is32


# A Pico W with /mqtt.json (docs/club.md): main.py wraps the serial line in drivers.mqtt_link, which
# imports umqtt.simple (PyPI's 1.3.4, the file the Pico W image freezes: bgc.pico.libs). Measured on top
# of the boot configuration: each import, the link built (MQTTClient, MqttLink, LinkedSerial), then its
# queue full (the broker away: QUEUE_MAX lines or QUEUE_BYTES of text at most) with a status and a view
# line held, the lines being the heaviest run of QUEUE_MAX consecutive events of a match played on the
# virtual board. Not
# counted: Wi-Fi (network.WLAN: the cyw43 driver's and lwIP's buffers are static C memory, outside the
# MicroPython heap) and the socket's object (about 100 B), which only a Pico W has.
MQTT_GUEST = r"""import gc
gc.collect()
f = open("modules.txt")
for name in f:
    __import__(name.strip())
f.close()
del f, name
gc.collect()
print("boot", gc.mem_free())
for name in ("umqtt.simple", "drivers.mqtt_link"):
    gc.collect()
    before = gc.mem_free()
    __import__(name)
    gc.collect()
    print(name, before - gc.mem_free())
from umqtt.simple import MQTTClient
from drivers.mqtt_link import MqttLink, LinkedSerial
class Usb:
    def read_line(self):
        return None
    def write_line(self, text):
        pass
gc.collect()
before = gc.mem_free()
client = MQTTClient("bgc-club-table01", "192.0.2.1", 1883, "table01", "a-password-of-24-letters")
link = MqttLink(client, "club", "table01", 123456)
serial = LinkedSerial(Usb(), link)
gc.collect()
print("link", before - gc.mem_free())
f = open("lines.txt")
for line in f:
    serial.write_line(line.rstrip("\n"))
f.close()
del f, line
gc.collect()
print("queue", before - gc.mem_free(), len(link.queue), link.dropped, sum(len(t) for _, t in link.queue))
print("free", gc.mem_free())
"""


def heaviest_queue(events, n):
    """The ``n`` consecutive event lines of ``events`` with the most bytes, after the last status and
    view lines before them where the run has none (the link holds those for the state)."""
    lines = [json.dumps(e) for e in events]
    best = max(range(len(lines) - n + 1), key=lambda i: sum(len(x) for x in lines[i:i + n]))
    before = []
    for kind in ("status", "view"):
        head = '{"ev": "%s"' % kind
        earlier = [x for x in lines[:best] if x.startswith(head)]
        if earlier and not any(x.startswith(head) for x in lines[best:best + n]):
            before.append(earlier[-1])
    return before + lines[best:best + n]


def _constant(path, name):
    with open(path) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise SystemExit("heap_modules: %s not found in %s" % (name, path))


def measure_mqtt(heap_kb=PICO_HEAP_KB):
    """A Pico W's MQTT link on top of the boot configuration (``MQTT_GUEST``): {"boot": B free,
    "umqtt.simple": B, "drivers.mqtt_link": B, "link": B built, "queue": B built and full, "queued":
    lines in it, "dropped": lines it let go, "queue_text": B of text in it, "free": B left, "argv",
    "is32"}."""
    import bench_club  # the virtual board's recorded match (scripts/bench)
    from bgc.pico import libs

    queue_max = _constant(os.path.join(FIRMWARE, "drivers", "mqtt_link.py"), "QUEUE_MAX")
    lines = heaviest_queue(bench_club.recorded_match(events=600), queue_max)
    argv, is32 = find_micropython(True)
    heap = heap_kb * (1 if is32 else 2)
    with tempfile.TemporaryDirectory(prefix="bgc-heap-") as tree:
        _as_on_the_board(tree)
        with open(os.path.join(tree, "modules.txt"), "w") as f:
            f.write("\n".join(configurations()["boot"]) + "\n")
        with open(os.path.join(tree, "lines.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(tree, "heap.py"), "w") as f:
            f.write(MQTT_GUEST)
        env = dict(os.environ, MICROPYPATH=":" + libs.umqtt_dir() + ":.frozen")
        r = subprocess.run(argv + ["-X", "heapsize=%dK" % heap, "heap.py"], cwd=tree, env=env,
                           capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError("MicroPython failed:\n" + r.stdout + r.stderr)
    found = {"argv": argv, "is32": is32}
    for line in r.stdout.split("\n"):
        words = line.split()
        if words and words[0] == "queue":
            found["queue"], found["queued"], found["dropped"], found["queue_text"] = map(int, words[1:5])
        elif words:
            found[words[0]] = int(words[1])
    return found


def show_mqtt(heap_kb):
    m = measure_mqtt(heap_kb)
    print("interpreter: %s (%s)" % (" ".join(m["argv"]), "32-bit, Pico-sized objects" if m["is32"] else
                                     "64-bit: heap doubled, figures are NOT a Pico's"))
    print("%-50s %7d B free" % ("boot (import main, the power-up's journal)", m["boot"]))
    print("%-50s %7d B" % ("  import umqtt.simple (from source)", m["umqtt.simple"]))
    print("%-50s %7d B" % ("  import drivers.mqtt_link (from source)", m["drivers.mqtt_link"]))
    print("%-50s %7d B" % ("  the link built (client, link, serial wrapper)", m["link"]))
    print("%-50s %7d B  (%d lines queued, %d B of text)" % (
        "  ... with its queue full, the broker away", m["queue"], m["queued"], m["queue_text"]))
    print("%-50s %7d B free  (%d B less than without the link)" % (
        "boot with the MQTT link, its queue full", m["free"], m["boot"] - m["free"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heap-kb", type=int, default=PICO_HEAP_KB, help="the heap in Pico kilobytes (default 240)")
    parser.add_argument("--top", type=int, default=0, help="list only the N biggest modules")
    parser.add_argument("--configurations", action="store_true",
                        help="the free heap at boot and in the heaviest configuration with each variant")
    parser.add_argument("--mqtt", action="store_true",
                        help="a Pico W's MQTT link (drivers/mqtt_link.py, umqtt) on top of the boot configuration")
    args = parser.parse_args()
    if args.mqtt:
        return show_mqtt(args.heap_kb)
    if args.configurations:
        return show_configurations(args.heap_kb)
    free, costs, argv, is32 = measure(args.heap_kb)
    print("interpreter: %s (%s)" % (" ".join(argv), "32-bit, Pico-sized objects" if is32 else
                                     "64-bit: heap doubled, figures are NOT a Pico's"))
    shown = sorted(costs, key=lambda c: -c[1])[: args.top] if args.top else costs
    print("%-34s %9s  %s" % ("module", "RAM", "of which interned names (qstr pools)"))
    for name, cost, qstr in shown:
        print("%-34s %7d B  %7d B" % (name, cost, qstr))
    print("%-34s %7d B  %7d B" % ("all %d modules" % len(costs), sum(c[1] for c in costs), sum(c[2] for c in costs)))
    print("%-34s %7d B  (heap %d KB)" % ("free after importing everything", free, args.heap_kb))


def show_configurations(heap_kb):
    boot = configurations()["boot"]
    free, _, argv, is32 = measure(heap_kb, boot)
    print("interpreter: %s (%s)" % (" ".join(argv), "32-bit, Pico-sized objects" if is32 else
                                     "64-bit: heap doubled, figures are NOT a Pico's"))
    print("%-44s %7d B free  (%d modules)" % ("boot (import main, the power-up's journal)", free, len(boot)))
    chouette, _, _, _ = measure(heap_kb, configurations()["chouette"])
    print("%-44s %7d B free" % ("a chouette evening (every non-variant module)", chouette))
    computer, _, _, _ = measure(heap_kb, configurations()["computer"])
    print("%-44s %7d B free" % ("a match against the computer (gnu)", computer))
    shared, per_variant, _, _ = measure_variants(heap_kb)
    print("%-44s %7d B free" % ("a match: every non-variant, non-chouette module", shared))
    for key, value in sorted(per_variant.items(), key=lambda kv: kv[1]):
        print("%-44s %7d B free" % ("  ... and variant " + key, value))
    everything, _, _, _ = measure(heap_kb)
    print("%-44s %7d B free  (not a board's state: one variant at a time)" % ("every module at once", everything))
    failed, free, qstrs, pools, _, _ = import_all(heap_kb)
    print("%-44s %7d B free, %d failed; %d interned names in %d pools" % (
        "every module at once, in name order", free, len(failed), qstrs, pools))


if __name__ == "__main__":
    main()
