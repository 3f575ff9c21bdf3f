"""MicroPython manifest of the bgcompanion firmware image (scripts/build/build_image.sh), RPI_PICO;
the Pico W's (RPI_PICO_W, image_manifest_picow.py) is this one plus the stock Pico W modules and umqtt.

Freezes the whole firmware/ tree as bytecode into the RPI_PICO interpreter, with micropython-lib's
ssd1306 display driver and everything the stock RPI_PICO firmware freezes (so the image is a standard
MicroPython plus the game). Frozen bytecode stays in flash: importing it costs only the objects it
creates, not the code. main.py is frozen too, so the board starts the companion on its own; a frozen
main.py runs even when the filesystem has one (pyexec runs frozen boot scripts first).

Every module is listed by name, so the image says exactly what is in it; tests/test_firmware_image.py
fails when a module of firmware/ is missing here (or listed but gone). opt=3 drops line-number tables,
as `bgc deploy` compiles with mpy-cross -O3.
"""
include("$(PORT_DIR)/boards/manifest.py")  # the stock RPI_PICO modules: _boot, rp2, asyncio, neopixel...
require("ssd1306")  # micropython-lib, at the commit the MicroPython tag pins
# (umqtt, the MQTT client of a Pico W's link to a club's broker, is frozen by the Pico W image's
# manifest, image_manifest_picow.py, which includes this one: a Pico without Wi-Fi cannot use it)

FIRMWARE_MODULES = (
    "main.py",
    "bringup.py",  # hardware/README.md: the bring-up check of one sensor board
    "drivers/__init__.py",
    "drivers/bringup.py",
    "drivers/buttons.py",
    "drivers/classify.py",
    "drivers/dice.py",
    "drivers/fastloops.py",
    "drivers/hall.py",
    "drivers/leds.py",
    "drivers/mqtt_link.py",
    "drivers/oled.py",
    "drivers/pinmap.py",
    "drivers/usb_serial.py",
    "companion/__init__.py",
    "companion/booting.py",
    "companion/chouette_session.py",
    "companion/codes.py",
    "companion/commands.py",
    "companion/computer_help.py",
    "companion/computer_turn.py",
    "companion/controller.py",
    "companion/dice_entry.py",
    "companion/flash_room.py",
    "companion/display.py",
    "companion/display_fast.py",
    "companion/games_in_turn.py",
    "companion/ids_fast.py",
    "companion/journal.py",
    "companion/moves.py",
    "companion/parts_board.py",
    "companion/phase_computer.py",
    "companion/phase_cube.py",
    "companion/phase_end.py",
    "companion/phase_moving.py",
    "companion/phase_roll.py",
    "companion/phase_setup.py",
    "companion/prepared.py",
    "companion/protocol.py",
    "companion/protocol_args.py",
    "companion/protocol_chouette.py",
    "companion/protocol_computer.py",
    "companion/recovery.py",
    "companion/search_fast.py",
    "companion/store.py",
    "companion/tail.py",
    "companion/tracker.py",
    "companion/tracker_fast.py",
    "companion/variant_dice.py",
    "companion/viper_source.py",
    "boardplayer/__init__.py",  # the board's own player (docs/board-player.md)
    "boardplayer/met.py",
    "boardplayer/net.py",
    "boardplayer/net_weights.py",  # its weights: one bytes literal, in flash when frozen
    "boardplayer/player.py",
    "bgrules/__init__.py",
    "bgrules/chouette.py",
    "bgrules/match.py",
    "bgrules/match_read.py",
    "bgrules/match_series.py",
    "bgrules/match_setup.py",
    "bgrules/matchid.py",
    "bgrules/matchid_read.py",
    "bgrules/notation.py",
    "bgrules/position.py",
    "bgrules/rules.py",
    "bgrules/rules_settings.py",
    "bgrules/turn.py",
    "bgrules/turn_codes.py",
    "bgrules/turn_parts.py",
    "bgrules/turn_plays.py",
    "bgrules/turn_why.py",
    "bgrules/variants/__init__.py",
    "bgrules/variants/aceydeucey.py",
    "bgrules/variants/backwards.py",
    "bgrules/variants/catchme.py",
    "bgrules/variants/doublets.py",
    "bgrules/variants/entering.py",
    "bgrules/variants/eureka.py",
    "bgrules/variants/fevga.py",
    "bgrules/variants/fixedroll.py",
    "bgrules/variants/freechoice.py",
    "bgrules/variants/french1.py",
    "bgrules/variants/french2.py",
    "bgrules/variants/gioul.py",
    "bgrules/variants/hypergammon.py",
    "bgrules/variants/listed.py",
    "bgrules/variants/longnardy.py",
    "bgrules/variants/longpuff.py",
    "bgrules/variants/longrussianpuff.py",
    "bgrules/variants/ludus.py",
    "bgrules/variants/mexican.py",
    "bgrules/variants/nohitting.py",
    "bgrules/variants/oldbritain.py",
    "bgrules/variants/openroll.py",
    "bgrules/variants/pin.py",
    "bgrules/variants/plakoto.py",
    "bgrules/variants/portes.py",
    "bgrules/variants/puff.py",
    "bgrules/variants/reverse.py",
    "bgrules/variants/running.py",
    "bgrules/variants/russian.py",
    "bgrules/variants/russianpuff.py",
    "bgrules/variants/snake.py",
    "bgrules/variants/straight.py",
    "bgrules/variants/tavli.py",
)

# Paths in a manifest are relative to its folder (scripts/); firmware/ is beside it.
freeze("../../firmware", FIRMWARE_MODULES, opt=3)
