"""Reads a KiCad netlist (.net, s-expressions) into components and nets. Pure Python: the board
generator (system python3), the BOM writer and the tests use it."""


class NetlistError(ValueError):
    pass


def parse_sexpr(text):
    """The s-expression as nested lists of strings (quoted strings unquoted)."""
    out = []
    stack = [out]
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "(":
            new = []
            stack[-1].append(new)
            stack.append(new)
            i += 1
        elif ch == ")":
            if len(stack) == 1:
                raise NetlistError("unbalanced ')' at character %d" % i)
            stack.pop()
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == '"':
            j = i + 1
            buf = []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(text[j])
                j += 1
            stack[-1].append("".join(buf))
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '()"':
                j += 1
            stack[-1].append(text[i:j])
            i = j
    if len(stack) != 1:
        raise NetlistError("unbalanced '(': the file ends inside an expression")
    return out


def _field(node, key):
    for item in node[1:]:
        if isinstance(item, list) and item and item[0] == key:
            return item[1] if len(item) > 1 else ""
    return None


class Netlist:
    """components: {ref: {"value", "footprint", "lib", "part"}}; nets: {name: [(ref, pin)]};
    pin_net: {(ref, pin): name}."""

    def __init__(self, components, nets):
        self.components = components
        self.nets = nets
        self.pin_net = {node: name for name, nodes in nets.items() for node in nodes}


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise NetlistError("cannot read %s: %s" % (path, e.strerror)) from None
    return parse(text)


def parse(text):
    tree = parse_sexpr(text)
    if not tree or not isinstance(tree[0], list) or tree[0][:1] != ["export"]:
        raise NetlistError("not a KiCad netlist (no (export ...))")
    root = tree[0]
    comps, nets = {}, {}
    for section in root[1:]:
        if not isinstance(section, list):
            continue
        if section[0] == "components":
            for comp in section[1:]:
                ref = _field(comp, "ref")
                lib = [x for x in comp if isinstance(x, list) and x[0] == "libsource"]
                comps[ref] = {"value": _field(comp, "value"), "footprint": _field(comp, "footprint") or "",
                              "lib": _field(lib[0], "lib") if lib else None,
                              "part": _field(lib[0], "part") if lib else None}
        elif section[0] == "nets":
            for net in section[1:]:
                name = _field(net, "name")
                nodes = [(_field(x, "ref"), _field(x, "pin")) for x in net if isinstance(x, list) and x[0] == "node"]
                nets[name] = nodes
    return Netlist(comps, nets)


def load_pcb(path):
    """ref -> {"at": (x, y), "rot": degrees, "layer": "F.Cu"/"B.Cu", "pads": {number: net name}} of
    each footprint of a .kicad_pcb, read as s-expressions (no KiCad needed)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = parse_sexpr(f.read())
    except OSError as e:
        raise NetlistError("cannot read %s: %s" % (path, e.strerror)) from None
    out = {}
    for item in tree[0]:
        if not (isinstance(item, list) and item and item[0] == "footprint"):
            continue
        at = next(x for x in item if isinstance(x, list) and x[0] == "at")
        layer = next(x[1] for x in item if isinstance(x, list) and x[0] == "layer")
        ref = next(x[2] for x in item if isinstance(x, list) and x[:2] == ["fp_text", "reference"])
        pads = {}
        for x in item:
            if isinstance(x, list) and x[0] == "pad":
                net = [y for y in x if isinstance(y, list) and y[0] == "net"]
                pads[x[1]] = net[0][2] if net else None
        out[ref] = {"at": (float(at[1]), float(at[2])), "rot": float(at[3]) if len(at) > 3 else 0.0,
                    "layer": layer, "pads": pads}
    return out
