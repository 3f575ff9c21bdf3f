"""Third-party MicroPython libraries the firmware installs on the Pico with mip, fetched for the
host (virtual board, tests) from their pinned PyPI release and cached inside the virtualenv.

They are never copied into the repository: the Pico gets them with
``mpremote mip install ssd1306`` (umqtt.simple: frozen into a Pico W image, or ``mip install
umqtt.simple``), the host gets the same file from the pinned sdist here.
"""
import hashlib
import io
import os
import sys
import tarfile
import urllib.request

SSD1306_URL = (
    "https://files.pythonhosted.org/packages/01/d0/0841d47772962c80af3ab178ef062ed2cd524cb99eb38463"
    "e669428402a8/micropython-ssd1306-0.3.tar.gz"
)
SSD1306_SHA256 = "d00cae1ff680e6ae504e258e700f002874b0d924b1a604253b6ea63144b58289"
SSD1306_MEMBER = "micropython-ssd1306-0.3/ssd1306.py"


# micropython-lib's MQTT client (MIT, Paul Sokolovsky), as published on PyPI: the firmware's
# drivers/mqtt_link.py publishes a Pico W's topics through it (docs/club.md). The tests run this file
# and the Pico W image freezes this same file (scripts/build/image_manifest_picow.py), not the later
# 1.7.0 of the micropython-lib commit MicroPython v1.27.0 pins, which PyPI does not have
UMQTT_URL = (
    "https://files.pythonhosted.org/packages/bd/cf/697e3418b2f44222b3e848078b1e33ee76aedca9b6c2430ca1b1aec1ce1d/"
    "micropython-umqtt.simple-1.3.4.tar.gz"
)
UMQTT_SHA256 = "b6a2520239e3992c63a7de9370ee9b3d9d27819a90359c521f1c0f7ccab8d12f"
UMQTT_MEMBER = "micropython-umqtt.simple-1.3.4/umqtt/simple.py"


class LibraryError(RuntimeError):
    """A library could not be fetched or did not match its pinned checksum."""


def cache_dir():
    return os.environ.get("BGC_LIB_DIR") or os.path.join(sys.prefix, "share", "bgc", "lib")


def ssd1306_path():
    """Path of the cached micropython-lib ssd1306.py, downloading the pinned sdist on first use."""
    return _fetch("micropython-ssd1306 0.3", SSD1306_URL, SSD1306_SHA256, SSD1306_MEMBER, "ssd1306.py")


def umqtt_dir():
    """The folder holding the cached ``umqtt/simple.py`` (put it on a MicroPython's path),
    downloading the pinned sdist on first use."""
    path = _fetch("micropython-umqtt.simple 1.3.4", UMQTT_URL, UMQTT_SHA256, UMQTT_MEMBER,
                  os.path.join("umqtt", "simple.py"))
    return os.path.dirname(os.path.dirname(path))


def _fetch(what, url, sha256, member_name, rel):
    dest_dir = cache_dir()
    dest = os.path.join(dest_dir, rel)
    if os.path.exists(dest):
        return dest
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            data = resp.read()
    except OSError as exc:
        raise LibraryError(
            "cannot download %s (%s). Offline? Fetch %s by hand, check its sha256 is %s, and put its %s in %s"
            % (what, exc, url, sha256, rel, dest_dir)
        ) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise LibraryError("%s sdist has sha256 %s, expected %s" % (what, digest, sha256))
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.extractfile(member_name)
        if member is None:
            raise LibraryError("%s not found in the %s sdist" % (member_name, what))
        source = member.read()
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    tmp = dest + ".tmp%d" % os.getpid()
    with open(tmp, "wb") as f:
        f.write(source)
    os.replace(tmp, dest)
    return dest


def add_ssd1306_to_path():
    d = os.path.dirname(ssd1306_path())
    if d not in sys.path:
        sys.path.append(d)
    return d
