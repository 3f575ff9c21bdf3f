"""Imports run one way: the firmware never needs the host, no firmware module imports one that
imports it back (directly or round a longer circle), and inside the host a lower folder never
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
    ("bgc.net",),                                   # boards on an MQTT broker (relay, club, remote)
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


def module_graph(top):
    """{module: set of the modules under ``top`` it imports, anywhere in its file}. ``from pkg
    import name`` is an import of the module pkg.name where there is one, else of pkg."""
    paths = {module_name(p, top): p for p in python_files(top)}
    graph = {}
    for module, path in paths.items():
        by_line = {}
        for line, target in imports(path, module):
            if target in paths and target != module:
                by_line.setdefault(line, set()).add(target)
        found = set()
        for targets in by_line.values():
            # ``from bgrules import matchid`` yields bgrules and bgrules.matchid: the module is meant
            found |= targets - set(t.rpartition(".")[0] for t in targets)
        graph[module] = found
    return graph


def circles(graph):
    """The import circles of ``graph``: its strongly connected components of more than one module
    (Tarjan's algorithm, iterative), each as a sorted list of module names, sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            for nxt in todo:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def describe_circle(graph, members):
    """One line per import inside the circle: who imports whom."""
    inside = set(members)
    return "; ".join("%s -> %s" % (m, ", ".join(sorted(graph[m] & inside))) for m in members)


def test_no_firmware_module_imports_one_that_imports_it_back():
    """A module loaded on demand must not import back from the module that loads it: the names
    both need (constants, the error type, helpers) live in the lower one or a small module of
    their own, so a reader knows which module owns each name (docs/architecture.md)."""
    graph = module_graph(FIRMWARE)
    found = circles(graph)
    assert not found, "import circles in firmware/ (every import must run one way):\n" + "\n".join(
        "%s: %s" % (" <-> ".join(c), describe_circle(graph, c)) for c in found)


def test_the_circle_check_sees_a_lazy_import_back(tmp_path):
    """The checker itself: a circle closed by an import inside a function, round three modules,
    is found and named; one-way imports are not a circle."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("X = 1\n")
    (pkg / "a.py").write_text("from pkg import low\ndef later():\n    from pkg import b\n")
    (pkg / "b.py").write_text("from pkg.c import Y\n")
    (pkg / "c.py").write_text("from pkg.low import X\nimport pkg.a\n")
    graph = module_graph(str(tmp_path))
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert describe_circle(graph, ["pkg.a", "pkg.b", "pkg.c"]) == "pkg.a -> pkg.b; pkg.b -> pkg.c; pkg.c -> pkg.a"
    (pkg / "c.py").write_text("from pkg.low import X\n")
    assert circles(module_graph(str(tmp_path))) == []


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


def test_turn_inlines_the_codes_turn_codes_owns():
    """bgrules.turn writes the search's codes again as const()s (MicroPython inlines a const only
    in its own module); bgrules.turn_why and the variants' searches read them from
    bgrules.turn_codes. A code that differed would make a refused play's reason name the wrong rule."""
    from bgrules import turn, turn_codes

    names = [n for n in dir(turn_codes) if n.startswith(("R_", "FIND_"))]
    assert len(names) == 10
    for name in names:
        assert getattr(turn, "_" + name) == getattr(turn_codes, name), name
