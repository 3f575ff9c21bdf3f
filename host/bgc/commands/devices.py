"""bgc devices: the Picos running MicroPython that are plugged in."""

import errno
import os

from ..errors import UserError


def register(subparsers):
    p = subparsers.add_parser(
        "devices",
        help="list the Picos running MicroPython that are plugged in",
        description="List the Raspberry Pi Picos running MicroPython that are plugged in (USB "
        "2E8A:0005): port, serial number and the firmware version each one reports. Asking stops "
        "the program the Pico runs; it is restarted (a soft reset runs main.py again).",
    )
    p.add_argument("--port", action="append", metavar="PORT",
                   help="also query this port (e.g. a virtual Pico from `bgc vpico`); repeatable")
    p.add_argument("--no-query", action="store_true",
                   help="do not open the ports to ask for the firmware version")
    p.set_defaults(func=run)


def _version_of(port, named=False):
    """(firmware text, info); a port the user named that fails raises its UserError."""
    from ..pico import device

    try:
        with device.connect(port, timeout=3.0) as transport:
            info = device.device_info(transport)
            device.restart_firmware(transport)  # the query stopped main.py: the board plays on
    except UserError as exc:
        if named:
            raise
        first = str(exc).split("\n", 1)[0]
        if "busy" in first:
            return "(busy: another program has the port open)", None
        if "permission denied" in first:
            return "(permission denied: join the '%s' group)" % device._group_of(port), None
        if "does not answer" in first:
            return "(not answering as MicroPython)", None
        return "(%s)" % first, None
    return "MicroPython %s, %s" % (info["version_str"], info["machine"]), info


def run(args):
    from ..pico import device

    named = args.port or []
    for extra in named:
        if not os.path.exists(extra):
            raise device.explain_open_error(extra, OSError(errno.ENOENT, "No such file or directory"))
    ports = [(p.device, p.serial_number) for p in device.find_picos()]
    for extra in named:
        if extra not in [p for p, _ in ports]:
            ports.append((extra, None))
    if not ports:
        raise UserError("no Raspberry Pi Pico running MicroPython is plugged in (looked for USB "
                        "2E8A:0005)\n" + device.NO_BOARD_HINT)
    rows = []
    for port, serial_number in ports:
        version, info = ("-", None) if args.no_query else _version_of(port, named=port in named)
        if not serial_number and info and info.get("unique_id"):
            serial_number = info["unique_id"].upper()
        rows.append((port, serial_number or "-", version))
    widths = [max(len(r[i]) for r in rows + [("PORT", "SERIAL", "FIRMWARE")]) for i in range(2)]
    print("%-*s  %-*s  %s" % (widths[0], "PORT", widths[1], "SERIAL", "FIRMWARE"))
    for port, serial_number, version in rows:
        print("%-*s  %-*s  %s" % (widths[0], port, widths[1], serial_number, version))
    return 0
