"""Generates the printed circuit boards (.kicad_pcb) from the netlists with KiCad 6's pcbnew.

Run with the system python3 (KiCad's pcbnew module is not in the project's virtualenv):

    /usr/bin/python3 hardware/gen/pcb.py [OUT_DIR]

For each board of layout.BOARDS: the netlist's parts are loaded from KiCad's footprint libraries
(Debian kicad-footprints) and put where layout.py says; every net is routed by the small grid
router below (two layers, Manhattan tracks, a turn and a via cost so tracks run straight); every
GND pad gets a via into the ground pours on both layers; then mounting holes, the outline, the
pours, and the design rules of layout.RULES. Routing is deterministic: the same netlist and layout
give the same board.

The router: the board is a 0.635 mm grid per copper layer. Each copper item (pad, track, via,
hole, edge) marks the cells whose centre lies within clearance + the half-width of what may pass
there (a signal track, a power track or a via) + half a grid diagonal, with its net; a cell held by
two nets is closed to all. A connection is an A* search from the net's copper so far to the next
pad, over free cells or cells of its own net.
"""
import faulthandler
import heapq
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layout  # noqa: E402
import netlist  # noqa: E402
import parts  # noqa: E402

try:
    import numpy as np
    import pcbnew
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.stderr.write("pcb.py: %s: run it with KiCad's python (/usr/bin/python3) after "
                     "'sh scripts/install_test_tools.sh'\n" % e)
    sys.exit(2)

KICAD_DIR = os.path.join(os.path.dirname(HERE), "kicad")
OWN_LIB = os.path.join(KICAD_DIR, "bgcompanion.pretty")

G = 0.635  # grid pitch, mm: a quarter of 2.54, half of 1.27, so header and SOIC pins fall on it
MARGIN = 0.5 * G * 1.4143  # half a cell diagonal: a cell's centre stands for all of it
FREE, MULTI = -1, -2
STEP_COST = (1, 3)  # per cell on F.Cu, B.Cu: the bottom stays mostly ground plane
TURN_COST = 6
VIA_COST = 20
HW = 1.5  # weight of the A* estimate: a little longer tracks, far fewer cells searched
HOLE_TO_HOLE = 0.25  # mm between drilled holes, edge to edge
POWER_NETS = {"+5V", "+3V3_SENS", "+3V3", "VSYS"}


class BoardError(Exception):
    pass


def mm(v):
    return pcbnew.FromMM(float(v))


def pt(x, y):
    return pcbnew.wxPointMM(float(x), float(y))


# ---------------------------------------------------------------- the Pico's socket footprint

def pico_footprint_text():
    """Two rows of 20 pads 17.78 mm apart (the Pico's castellations on 2.54 mm headers), pin 1 top
    left with the USB end up, numbered as the Pico's pins."""
    lines = ['(footprint "RaspberryPi_Pico_Socket" (version 20211014) (generator bgcompanion) (layer "F.Cu")',
             '  (descr "Raspberry Pi Pico on two 1x20 2.54 mm socket strips, rows 17.78 mm apart")',
             '  (attr through_hole)',
             '  (fp_text reference "REF**" (at 0 -27.5) (layer "F.SilkS") (effects (font (size 1 1) (thickness 0.15))))',
             '  (fp_text value "RaspberryPi_Pico_Socket" (at 0 27.5) (layer "F.Fab") (effects (font (size 1 1) (thickness 0.15))))',
             '  (fp_rect (start -10.5 -25.5) (end 10.5 25.5) (layer "F.SilkS") (width 0.12) (fill none))',
             '  (fp_rect (start -10.75 -25.75) (end 10.75 25.75) (layer "F.CrtYd") (width 0.05) (fill none))',
             '  (fp_rect (start -10.5 -25.5) (end 10.5 25.5) (layer "F.Fab") (width 0.1) (fill none))',
             '  (fp_text user "USB" (at 0 -23.5) (layer "F.SilkS") (effects (font (size 1 1) (thickness 0.15))))']
    for i in range(40):
        if i < 20:
            x, y = -8.89, -24.13 + 2.54 * i
        else:
            x, y = 8.89, -24.13 + 2.54 * (39 - i)
        shape = "rect" if i == 0 else "circle"
        lines.append('  (pad "%d" thru_hole %s (at %.2f %.2f) (size 1.7 1.7) (drill 1.0) (layers *.Cu *.Mask))'
                     % (i + 1, shape, x, y))
    lines.append(")")
    return "\n".join(lines) + "\n"


def write_own_library():
    os.makedirs(OWN_LIB, exist_ok=True)
    path = os.path.join(OWN_LIB, "RaspberryPi_Pico_Socket.kicad_mod")
    with open(path, "w", encoding="utf-8") as f:
        f.write(pico_footprint_text())


def load_footprint(spec):
    if ":" not in spec:
        raise BoardError("footprint %r has no library" % spec)
    lib, name = spec.split(":", 1)
    path = OWN_LIB if lib == "bgcompanion" else os.path.join(parts.KICAD_FOOTPRINTS, lib + ".pretty")
    if not os.path.isdir(path):
        raise BoardError("footprint library %s is missing (install kicad-footprints: "
                         "sh scripts/install_test_tools.sh)" % path)
    fp = pcbnew.FootprintLoad(path, name)
    if fp is None:
        raise BoardError("no footprint %s in %s" % (name, path))
    fp.SetFPID(pcbnew.LIB_ID(lib, name))  # library:name as in the netlist (loading by path drops it)
    return fp


# ---------------------------------------------------------------- the grid router

class Router:
    def __init__(self, rects, rules):
        self.rules = rules
        xs = [r[0] for r in rects] + [r[2] for r in rects]
        ys = [r[1] for r in rects] + [r[3] for r in rects]
        # Grid points at whole multiples of G, so that parts placed on them have pins on them.
        self.x0 = np.floor((min(xs) - 1) / G) * G
        self.y0 = np.floor((min(ys) - 1) / G) * G
        self.nx = int((max(xs) + 1 - self.x0) / G) + 1
        self.ny = int((max(ys) + 1 - self.y0) / G) + 1
        self.clear = rules["clearance_mm"]
        self.half = {"sig": rules["track_mm"] / 2, "pow": rules["power_track_mm"] / 2, "via": rules["via_mm"] / 2}
        self.keep = {c: np.full((2, self.ny, self.nx), MULTI, dtype=np.int32) for c in self.half}
        for (ax, ay, bx, by) in rects:
            for c, h in self.half.items():
                d = rules["edge_clearance_mm"] + h + MARGIN
                ix0, iy0 = self._ceil(ax + d, ay + d)
                ix1, iy1 = self._floor(bx - d, by - d)
                self.keep[c][:, iy0:iy1 + 1, ix0:ix1 + 1] = FREE
        self.expanded = 0  # search effort, for the log
        self.tree = {}  # net id -> set of (layer, iy, ix) of its copper's centre cells

    def _ceil(self, x, y):
        return int(np.ceil((x - self.x0) / G - 1e-9)), int(np.ceil((y - self.y0) / G - 1e-9))

    def _floor(self, x, y):
        return int(np.floor((x - self.x0) / G + 1e-9)), int(np.floor((y - self.y0) / G + 1e-9))

    def xy(self, ix, iy):
        return self.x0 + ix * G, self.y0 + iy * G

    def _claim(self, sub, net):
        if net == MULTI:
            sub[:] = MULTI
            return
        other = (sub != FREE) & (sub != net)
        sub[sub == FREE] = net
        sub[other] = MULTI

    def mark_rect(self, layers, ax, ay, bx, by, net, margin=MARGIN):
        """``margin``: half a cell diagonal for things off the grid (pads); 0 for tracks and vias,
        whose centres are grid points, so that tracks may run on neighbouring grid lines."""
        for c, h in self.half.items():
            d = self.clear + h + margin
            ix0, iy0 = self._ceil(ax - d, ay - d)
            ix1, iy1 = self._floor(bx + d, by + d)
            ix0, iy0 = max(ix0, 0), max(iy0, 0)
            for layer in layers:
                self._claim(self.keep[c][layer, iy0:iy1 + 1, ix0:ix1 + 1], net)

    def _disc(self, cx, cy, d):
        """(row slice, column slice, mask) of the grid points within ``d`` of (cx, cy)."""
        ix0, iy0 = self._ceil(cx - d, cy - d)
        ix1, iy1 = self._floor(cx + d, cy + d)
        ix0, iy0 = max(ix0, 0), max(iy0, 0)
        gx = self.x0 + np.arange(ix0, ix1 + 1) * G
        gy = self.y0 + np.arange(iy0, iy1 + 1) * G
        inside = (gx[None, :] - cx) ** 2 + (gy[:, None] - cy) ** 2 <= d * d
        return slice(iy0, iy1 + 1), slice(ix0, ix1 + 1), inside

    def mark_circle(self, layers, cx, cy, r, net, margin=MARGIN):
        for c, h in self.half.items():
            rows, cols, inside = self._disc(cx, cy, r + self.clear + h + margin)
            for layer in layers:
                sub = self.keep[c][layer, rows, cols]
                view = sub[inside]  # a copy (boolean indexing): claimed, then put back
                self._claim(view, net)
                sub[inside] = view

    def close_for_vias(self, cx, cy, d):
        rows, cols, inside = self._disc(cx, cy, d)
        for layer in (0, 1):
            self.keep["via"][layer, rows, cols][inside] = MULTI

    def core_cells(self, layers, ax, ay, bx, by):
        """Grid cells whose centre is inside a pad (a track ending there touches the pad)."""
        shrink = 0.05
        ix0, iy0 = self._ceil(ax + shrink, ay + shrink)
        ix1, iy1 = self._floor(bx - shrink, by - shrink)
        if ix1 < ix0 or iy1 < iy0:  # tiny pad: its nearest cell
            ix0 = ix1 = int(round(((ax + bx) / 2 - self.x0) / G))
            iy0 = iy1 = int(round(((ay + by) / 2 - self.y0) / G))
        return {(layer, iy, ix) for layer in layers for iy in range(iy0, iy1 + 1) for ix in range(ix0, ix1 + 1)}

    def search(self, net, cls, sources, is_goal, h, limit=300000):
        """A* from ``sources`` to a cell where is_goal(layer, iy, ix); the path or None."""
        keep = self.keep[cls]
        keepv = self.keep["via"]
        nx, ny = self.nx, self.ny
        heap = []
        best = {}
        parent = {}
        for (layer, iy, ix) in sources:
            s = (layer, iy, ix, -1)
            best[s] = 0
            parent[s] = None
            heapq.heappush(heap, (HW * h(layer, iy, ix), 0, s))
        dirs = ((0, 1), (1, 0), (0, -1), (-1, 0))
        expanded = 0
        while heap:
            f, g, s = heapq.heappop(heap)
            if best.get(s, 1 << 60) < g:
                continue
            layer, iy, ix, d = s
            if is_goal(layer, iy, ix) and parent[s] is not None:
                self.expanded += expanded
                path = []
                while s is not None:
                    path.append(s[:3])
                    s = parent[s]
                return path[::-1]
            expanded += 1
            if expanded > limit:
                self.expanded += expanded
                return None
            step = STEP_COST[layer]
            for nd, (dy, dx) in enumerate(dirs):
                jy, jx = iy + dy, ix + dx
                if not (0 <= jy < ny and 0 <= jx < nx):
                    continue
                k = keep[layer, jy, jx]
                if k != FREE and k != net:
                    continue
                ng = g + step + (TURN_COST if d >= 0 and d != nd else 0)
                t = (layer, jy, jx, nd)
                if ng < best.get(t, 1 << 60):
                    best[t] = ng
                    parent[t] = s
                    heapq.heappush(heap, (ng + HW * h(layer, jy, jx), ng, t))
            other = 1 - layer
            kv0, kv1 = keepv[0, iy, ix], keepv[1, iy, ix]
            if (kv0 == FREE or kv0 == net) and (kv1 == FREE or kv1 == net):
                k = keep[other, iy, ix]
                if k == FREE or k == net:
                    ng = g + VIA_COST
                    t = (other, iy, ix, d)
                    if ng < best.get(t, 1 << 60):
                        best[t] = ng
                        parent[t] = s
                        heapq.heappush(heap, (ng + HW * h(other, iy, ix), ng, t))
        return None


class BoardMaker:
    def __init__(self, name, spec, rules=layout.RULES):
        self.name = name
        self.spec = spec
        self.rules = rules
        self.nl = netlist.load(os.path.join(KICAD_DIR, spec["netlist"]))
        self.board = pcbnew.BOARD()
        self.router = Router(spec["rects"], rules)
        self.nets = {}
        self.net_ids = {}
        self.pads = {}  # (ref, pin) -> [pad objects]
        self.extra = {}  # (ref, pin) -> cells of its fan-out track and via (part of the pin)

    # ---- parts
    def place(self):
        positions = self.spec["positions"]()
        missing = sorted(set(self.nl.components) - set(positions))
        if missing:
            raise BoardError("%s: no place for %s in layout.py" % (self.name, ", ".join(missing)))
        for i, name in enumerate(sorted(self.nl.nets)):
            ni = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(ni)
            self.nets[name] = ni
            self.net_ids[name] = i
        for ref in sorted(self.nl.components):
            comp = self.nl.components[ref]
            fp = load_footprint(comp["footprint"])
            fp.SetReference(ref)
            fp.SetValue(comp["value"])
            x, y, rot, side = positions[ref]
            if not ref.startswith("H"):  # parts on the grid (hall sensors stay on their cells)
                x, y = round(x / G) * G, round(y / G) * G
            self.board.Add(fp)
            fp.SetPosition(pt(x, y))
            if side == "B":
                fp.Flip(fp.GetPosition(), False)
            fp.SetOrientationDegrees(rot)
            if ref.startswith(("C", "JP")) and self.name == "sensor":
                fp.Reference().SetVisible(False)  # beside a sensor's pads; positions.csv names them
            for pad in fp.Pads():
                num = pad.GetNumber()
                name = self.nl.pin_net.get((ref, num))
                if name is not None:
                    pad.SetNet(self.nets[name])
                self.pads.setdefault((ref, num), []).append(pad)
        for i, (hx, hy) in enumerate(self.spec["holes"]):
            fp = load_footprint("MountingHole:MountingHole_3.2mm_M3")
            self.board.Add(fp)
            fp.SetPosition(pt(hx, hy))
            fp.SetReference("MH%d" % (i + 1))
            fp.Reference().SetVisible(False)
            self.router.mark_circle((0, 1), hx, hy, 3.2 / 2 + 0.3, MULTI)
        # Every pad is an obstacle for every other net.
        for (ref, num), pads in self.pads.items():
            for pad in pads:
                self.router_mark_pad(pad)

    def pad_layers(self, pad):
        return tuple(layer for layer, kl in ((0, pcbnew.F_Cu), (1, pcbnew.B_Cu)) if pad.IsOnLayer(kl))

    def pad_box(self, pad):
        bb = pad.GetBoundingBox()
        x, y = pcbnew.ToMM(bb.GetX()), pcbnew.ToMM(bb.GetY())
        return x, y, x + pcbnew.ToMM(bb.GetWidth()), y + pcbnew.ToMM(bb.GetHeight())

    def router_mark_pad(self, pad):
        name = pad.GetNetname()
        net = self.net_ids.get(name, MULTI) if name else MULTI
        ax, ay, bx, by = self.pad_box(pad)
        layers = self.pad_layers(pad)
        # A pad centred on a grid point is measured exactly at the grid points around it.
        cx, cy = (ax + bx) / 2, (ay + by) / 2
        on_grid = all(abs(v / G - round(v / G)) < 1e-3 for v in (cx, cy))
        margin = 0 if on_grid else MARGIN
        if pad.GetDrillSize().x > 0:  # a hole: no via or track of another net near it on any layer
            layers = (0, 1)
        self.router.mark_rect(layers, ax, ay, bx, by, net, margin=margin)
        drill = pcbnew.ToMM(pad.GetDrillSize().x)
        if drill > 0:  # no via of any net, its own too, closer than the fab's hole-to-hole distance
            self.router.close_for_vias(cx, cy, drill / 2 + HOLE_TO_HOLE + self.rules["via_drill_mm"] / 2 + MARGIN)

    # ---- copper
    def add_track(self, net_name, layer, a, b, width):
        t = pcbnew.PCB_TRACK(self.board)
        t.SetStart(pt(*a))
        t.SetEnd(pt(*b))
        t.SetWidth(mm(width))
        t.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
        t.SetNet(self.nets[net_name])
        self.board.Add(t)
        net = self.net_ids[net_name]
        hw = width / 2
        self.router.mark_rect((layer,), min(a[0], b[0]) - hw, min(a[1], b[1]) - hw,
                              max(a[0], b[0]) + hw, max(a[1], b[1]) + hw, net, margin=0)
        return t

    def add_via(self, net_name, x, y):
        v = pcbnew.PCB_VIA(self.board)
        v.SetPosition(pt(x, y))
        v.SetWidth(mm(self.rules["via_mm"]))
        v.SetDrill(mm(self.rules["via_drill_mm"]))
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        v.SetNet(self.nets[net_name])
        self.board.Add(v)
        self.router.mark_circle((0, 1), x, y, self.rules["via_mm"] / 2, self.net_ids[net_name], margin=0)
        return v

    def lay_path(self, net_name, path, width, into_tree=True):
        """Tracks along a path of cells: straight runs merged, a via at each change of layer."""
        r = self.router
        cells = set(path)
        made = []
        runs = []
        start = path[0]
        prev = path[0]
        direction = None
        for cell in path[1:]:
            if cell[0] != prev[0]:
                if prev != start:
                    runs.append((start, prev))
                x, y = r.xy(cell[2], cell[1])
                made.append(self.add_via(net_name, x, y))
                start = cell
                direction = None
            else:
                d = (cell[1] - prev[1], cell[2] - prev[2])
                if direction is not None and d != direction:
                    runs.append((start, prev))
                    start = prev
                direction = d
            prev = cell
        if prev != start:
            runs.append((start, prev))
        for a, b in runs:
            made.append(self.add_track(net_name, a[0], r.xy(a[2], a[1]), r.xy(b[2], b[1]), width))
        if into_tree:
            r.tree.setdefault(self.net_ids[net_name], set()).update(cells)
        return made

    # ---- routing
    def route_net(self, name):
        r = self.router
        net = self.net_ids[name]
        cls = "pow" if name in POWER_NETS and self.name == "main" else "sig"
        width = self.rules["power_track_mm"] if cls == "pow" else self.rules["track_mm"]
        pads = [(ref, pin) for ref, pin in self.nl.nets[name]]
        cores = []
        for node in pads:
            cells = set()
            for pad in self.pads[node]:
                cells |= r.core_cells(self.pad_layers(pad), *self.pad_box(pad))
            cells |= self.extra.get(node, set())
            cores.append((node, cells))
        # Grow a tree from the first pad, each time to the pad nearest to what is connected.
        tree = set(cores[0][1])
        connected = {cores[0][0]}
        centres = [self.centre(cores[0][1])]
        todo = cores[1:]
        while todo:
            todo.sort(key=lambda item: min(abs(cx - self.centre(item[1])[0]) + abs(cy - self.centre(item[1])[1])
                                           for cx, cy in centres))
            node, cells = todo.pop(0)
            if cells & tree:
                connected.add(node)
                continue
            iys = [c[1] for c in cells]
            ixs = [c[2] for c in cells]
            ty0, ty1, tx0, tx1 = min(iys), max(iys), min(ixs), max(ixs)

            def h(layer, iy, ix):
                return max(0, ty0 - iy, iy - ty1) + max(0, tx0 - ix, ix - tx1)

            path = r.search(net, cls, tree, lambda layer, iy, ix: (layer, iy, ix) in cells, h)
            if path is None:
                raise BoardError("%s: no route for net %s to %s pin %s" % (self.name, name, node[0], node[1]))
            self.lay_path(name, path, width)
            tree |= set(path) | cells
            connected.add(node)
            centres.append(self.centre(cells))

    @staticmethod
    def centre(cells):
        c = next(iter(cells))
        return c[2], c[1]

    def ground_vias(self):
        """Each SMD ground pad gets a short track to a via into both ground pours."""
        r = self.router
        net = self.net_ids["GND"]
        for node in self.nl.nets["GND"]:
            for pad in self.pads[node]:
                layers = self.pad_layers(pad)
                if len(layers) == 2:
                    continue  # a through-hole pad reaches both pours itself
                cells = r.core_cells(layers, *self.pad_box(pad))
                inside = {(iy, ix) for (_, iy, ix) in cells}
                path = r.search(net, "sig", cells,
                                lambda layer, iy, ix, ly=layers[0]: layer != ly and (iy, ix) not in inside,
                                lambda layer, iy, ix: 0, limit=5000)
                if path is None:
                    raise BoardError("%s: no room for a ground via at %s pin %s" % (self.name, node[0], node[1]))
                self.lay_path("GND", path, self.rules["track_mm"], into_tree=False)
                self.extra[node] = self.extra.get(node, set()) | set(path)

    def fanout(self, refs):
        """Each signal pad of these parts gets a short track to a via of its own first, so that
        later routes reach the pin on either layer (without it the first tracks past a 24-pin
        multiplexer can fence in its pins)."""
        r = self.router
        for ref in refs:
            for (pref, num), pads in sorted(self.pads.items()):
                if pref != ref:
                    continue
                for pad in pads:
                    name = pad.GetNetname()
                    layers = self.pad_layers(pad)
                    if not name or name == "GND" or len(layers) == 2:
                        continue
                    cells = r.core_cells(layers, *self.pad_box(pad))
                    inside = {(iy, ix) for (_, iy, ix) in cells}
                    path = r.search(self.net_ids[name], "sig", cells,
                                    lambda layer, iy, ix, ly=layers[0]: layer != ly and (iy, ix) not in inside,
                                    lambda layer, iy, ix: 0, limit=5000)
                    if path is None:
                        raise BoardError("%s: no room for a via beside %s pin %s" % (self.name, ref, num))
                    self.lay_path(name, path, self.rules["track_mm"], into_tree=False)
                    self.extra[(ref, num)] = set(path)

    def route(self):
        names = [n for n in self.nl.nets if n != "GND"]
        # Power first (they reach every part), then the rest shortest first.
        def span(name):
            xs, ys = [], []
            for node in self.nl.nets[name]:
                for pad in self.pads[node]:
                    p = pad.GetPosition()
                    xs.append(pcbnew.ToMM(p.x))
                    ys.append(pcbnew.ToMM(p.y))
            return (max(xs) - min(xs)) + (max(ys) - min(ys))

        first = self.spec.get("route_first", ())
        if first:
            # Nets in the groups named by the layout go first, group by group, while the board
            # is open (e.g. the cable's nets around J1, then the 32 sensor outputs converging on
            # the two multiplexers); power and the rest find their way around them.
            def group(n):
                for i, pattern in enumerate(first):
                    if re.fullmatch(pattern, n):
                        return i
                return len(first)

            names.sort(key=lambda n: (group(n), n not in POWER_NETS, span(n), n))
        else:
            names.sort(key=lambda n: (n not in POWER_NETS, span(n), n))
        self.ground_vias()
        self.fanout(self.spec.get("fanout", ()))
        # Ground last, joined by tracks like every net (the pours alone could leave a pad on an
        # island inside a ring of tracks).
        names.append("GND")
        for name in names:
            before = self.router.expanded
            self.route_net(name)
            if os.environ.get("BGC_PCB_VERBOSE"):
                sys.stderr.write("%s: %s routed, %d cells searched\n" % (self.name, name, self.router.expanded - before))

    # ---- outline, pours, rules
    def outline(self):
        pts = self.spec["outline"]
        for i, a in enumerate(pts):
            b = pts[(i + 1) % len(pts)]
            s = pcbnew.PCB_SHAPE(self.board)
            s.SetShape(pcbnew.SHAPE_T_SEGMENT)
            s.SetStart(pt(*a))
            s.SetEnd(pt(*b))
            s.SetLayer(pcbnew.Edge_Cuts)
            s.SetWidth(mm(0.1))
            self.board.Add(s)

    def pours(self, board):
        """Ground pours on both layers (on the board as saved and loaded again: filling a board
        made in memory crashes KiCad 6.0's filler)."""
        for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
            z = pcbnew.ZONE(board)
            z.SetLayer(layer)
            z.SetNet(board.FindNet("GND"))
            poly = z.Outline()
            poly.NewOutline()
            for x, y in self.spec["outline"]:
                poly.Append(mm(x), mm(y))
            z.SetLocalClearance(mm(0.3))
            z.SetMinThickness(mm(0.25))
            z.SetThermalReliefGap(mm(0.3))
            z.SetThermalReliefSpokeWidth(mm(0.4))
            z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
            z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
            board.Add(z)
        filler = pcbnew.ZONE_FILLER(board)
        filler.Fill(board.Zones())

    def build(self):
        apply_rules(self.board, self.rules)
        self.place()
        if self.spec.get("routed", True):
            self.route()
        self.outline()
        return self.board


def remove_dangling_copper(board):
    """Takes out the signal copper that joins nothing at one end, until there is none: what KiCad's
    DRC calls dangling (its own test judges each track and via), and a via joined on one layer
    only (it changes no layer: just a hole to drill). A fan-out stub is the usual case: a route
    reached the pin on the pin's own layer, so the stub's via is joined on one layer, and once it
    is gone the stub's far end joins nothing. A dangling track end is cut back one grid step at a
    time (a route may have joined the track part-way), a via or a track of one step goes. What
    joins two things never dangles, so every connection stays. Ground is left alone: its vias and
    tracks join the pours, which are filled afterwards. Returns how many cuts were made."""
    step = mm(G)
    copper = (pcbnew.F_Cu, pcbnew.B_Cu)
    cuts = 0
    while True:
        board.BuildConnectivity()
        conn = board.GetConnectivity()
        items = [t for t in board.GetTracks() if t.GetNetname() != "GND"]
        same = {}
        for o in items + list(board.GetPads()):
            if o.GetClass() != "PCB_VIA":
                same.setdefault(o.GetNetname(), []).append(o)
        found = []
        for t in items:
            where = pcbnew.wxPoint(0, 0)
            if conn.TestTrackEndpointDangling(t, where):
                found.append((t, where))
            elif t.GetClass() == "PCB_VIA":
                p, r = t.GetPosition(), t.GetWidth() // 2
                joined = set()
                for o in same.get(t.GetNetname(), ()):
                    if o.HitTest(p, r):  # its copper touches the via's
                        joined |= {layer for layer in copper if o.IsOnLayer(layer)}
                if len(joined) < 2:
                    found.append((t, p))
        if not found:
            return cuts
        for t, where in found:  # each dangles whatever the others lose
            cuts += 1
            if t.GetClass() == "PCB_VIA" or t.GetLength() <= step:
                _take_out(board, t)
                continue
            s, e = t.GetStart(), t.GetEnd()
            ds = (s.x - where.x) ** 2 + (s.y - where.y) ** 2
            de = (e.x - where.x) ** 2 + (e.y - where.y) ** 2
            near, far = (s, e) if ds <= de else (e, s)
            k = step / t.GetLength()
            cut = pcbnew.wxPoint(int(round(near.x + (far.x - near.x) * k)), int(round(near.y + (far.y - near.y) * k)))
            if ds <= de:
                t.SetStart(cut)
            else:
                t.SetEnd(cut)


def _take_out(board, item):
    board.Remove(item)
    # KiCad 6's Remove hands the item to Python, and Python freeing it leaves the board's track
    # list broken (the next GetTracks fails): the item stays with the process until it ends.
    item.thisown = False


def apply_rules(board, rules=layout.RULES):
    ds = board.GetDesignSettings()
    ds.SetCopperLayerCount(rules["layers"])
    ds.m_TrackMinWidth = mm(rules["min_track_mm"])
    ds.m_MinThroughDrill = mm(rules["min_drill_mm"])
    ds.m_MinClearance = mm(rules["clearance_mm"])
    ds.m_ViasMinSize = mm(rules["via_mm"])
    ds.m_CopperEdgeClearance = mm(rules["edge_clearance_mm"])
    ds.m_HoleClearance = mm(rules["clearance_mm"])
    ds.SetBoardThickness(mm(rules["thickness_mm"]))
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(mm(rules["clearance_mm"]))
    nc.SetTrackWidth(mm(rules["track_mm"]))
    nc.SetViaDiameter(mm(rules["via_mm"]))
    nc.SetViaDrill(mm(rules["via_drill_mm"]))


def make(name, out_dir=KICAD_DIR):
    # KiCad names every item by a random UUID and saves in their order: seeded, the same code
    # makes the same file, byte for byte.
    pcbnew.KIID.SeedGenerator(sorted(layout.BOARDS).index(name) + 1)
    maker = BoardMaker(name, layout.BOARDS[name])
    try:
        board = maker.build()
    except BoardError:
        if os.environ.get("BGC_PCB_VERBOSE"):  # what was routed, for a look in KiCad
            maker.outline()
            pcbnew.SaveBoard(os.path.join(out_dir, name + ".failed.kicad_pcb"), maker.board)
        raise
    path = os.path.join(out_dir, name + ".kicad_pcb")
    pcbnew.SaveBoard(path, board)
    board = pcbnew.LoadBoard(path)
    apply_rules(board)
    remove_dangling_copper(board)
    maker.pours(board)
    pcbnew.SaveBoard(path, board)
    prl = os.path.splitext(path)[0] + ".kicad_prl"  # KiCad's per-user view settings: not ours
    if os.path.exists(prl):
        os.remove(prl)
    tracks = [t for t in board.GetTracks() if t.GetClass() == "PCB_TRACK"]
    return path, {"tracks": len(tracks), "vias": len(board.GetTracks()) - len(tracks)}


def main(argv=None):
    faulthandler.enable()
    argv = sys.argv[1:] if argv is None else argv
    out_dir = argv[0] if argv else KICAD_DIR
    names = argv[1:] or sorted(layout.BOARDS)
    write_own_library()
    try:
        for name in names:
            path, stats = make(name, out_dir)
            print("%s: %d tracks, %d vias -> %s" % (name, stats["tracks"], stats["vias"], path))
    except (BoardError, netlist.NetlistError) as e:
        sys.stderr.write("pcb.py: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
