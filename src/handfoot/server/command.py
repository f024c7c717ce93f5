"""``handfoot serve``: the options, and starting the server."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def cmd_serve(args: argparse.Namespace) -> int:
    from handfoot.server.app import serve
    from handfoot.server.eventloop import NoSuchLoop, event_loop
    from handfoot.server.guard import RateLimits
    from handfoot.server.store import default_url
    limits = RateLimits(tables=args.limit_tables, rule_sets=args.limit_rule_sets,
                        events=args.limit_events)
    if args.workers < 1:
        print("handfoot serve: --workers must be 1 or more.", file=sys.stderr)
        return 2
    try:
        event_loop(args.event_loop)
    except NoSuchLoop as e:
        print(f"handfoot serve: {e}", file=sys.stderr)
        return 2
    if not args.ping_seconds > 0:
        print("handfoot serve: --ping-seconds must be more than 0.", file=sys.stderr)
        return 2
    return serve(args.host, args.port, args.db or default_url(), bot_delay=args.bot_delay,
                 minute=args.minute_seconds, public_url=args.public_url, limits=limits,
                 address_header=args.address_header, decision_budget=args.decision_budget,
                 workers=args.workers, steering=not args.no_steering,
                 ping=args.ping_seconds, loop=args.event_loop)


def add_serve_parser(sub: Any) -> None:
    from handfoot.server.eventloop import EVENT_LOOPS
    p = sub.add_parser("serve", help="start the game server (play in the browser)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000)")
    p.add_argument("--db", default=None,
                   help="database URL: sqlite:///PATH or postgresql://USER:PW@HOST/DB "
                        "(default: SQLite in your data folder)")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a computer player waits before it acts (0.6)")
    p.add_argument("--public-url", default="",
                   help="the address people use (https://cards.example.org): invite links "
                        "use it, and the session cookie is Secure if it is https")
    p.add_argument("--address-header", default="", metavar="HEADER",
                   help="behind a proxy: the header holding the client's address "
                        "(X-Forwarded-For); the last address in it is used")
    p.add_argument("--limit-tables", type=int, default=60, metavar="N",
                   help="tables one address may start in an hour (60; 0: no limit)")
    p.add_argument("--limit-rule-sets", type=int, default=60, metavar="N",
                   help="rule sets one address may save in an hour (60; 0: no limit)")
    p.add_argument("--limit-events", type=int, default=10, metavar="N",
                   help="club events one address may create in an hour (10; 0: no limit)")
    p.add_argument("--decision-budget", type=float, default=10.0, metavar="SECONDS",
                   help="the longest a computer player may think about one move (10); "
                        "past it, it plays its first legal move")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes on this address (1); more than one needs a "
                        "PostgreSQL database (--db postgresql://...)")
    p.add_argument("--no-steering", action="store_true",
                   help="with several workers: leave each connection with the worker the "
                        "kernel gives it (by default a table's sockets are handed to the "
                        "worker that runs its computer players)")
    p.add_argument("--ping-seconds", type=float, default=20.0, metavar="SECONDS",
                   help="how often a connection that sends nothing is asked whether it is "
                        "still there; one that does not answer within as long again is "
                        "closed (20)")
    p.add_argument("--event-loop", choices=EVENT_LOOPS, default="auto",
                   help="the event loop: uvloop's where it is installed (auto), or "
                        "asyncio's own")
    # for tests of an event's clock: how long a minute of a round's time limit lasts
    p.add_argument("--minute-seconds", type=float, default=60.0, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_serve)
