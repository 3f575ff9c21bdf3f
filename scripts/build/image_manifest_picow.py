"""MicroPython manifest of the bgcompanion Pico W image (``sh scripts/build/build_image.sh --board
RPI_PICO_W``): the Pico image's manifest (image_manifest.py: the whole firmware/ tree, ssd1306, the
stock RPI_PICO modules), everything the stock RPI_PICO_W firmware freezes (its networking bundle and
aioble), and the MQTT client of the board's link to a club's broker (drivers/mqtt_link.py, started by
main.py when /mqtt.json is on the flash: docs/club.md).

The MQTT client is micropython-lib's umqtt.simple as published on PyPI, micropython-umqtt.simple
1.3.4, pinned by its sha256 in host/bgc/pico/libs.py: the very file tests/test_mqtt_link_micropython.py
runs against a real Mosquitto under the UNIX MicroPython. micropython-lib at the commit v1.27.0 pins
has a later umqtt.simple (1.7.0, not on PyPI, so not what the tests can fetch); the image freezes the
tested one. build_image.sh fetches it (checksum checked) and names its folder in BGC_UMQTT_DIR.
"""
import os

include("$(BOARD_DIR)/manifest.py")  # the stock RPI_PICO_W modules (it includes the port's, as ours does)
include("image_manifest.py")  # the firmware; an include already made (the port's manifest) is skipped

UMQTT_DIR = os.environ.get("BGC_UMQTT_DIR")
if not UMQTT_DIR or not os.path.isfile(os.path.join(UMQTT_DIR, "umqtt", "simple.py")):
    raise Exception("BGC_UMQTT_DIR=%r holds no umqtt/simple.py: build with scripts/build/build_image.sh "
                    "--board RPI_PICO_W, which fetches PyPI's micropython-umqtt.simple 1.3.4 (host/bgc/pico/libs.py)"
                    % UMQTT_DIR)
package("umqtt", base_path=UMQTT_DIR, opt=3)
