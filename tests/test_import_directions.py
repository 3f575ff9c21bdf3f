"""Imports run one way: the firmware never needs the host, and inside the host a lower folder never
imports a higher one (docs/architecture.md shows the layers). Every import is read from the source,
those inside functions too (a lazy import is still a dependency)."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
HOST = os.path.join(ROOT, "host")

# The host's layers, lowest first: a module may import its own layer and the ones below it.
LAYERS = (
    ("bgc", "bgc.errors"),                          # the package root (version, resources) and UserError
    ("bgc.rules",),                                 # the host's side of the rules engine
    ("bgc.logs",),                                  # journals, exports, files
    ("bgc.pico",),                                  # talking to a Pico, real or virtual; MicroPython
    ("bgc.board.virtual",),                         # the virtual board's hardware
    ("bgc.board",),                                 # the simulator and its players on that board
    ("bgc.web",),                                   # the live page
    ("bgc.commands", "bgc.cli", "bgc.__main__"),    # the verbs
)


def python_files(top):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield os.path.join(dirpath, name)


def module_name(path, top):
    name = os.path.relpath(path, top)[:-3].replace(os.sep, ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def imports(path, module):
    """(line, absolute module name) of every import in the file, relative ones resolved."""
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                target = base + ("." + node.module if node.module else "")
            else:
                target = node.module
            yield node.lineno, target
            for alias in node.names:  # ``from bgc import sim``: the module imported is bgc.sim
                yield node.lineno, target + "." + alias.name


def layer(module):
    """The index in LAYERS of the longest entry that is ``module`` or a package holding it."""
    best = None
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or (name != "bgc" and module.startswith(name + "."))) and \
                    (best is None or len(name) > len(best[1])):
                best = (index, name)
    return best[0] if best else None


def test_nothing_under_firmware_imports_the_host():
    wrong = []
    for path in python_files(FIRMWARE):
        for line, target in imports(path, module_name(path, FIRMWARE)):
            if target == "bgc" or target.startswith("bgc."):
                wrong.append("%s:%d imports %s" % (os.path.relpath(path, ROOT), line, target))
    assert not wrong, "the firmware must never need the host:\n" + "\n".join(wrong)


def test_every_host_module_has_a_layer():
    missing = [module_name(p, HOST) for p in python_files(os.path.join(HOST, "bgc"))
               if layer(module_name(p, HOST)) is None]
    assert not missing, "add these to LAYERS (and to docs/architecture.md): %s" % missing


def test_no_host_folder_imports_a_higher_one():
    wrong = []
    for path in python_files(os.path.join(HOST, "bgc")):
        module = module_name(path, HOST)
        own = layer(module)
        for line, target in imports(path, module):
            if target == "bgc" or target.startswith("bgc."):
                theirs = layer(target)
                if theirs is not None and theirs > own:
                    wrong.append("%s:%d (%s) imports %s (%s)" % (os.path.relpath(path, ROOT), line, LAYERS[own][0],
                                                                 target, LAYERS[theirs][0]))
    assert not wrong, "imports run downward only (LAYERS, lowest first):\n" + "\n".join(wrong)


def test_the_layer_test_sees_an_upward_import(tmp_path):
    """The checker itself: an upward import written into a file is found."""
    path = tmp_path / "hub.py"
    path.write_text("def describe():\n    from ..commands.watch import describe\n")
    found = [(target, layer(target)) for _, target in imports(str(path), "bgc.web.hub")]
    assert ("bgc.commands.watch", len(LAYERS) - 1) in found and layer("bgc.web.hub") < len(LAYERS) - 1
