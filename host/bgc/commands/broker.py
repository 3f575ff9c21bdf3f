"""bgc broker init: a club's Mosquitto set-up in a folder (docs/club.md): mosquitto.conf, a password
file with one user per board and one for the viewers, an ACL that lets a board write only under its
own topics and a viewer only read, and each user's password in passwords/USER for --password-file.

    bgc broker init DIR --boards table1,table2,... [--club CLUB] [--port 1883] [--match a-b ...]
                        [--tls CA CERT KEY]
    mosquitto -c DIR/mosquitto.conf
"""

from ..errors import UserError, shown


def register(subparsers):
    p = subparsers.add_parser("broker", help="set up an MQTT broker (Mosquitto) for a club's boards",
                              description="Write a Mosquitto set-up for a club's boards (docs/club.md).")
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    i = sub.add_parser("init", help="write mosquitto.conf, the password file and the ACL into a folder",
                       description="Write into DIR a Mosquitto config, a password file (one user per board, one "
                       "'viewer'; random passwords, each also in DIR/passwords/USER for --password-file) and an "
                       "ACL: a board writes only under bgc/CLUB/ITS-NAME/, reads the club's states and its match "
                       "opponent's moves; the viewer only reads. Start the broker with "
                       "`mosquitto -c DIR/mosquitto.conf`.")
    i.add_argument("dir", metavar="DIR", help="the folder to write (made if missing)")
    i.add_argument("--boards", required=True, metavar="NAMES", help="the boards' names, comma-separated")
    i.add_argument("--club", default="club", help="the club (the topics' second level; default club)")
    i.add_argument("--port", type=int, default=None, help="the port to listen on (default 1883, 8883 with --tls)")
    i.add_argument("--host", default="0.0.0.0", help="the address to listen on (default 0.0.0.0: every network)")
    i.add_argument("--match", action="append", default=[], metavar="A-B",
                   help="two boards that play each other (bgc remote): each may read the other's moves; repeatable")
    i.add_argument("--tls", nargs=3, metavar=("CA", "CERT", "KEY"),
                   help="listen with TLS: the CA certificate, the broker's certificate and its key (PEM)")
    p.set_defaults(func=run)


def run(args):
    import os

    from ..net.broker import init_folder

    if args.action != "init":
        raise UserError("bgc broker needs an action\nhint: bgc broker init DIR --boards table1,table2")
    boards = [b.strip() for b in args.boards.split(",") if b.strip()]
    if not boards:
        raise UserError("--boards names no board")
    matches = []
    for m in args.match:
        if m.count("-") != 1:
            raise UserError("--match %s is not two board names joined by '-'" % shown(m))
        matches.append(tuple(m.split("-")))
    if args.tls:
        for f in args.tls:
            if not os.path.isfile(f):
                raise UserError("--tls: no file %s" % shown(f))
    port = args.port if args.port is not None else (8883 if args.tls else 1883)
    if not 1 <= port <= 65535:
        raise UserError("--port must be 1..65535")
    users = init_folder(args.dir, args.club, boards, port=port, host=args.host, matches=matches, tls=args.tls)
    print("wrote %s: mosquitto.conf, passwd, acl; passwords in %s" % (
        args.dir, os.path.join(args.dir, "passwords", "USER")))
    print("users: %s" % ", ".join(users))
    print("start the broker: mosquitto -c %s" % os.path.join(os.path.abspath(args.dir), "mosquitto.conf"))
    return 0
