"""Every part of the board set, named once: its KiCad symbol, footprint, value, maker's part number,
distributor part number (where known) and its unit price with the price's source and date.

Pure Python (no skidl, no pcbnew): the schematic (circuit.py, project virtualenv), the board
generator (pcb.py, the system python3 that has KiCad's pcbnew) and the BOM writer all read it.

Prices are an ESTIMATE, and only where a published price was found: each is (amount, currency,
source, date), the date the source shows or, where it shows none, the day it was looked up
(``LOOKED_UP``). A part with no published price found in the sources searched that day has
``None``: no figure is made up for it, and hardware/cost.md says so on its line. Check every price
at the distributor (the distributor part numbers below) before ordering.
Distributor numbers: Mouser's, where the manufacturer's prefix is certain (TI parts are
"595-" + the TI part number); blank where not known.
"""

LOOKED_UP = "2026-11-26"  # the day the sources below were searched

# KiCad library folders (Debian's kicad-symbols and kicad-footprints install them here).
KICAD_SYMBOLS = "/usr/share/kicad/symbols"
KICAD_FOOTPRINTS = "/usr/share/kicad/footprints"

# A solder jumper is copper of the board itself: nothing to buy.
ON_THE_BOARD = (0.0, "USD", "copper pads of the board, nothing to buy", LOOKED_UP)

# key: (symbol library, symbol, footprint, value, manufacturer, MPN, distributor PN, price or None)
# A symbol library of None is a part defined in circuit.py (the Pico and its socket footprint).
_TABLE = {
    "hall": ("Sensor_Magnetic", "DRV5055A1xDBZxQ1", "Package_TO_SOT_SMD:SOT-23", "DRV5055A1QDBZR",
             "Texas Instruments", "DRV5055A1QDBZR", "Mouser 595-DRV5055A1QDBZR", None),
    "mux": ("74xx", "CD74HC4067M", "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm", "CD74HC4067M96",
            "Texas Instruments", "CD74HC4067M96", "Mouser 595-CD74HC4067M96", None),
    "decoder": ("74xx", "74LS138", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm", "SN74HC138DR",
                "Texas Instruments", "SN74HC138DR", "Mouser 595-SN74HC138DR", None),
    "buffer": ("74xx", "74LS125", "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm", "SN74AHCT125DR",
               "Texas Instruments", "SN74AHCT125DR", "Mouser 595-SN74AHCT125DR", None),
    "regulator": ("Regulator_Linear", "LM1085-3.3", "Package_TO_SOT_THT:TO-220-3_Vertical", "LM1085IT-3.3",
                  "Texas Instruments", "LM1085IT-3.3/NOPB", "Mouser 926-LM1085IT-3.3NOPB", None),
    "schottky": ("Diode", "1N5819", "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal", "1N5819",
                 "onsemi", "1N5819RLG", "", None),
    "led": ("LED", "WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "WS2812B",
            "Worldsemi", "WS2812B-B/W", "", None),
    "c100n": ("Device", "C", "Capacitor_SMD:C_0805_2012Metric", "100nF X7R 50V",
              "Samsung", "CL21B104KBCNNNC", "", None),
    "c10u": ("Device", "C", "Capacitor_SMD:C_1206_3216Metric", "10uF X7R 16V",
             "Samsung", "CL31B106KOHNNNE", "", None),
    "c10u_tant": ("Device", "C_Polarized", "Capacitor_Tantalum_SMD:CP_EIA-3528-21_Kemet-B", "10uF 16V tantalum",
                  "KEMET", "T491B106K016AT", "", None),
    "c1000u": ("Device", "C_Polarized", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm", "1000uF 10V",
               "Panasonic", "EEU-FR1A102", "", None),
    "r1k": ("Device", "R", "Resistor_SMD:R_0805_2012Metric", "1k", "Yageo", "RC0805FR-071KL", "", None),
    "r100k": ("Device", "R", "Resistor_SMD:R_0805_2012Metric", "100k", "Yageo", "RC0805FR-07100KL", "", None),
    "r10k": ("Device", "R", "Resistor_SMD:R_0805_2012Metric", "10k", "Yageo", "RC0805FR-0710KL", "", None),
    "r330": ("Device", "R", "Resistor_SMD:R_0805_2012Metric", "330", "Yageo", "RC0805FR-07330RL", "", None),
    "r100": ("Device", "R", "Resistor_SMD:R_0805_2012Metric", "100", "Yageo", "RC0805FR-07100RL", "", None),
    "jumper": ("Jumper", "SolderJumper_2_Open", "Jumper:SolderJumper-2_P1.3mm_Open_Pad1.0x1.5mm",
               "bridge on the tab in use", "", "", "", ON_THE_BOARD),
    "jack": ("Connector", "Barrel_Jack", "Connector_BarrelJack:BarrelJack_Horizontal", "5.5x2.1mm jack",
             "CUI Devices", "PJ-002A", "", None),
    "idc16": ("Connector_Generic", "Conn_02x08_Odd_Even", "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical",
              "2x8 box header", "Amphenol", "T821116A1S100CEU", "", None),
    "header4": ("Connector_Generic", "Conn_01x04", "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
                "1x4 header", "", "", "", None),
    "header5": ("Connector_Generic", "Conn_01x05", "Connector_PinHeader_2.54mm:PinHeader_1x05_P2.54mm_Vertical",
                "1x5 header", "", "", "", None),
    "header3": ("Connector_Generic", "Conn_01x03", "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
                "1x3 header", "", "", "", None),
    "header2": ("Connector_Generic", "Conn_01x02", "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
                "1x2 header", "", "", "", None),
    "pico": (None, "RaspberryPi_Pico", "bgcompanion:RaspberryPi_Pico_Socket", "Raspberry Pi Pico",
             "Raspberry Pi", "SC0915", "Mouser 358-SC0915",
             (4.00, "USD", "Raspberry Pi's price as reported by SlashGear, "
              "https://www.slashgear.com/1640425/best-raspberry-pi-pico-accessories/", "2024-08-14")),
    # Off-board parts (on the frame, wired to the main board's headers): in the system netlist only.
    "oled": ("Connector_Generic", "Conn_01x04", "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical", "SSD1306 0.96in I2C OLED module", "", "", "",
             (3.50, "USD", "AliExpress price \"about $3.50/pcs\" in EEReview's module review, "
              "http://eereview.com/article/cheap-i2c-128x64-oled-module-review (page undated)", LOOKED_UP)),
    "button": ("Switch", "SW_Push", "Button_Switch_THT:SW_PUSH-12mm", "12 mm push button", "Omron", "B3F-4055", "", None),
    "buzzer": ("Device", "Buzzer", "Buzzer_Beeper:Buzzer_Murata_PKMCS0909E", "passive piezo", "Murata", "PKM17EPP-4001-B0", "", None),
}

# Board-level things that are no schematic part but go into the cost estimate.
EXTRAS = [
    # (what, quantity for one board set, price or None as in _TABLE)
    ("1x20 2.54 mm socket strip for the Pico (which needs its pin headers)", 2, None),
    ("8 x 3 mm N42 disc magnet (30 checkers + spares)", 34, None),
    ("M3 x 5 mm spacer, screw and nut", 36, None),
    ("16-way ribbon cable with two IDC sockets, 40 cm", 4, None),
    ("5 V 3 A power adapter, 5.5x2.1 mm plug", 1, None),
    ("heatsink for TO-220 (about 20 K/W)", 1, None),
    ("sensor board PCB, 2 layers, 360 x 254 mm (fab house, sold in fives: ask its online quote with the Gerbers)", 4, None),
    ("main board PCB, 2 layers, 130 x 100 mm (fab house, sold in fives: ask its online quote with the Gerbers)", 1, None),
]


class UnknownPart(KeyError):
    """A part key that is not in the table (one line: names the key and the known ones)."""

    def __str__(self):
        return ("unknown part %r: add it to hardware/gen/parts.py (known parts: %s)"
                % (self.args[0], ", ".join(sorted(_TABLE))))


class Price:
    """A published unit price: amount, currency, where it was published, and its date."""
    __slots__ = ("amount", "currency", "source", "date")

    def __init__(self, row):
        self.amount, self.currency, self.source, self.date = row

    def __str__(self):
        return "%.2f %s" % (self.amount, self.currency)


def price(row):
    """The Price of a table row's price entry, or None where no published price was found."""
    return None if row is None else Price(row)


class Part:
    __slots__ = ("key", "lib", "symbol", "footprint", "value", "manufacturer", "mpn", "distributor", "price")

    def __init__(self, key, row):
        self.key = key
        (self.lib, self.symbol, self.footprint, self.value, self.manufacturer, self.mpn,
         self.distributor, price_row) = row
        self.price = price(price_row)


def part(key):
    try:
        return Part(key, _TABLE[key])
    except KeyError:
        raise UnknownPart(key) from None


def keys():
    return sorted(_TABLE)


def by_value_and_footprint():
    """(value, footprint) -> part, for the BOM writer: a netlist component names only these."""
    return {(row[3], row[2]): Part(k, row) for k, row in _TABLE.items()}
