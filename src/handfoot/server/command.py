"""``handfoot serve``: the options, and starting the server."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_serve(args: argparse.Namespace) -> int:
    from handfoot.server.app import serve
    from handfoot.server.store import default_url
    serve(args.host, args.port, args.db or default_url(), bot_delay=args.bot_delay,
          minute=args.minute_seconds)
    return 0


def add_serve_parser(sub: Any) -> None:
    p = sub.add_parser("serve", help="start the game server (play in the browser)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000)")
    p.add_argument("--db", default=None,
                   help="database URL: sqlite:///PATH or postgresql://USER:PW@HOST/DB "
                        "(default: SQLite in your data folder)")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a computer player waits before it acts (0.6)")
    # for tests of an event's clock: how long a minute of a round's time limit lasts
    p.add_argument("--minute-seconds", type=float, default=60.0, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_serve)
