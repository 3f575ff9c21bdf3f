"""KiCad's DRC and the fabrication outputs of the generated boards. System python3 (pcbnew).

    /usr/bin/python3 hardware/gen/fab.py drc BOARD.kicad_pcb      # prints the DRC counts, exit 1 if any
    /usr/bin/python3 hardware/gen/fab.py outputs [FAB_DIR [PICTURES_DIR]]  # Gerbers, drill, BOM, placement, SVGs

Outputs per board (hardware/fab/<board>/): Gerber files of the copper, mask, paste, silkscreen and
outline layers (Protel names, what fab houses expect), the Excellon drill file, ``bom.csv`` (the
board's parts grouped by part, with quantities, manufacturer and distributor part numbers) and
``positions.csv`` (pick and place: reference, value, footprint, centre in mm, rotation, side); and
``hardware/pictures/<board>-top.svg`` / ``-bottom.svg`` (KiCad's SVG plot of each side).
"""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layout  # noqa: E402
import parts  # noqa: E402

try:
    import pcbnew
except ImportError as e:  # pragma: no cover
    sys.stderr.write("fab.py: %s: run it with KiCad's python (/usr/bin/python3) after "
                     "'sh scripts/install_test_tools.sh'\n" % e)
    sys.exit(2)

from pcb import KICAD_DIR, apply_rules  # noqa: E402

HW_DIR = os.path.dirname(HERE)
FAB_DIR = os.path.join(HW_DIR, "fab")
PICTURES = os.path.join(HW_DIR, "pictures")


def load(path):
    if not os.path.exists(path):
        raise SystemExit("fab.py: no board %s; make it with: python scripts/build/build_hardware.py" % path)
    board = pcbnew.LoadBoard(path)
    apply_rules(board)
    return board


def drc(path, report):
    """(violations, unconnected, report text) of KiCad's DRC on a board, zones refilled."""
    board = load(path)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(report, encoding="utf-8") as f:
        text = f.read()
    found = dict((kind, int(n)) for n, kind in re.findall(r"\*\* Found (\d+) (DRC violations|unconnected pads)", text))
    return found.get("DRC violations", -1), found.get("unconnected pads", -1), text


GERBER_LAYERS = [("F_Cu", pcbnew.F_Cu), ("B_Cu", pcbnew.B_Cu), ("F_Mask", pcbnew.F_Mask),
                 ("B_Mask", pcbnew.B_Mask), ("F_Paste", pcbnew.F_Paste), ("B_Paste", pcbnew.B_Paste),
                 ("F_SilkS", pcbnew.F_SilkS), ("B_SilkS", pcbnew.B_SilkS), ("Edge_Cuts", pcbnew.Edge_Cuts)]


def gerbers(board, out):
    os.makedirs(out, exist_ok=True)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(out)
    po.SetFormat(pcbnew.PLOT_FORMAT_GERBER)
    po.SetUseGerberProtelExtensions(True)
    po.SetUseGerberX2format(False)  # X2 attributes carry the date: keep the files reproducible
    po.SetIncludeGerberNetlistInfo(False)
    po.SetCreateGerberJobFile(False)
    po.SetPlotFrameRef(False)
    po.SetExcludeEdgeLayer(True)
    po.SetSubtractMaskFromSilk(True)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    for suffix, layer in GERBER_LAYERS:
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, True, pcbnew.wxPoint(0, 0), True)  # mirror, minimal header, origin, merge NPTH
    drill.SetFormat(True)  # metric
    drill.CreateDrillandMapFilesSet(out, True, False)
    for name in os.listdir(out):
        _strip_dates(os.path.join(out, name))


def _strip_dates(path):
    """Comments in the Gerber and drill headers carry the time of the run; drop them."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    keep = [ln for ln in lines if not re.search(r"CreationDate|TF\.CreationDate|^; DRILL file .* date|"
                                                r"G04 Created by KiCad.* date|^;.*\d{4}-\d\d-\d\d", ln)]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(keep))


LAYER_COLOURS = {"top": [(pcbnew.F_Cu, "#c83434", 0.85), (pcbnew.F_SilkS, "#1a1a1a", 1.0),
                          (pcbnew.Edge_Cuts, "#c8a000", 1.0)],
                  "bottom": [(pcbnew.B_Cu, "#3434c8", 0.85), (pcbnew.B_SilkS, "#1a1a1a", 1.0),
                             (pcbnew.Edge_Cuts, "#c8a000", 1.0)]}


def svg(board, out_path, side):
    """One picture of a side: KiCad's SVG plot of each layer, each coloured, stacked, cropped to
    the board outline (the bottom seen from below, mirrored)."""
    out_dir = os.path.dirname(out_path)
    os.makedirs(out_dir, exist_ok=True)
    tmp = os.path.join(out_dir, ".plot-tmp")
    os.makedirs(tmp, exist_ok=True)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(tmp)
    po.SetPlotFrameRef(False)
    po.SetExcludeEdgeLayer(True)
    po.SetMirror(side == "bottom")
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.FULL_DRILL_SHAPE)
    bodies = []
    head = None
    for i, (layer, colour, opacity) in enumerate(LAYER_COLOURS[side]):
        pc.SetLayer(layer)
        pc.OpenPlotfile("l%d" % i, pcbnew.PLOT_FORMAT_SVG, "l%d" % i)
        pc.PlotLayer()
        pc.ClosePlot()
        made = pc.GetPlotFileName()
        with open(made, encoding="utf-8") as f:
            text = f.read()
        os.remove(made)
        body_start = text.index("<desc>")
        body_start = text.index("</desc>", body_start) + len("</desc>")
        body_end = text.rindex("</svg>")
        head = text[:text.index("<title>")]
        body = text[body_start:body_end].replace("#000000", colour)
        bodies.append('<g opacity="%.2f">%s</g>' % (opacity, body))
    os.rmdir(tmp)
    box = board.GetBoardEdgesBoundingBox()
    pad = pcbnew.FromMM(2)
    x, y = box.GetX() - pad, box.GetY() - pad
    w, h = box.GetWidth() + 2 * pad, box.GetHeight() + 2 * pad
    if side == "bottom":  # the mirrored plot puts x at page width - x
        page_w = int(re.search(r'viewBox="0 0 (\d+) ', head).group(1))
        x = page_w - (box.GetX() + box.GetWidth()) - pad
    head = re.sub(r'width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                  'width="%.1fmm" height="%.1fmm" viewBox="%d %d %d %d"'
                  % (pcbnew.ToMM(w), pcbnew.ToMM(h), x, y, w, h), head)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(head)
        f.write("\n".join(bodies))
        f.write("\n</svg>\n")


def positions(board, out_path):
    rows = []
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        if _is_hole(fp):
            continue
        p = fp.GetPosition()
        rows.append((ref, fp.GetValue(), str(fp.GetFPID().GetUniStringLibItemName()),
                     "%.3f" % pcbnew.ToMM(p.x), "%.3f" % pcbnew.ToMM(p.y), "%.1f" % fp.GetOrientationDegrees(),
                     "bottom" if fp.IsFlipped() else "top"))
    rows.sort(key=_ref_key)
    with open(out_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["Designator", "Value", "Footprint", "Mid X (mm)", "Mid Y (mm)", "Rotation", "Layer"])
        w.writerows(rows)


def _is_hole(fp):
    return str(fp.GetFPID().GetLibNickname()) == "MountingHole"


def _ref_key(row):
    m = re.match(r"([A-Za-z_]+)(\d+)", row[0])
    return (m.group(1), int(m.group(2))) if m else (row[0], 0)


def bom(board, out_path):
    by = parts.by_value_and_footprint()
    groups = {}
    for fp in board.GetFootprints():
        if _is_hole(fp):
            continue
        key = (fp.GetValue(), "%s:%s" % (fp.GetFPID().GetLibNickname(), fp.GetFPID().GetLibItemName()))
        if key not in by:
            raise SystemExit("fab.py: %s %s is not in parts.py" % (fp.GetReference(), key))
        groups.setdefault(key, []).append(fp.GetReference())
    rows = []
    for key, refs in groups.items():
        p = by[key]
        refs.sort(key=lambda r: _ref_key((r,)))
        rows.append((len(refs), " ".join(refs), p.value, p.footprint.split(":")[1], p.manufacturer, p.mpn,
                     p.distributor, str(p.price) if p.price else "",
                     "%s (%s)" % (p.price.source, p.price.date) if p.price else "none found (see cost.md)"))
    rows.sort(key=lambda r: _ref_key((r[1].split()[0],)))
    with open(out_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["Quantity", "References", "Value", "Footprint", "Manufacturer", "MPN", "Distributor PN",
                    "Unit price (estimate)", "Price source (date)"])
        w.writerows(rows)


def outputs(fab_dir=FAB_DIR, pictures=PICTURES, kicad_dir=KICAD_DIR):
    for name in sorted(layout.BOARDS):
        if not layout.BOARDS[name].get("routed", True):
            continue  # placed only: no fabrication files for a board that is not routed yet
        board = load(os.path.join(kicad_dir, name + ".kicad_pcb"))
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())
        out = os.path.join(fab_dir, name)
        gerbers(board, out)
        bom(board, os.path.join(out, "bom.csv"))
        positions(board, os.path.join(out, "positions.csv"))
        for side in ("top", "bottom"):
            svg(board, os.path.join(pictures, "%s-%s.svg" % (name, side)), side)
        print("%s: %s" % (name, out))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["drc"] and len(argv) == 2:
        v, u, text = drc(argv[1], argv[1] + ".drc.txt")
        errors = text.count("Severity: error")
        print("%s: %d DRC violations (%d errors, %d warnings), %d unconnected pads"
              % (argv[1], v, errors, text.count("Severity: warning"), u))
        for line in re.findall(r"^\[\w+\]: .*$", text, re.M):
            print("  " + line)
        return 0 if v == 0 and u == 0 else 1  # a warning fails too: the boards are made to have none
    if argv[:1] == ["outputs"]:
        outputs(*argv[1:3])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
