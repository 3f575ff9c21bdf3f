"""Boards on an MQTT broker (docs/club.md): the broker's address as the commands take it, the
password (from a file or the environment, never the command line), the topics, a connected paho
client, and the Mosquitto set-up `bgc broker init` writes (config, password file, ACL).

Topics of a board NAME in club CLUB (docs/protocol.md, "Boards on an MQTT broker"):

    bgc/CLUB/NAME/state    retained: {"seq", "run", "state"}: the live page's whole state after event seq
    bgc/CLUB/NAME/events   QoS 1: {"seq", "run", "ev"}: every serial event, numbered from 1 in each run
    bgc/CLUB/NAME/online   retained "1"; the broker's last will "0"
    bgc/CLUB/NAME/moves    QoS 1: {"seq", "run", "ev"}: a board's own plays for its opponent (bgc remote)
"""

import base64
import hashlib
import os
import re
import secrets
import ssl
import urllib.parse

from ..errors import UserError, shown

PASSWORD_ENV = "BGC_MQTT_PASSWORD"
DEFAULT_CLUB = "club"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
PORTS = {"mqtt": 1883, "mqtts": 8883}
KINDS = ("state", "events", "online", "moves")


class Broker:
    """Where the broker is and who we are there: ``mqtt[s]://USER@HOST[:PORT]``."""

    def __init__(self, url, password=None, ca=None, cert=None, key=None):
        self.url = url
        try:
            parts = urllib.parse.urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise UserError("--broker %s is not a broker address: %s\nhint: mqtt://USER@HOST:1883 or "
                            "mqtts://USER@HOST:8883" % (shown(url), exc))
        if parts.scheme not in PORTS or not parts.hostname:
            raise UserError("--broker %s is not a broker address\nhint: mqtt://USER@HOST[:PORT], or mqtts:// "
                            "for TLS (docs/club.md)" % shown(url))
        if parts.password is not None:
            raise UserError("--broker holds a password: it would be seen by every user of this computer (ps) "
                            "and kept in the shell's history\nhint: put it in a file (--password-file) or in "
                            "the environment (%s), and give only mqtt://USER@HOST" % PASSWORD_ENV)
        self.tls = parts.scheme == "mqtts"
        self.host = parts.hostname
        self.port = port or PORTS[parts.scheme]
        self.user = urllib.parse.unquote(parts.username) if parts.username else None
        self.password = password
        self.ca, self.cert, self.key = ca, cert, key

    def client(self, client_id, will=None):
        """A paho client set up for this broker (not yet connected); ``will``: (topic, payload) the
        broker publishes, retained, when the client is gone without a word."""
        import paho.mqtt.client as mqtt

        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                        clean_session=False)
        if self.user:
            c.username_pw_set(self.user, self.password)
        if self.tls:
            try:
                c.tls_set(ca_certs=self.ca, certfile=self.cert, keyfile=self.key,
                          cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
            except (OSError, ssl.SSLError) as exc:
                raise UserError("cannot read the TLS files: %s\nhint: --ca names the CA certificate that signed "
                                "the broker's (PEM)" % exc)
        if will:
            c.will_set(will[0], will[1], qos=1, retain=True)
        c.reconnect_delay_set(min_delay=1, max_delay=8)
        return c

    def __str__(self):
        return "%s://%s%s:%d" % ("mqtts" if self.tls else "mqtt", self.user + "@" if self.user else "", self.host,
                                 self.port)


def add_broker_arguments(p):
    p.add_argument("--broker", required=True, metavar="URL",
                   help="the MQTT broker: mqtt://USER@HOST[:PORT] (mqtts:// for TLS); the password comes from "
                   "--password-file or the environment variable %s" % PASSWORD_ENV)
    p.add_argument("--password-file", metavar="FILE", help="a file holding the broker password (its first line)")
    p.add_argument("--ca", metavar="FILE", help="mqtts: the CA certificate (PEM) the broker's is signed by "
                   "(default: the system's)")
    p.add_argument("--club", default=DEFAULT_CLUB, help="the club (or tournament) the boards are in: the topics' "
                   "second level (default %s)" % DEFAULT_CLUB)


def broker_from_args(args):
    b = Broker(args.broker, ca=getattr(args, "ca", None))
    check_name(args.club, "--club")
    if b.user:
        b.password = read_password(getattr(args, "password_file", None))
    return b


def read_password(path):
    """The password from ``path`` (its first line) or the environment; None where neither has one."""
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                line = f.readline().rstrip("\r\n")
        except OSError as exc:
            raise UserError("cannot read the password file %s: %s\nhint: `bgc broker init` writes one per board "
                            "under its folder's passwords/" % (shown(path), exc.strerror or exc))
        except UnicodeDecodeError:
            raise UserError("the password file %s is not text" % shown(path))
        if not line:
            raise UserError("the password file %s is empty" % shown(path))
        return line
    return os.environ.get(PASSWORD_ENV) or None


def check_name(name, what):
    if not NAME_RE.match(name or ""):
        raise UserError("%s %s is not a name for the broker's topics\nhint: 1 to 32 letters, digits, '-', '_' "
                        "or '.', starting with a letter or digit" % (what, shown(name)))
    return name


def topic(club, board, kind):
    return "bgc/%s/%s/%s" % (club, board, kind)


def connect_error(rc):
    """Words for a CONNACK refusal (paho's reason code)."""
    text = str(rc)
    if "authori" in text.lower() or "password" in text.lower() or "identifier" in text.lower():
        return "the broker refused the user name or password (%s)\nhint: check --broker's USER and the " \
               "password file (docs/club.md)" % text
    return "the broker refused the connection: %s" % text


# --- the broker's set-up: bgc broker init ------------------------------------------------------------

def password_hash(password, salt=None, iterations=101):
    """A Mosquitto 2 password-file hash ($7$: PBKDF2-SHA512, as mosquitto_passwd writes it)."""
    salt = salt or secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations, 64)
    return "$7$%d$%s$%s" % (iterations, base64.b64encode(salt).decode(), base64.b64encode(digest).decode())


VIEWER = "viewer"


def acl_text(club, boards, matches=(), viewer=VIEWER):
    """The Mosquitto ACL: a board writes only under its own topics and reads the club (a page); in a
    match (a pair of boards) each reads its opponent's moves; the viewer only reads."""
    lines = ["# written by bgc broker init: a board writes only its own topics (docs/club.md)", ""]
    opponents = {}
    for a, b in matches:
        opponents.setdefault(a, []).append(b)
        opponents.setdefault(b, []).append(a)
    for name in boards:
        lines += ["user %s" % name, "topic readwrite bgc/%s/%s/#" % (club, name)]
        lines += ["topic read bgc/%s/+/state" % club, "topic read bgc/%s/+/online" % club]
        for other in opponents.get(name, []):
            lines.append("topic read bgc/%s/%s/moves" % (club, other))
        lines.append("")
    lines += ["user %s" % viewer, "topic read bgc/%s/#" % club, ""]
    return "\n".join(lines)


def config_text(folder, port, host="0.0.0.0", tls=None):
    """mosquitto.conf for a club: one listener, logins required, the ACL; ``tls``: (cafile,
    certfile, keyfile) of the broker's certificate. Mosquitto started by root drops to the user
    named here: the one who wrote the files (which only that user may read)."""
    import getpass

    folder = os.path.abspath(folder)
    lines = ["# written by bgc broker init (docs/club.md)",
             "user %s" % getpass.getuser(),
             "per_listener_settings false",
             "allow_anonymous false",
             "password_file %s" % os.path.join(folder, "passwd"),
             "acl_file %s" % os.path.join(folder, "acl"),
             "persistence true",
             "persistence_location %s/" % os.path.join(folder, "data"),
             "autosave_interval 5",
             "max_queued_messages 10000",
             "listener %d %s" % (port, host)]
    if tls:
        lines += ["cafile %s" % os.path.abspath(tls[0]), "certfile %s" % os.path.abspath(tls[1]),
                  "keyfile %s" % os.path.abspath(tls[2]), "tls_version tlsv1.2"]
    return "\n".join(lines) + "\n"


def init_folder(folder, club, boards, port=1883, host="0.0.0.0", matches=(), tls=None):
    """Write a broker's set-up into ``folder``: mosquitto.conf, passwd (one user per board and the
    viewer, random passwords), acl, and passwords/NAME (each user's password, mode 600, for
    --password-file). Returns {user: password}."""
    check_name(club, "--club")
    for name in boards:
        check_name(name, "board")
        if name == VIEWER:
            raise UserError("a board cannot be called %r: that is the viewers' login" % VIEWER)
    if len(set(boards)) != len(boards):
        raise UserError("a board is named twice: %s" % ", ".join(boards))
    for a, b in matches:
        if a not in boards or b not in boards or a == b:
            raise UserError("--match %s-%s names a board that is not in --boards (or the same twice)" % (a, b))
    os.makedirs(os.path.join(folder, "passwords"), exist_ok=True)
    os.makedirs(os.path.join(folder, "data"), exist_ok=True)
    secrets_by_user = {}
    entries = []
    for user in list(boards) + [VIEWER]:
        pw = secrets.token_urlsafe(18)
        secrets_by_user[user] = pw
        entries.append("%s:%s" % (user, password_hash(pw)))
        path = os.path.join(folder, "passwords", user)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(pw + "\n")
    _write(os.path.join(folder, "passwd"), "\n".join(entries) + "\n", 0o600)
    _write(os.path.join(folder, "acl"), acl_text(club, boards, matches), 0o644)
    _write(os.path.join(folder, "mosquitto.conf"), config_text(folder, port, host, tls), 0o644)
    return secrets_by_user


def _write(path, text, mode):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(text)
