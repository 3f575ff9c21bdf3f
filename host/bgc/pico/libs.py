"""Third-party MicroPython libraries the firmware installs on the Pico with mip, fetched for the
host (virtual board, tests) from their pinned PyPI release and cached inside the virtualenv.

They are never copied into the repository: the Pico gets them with
``mpremote mip install ssd1306``, the host gets the same file from the pinned sdist here.
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


class LibraryError(RuntimeError):
    """A library could not be fetched or did not match its pinned checksum."""


def cache_dir():
    return os.environ.get("BGC_LIB_DIR") or os.path.join(sys.prefix, "share", "bgc", "lib")


def ssd1306_path():
    """Path of the cached micropython-lib ssd1306.py, downloading the pinned sdist on first use."""
    dest_dir = cache_dir()
    dest = os.path.join(dest_dir, "ssd1306.py")
    if os.path.exists(dest):
        return dest
    try:
        with urllib.request.urlopen(SSD1306_URL, timeout=30) as resp:
            data = resp.read()
    except OSError as exc:
        raise LibraryError(
            "cannot download micropython-ssd1306 0.3 (%s). Offline? Fetch %s by hand, check its "
            "sha256 is %s, and put its ssd1306.py in %s" % (exc, SSD1306_URL, SSD1306_SHA256, dest_dir)
        ) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != SSD1306_SHA256:
        raise LibraryError("micropython-ssd1306 0.3 sdist has sha256 %s, expected %s" % (digest, SSD1306_SHA256))
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.extractfile(SSD1306_MEMBER)
        if member is None:
            raise LibraryError("%s not found in the micropython-ssd1306 sdist" % SSD1306_MEMBER)
        source = member.read()
    os.makedirs(dest_dir, exist_ok=True)
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
