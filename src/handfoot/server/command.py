"""``handfoot serve``: the options, and starting the server."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from handfoot.server.eventloop import EVENT_LOOPS, PING_SECONDS, NoSuchLoop, event_loop
from handfoot.server.guard import LOOPBACK, RateLimits, networks


def cmd_serve(args: argparse.Namespace) -> int:
    from handfoot.server.storage.database import default_url
    limits = RateLimits(tables=args.limit_tables, rule_sets=args.limit_rule_sets,
                        events=args.limit_events, spectators=args.limit_spectators,
                        spectators_per_address=args.limit_spectators_per_address)
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
    try:
        networks(args.trusted_proxy.split(","))
    except ValueError as e:
        print(f"handfoot serve: --trusted-proxy: {e}.", file=sys.stderr)
        return 2
    proxies = tuple(a.strip() for a in args.trusted_proxy.split(",") if a.strip())
    if proxies and not args.address_header:
        print("handfoot serve: --trusted-proxy needs --address-header (the header in "
              "which those proxies give the client's address).", file=sys.stderr)
        return 2
    why = public_url_problem(args.public_url)
    if why:
        print(f"handfoot serve: --public-url {args.public_url!r}: {why}", file=sys.stderr)
        return 2
    from handfoot.server.storage.command import prepare
    db_url = args.db or default_url()
    code = prepare("serve", db_url)  # reached, and its schema up to date, or why not
    if code:
        return code
    return serve(args.host, args.port, db_url, bot_delay=args.bot_delay,
                 minute=args.minute_seconds, limits=limits,
                 public_url=args.public_url.rstrip("/"),
                 address_header=args.address_header, trusted_proxies=proxies,
                 decision_budget=args.decision_budget,
                 processes=args.workers, steering=not args.no_steering,
                 ping=args.ping_seconds, loop=args.event_loop)


def public_url_problem(url: str) -> str:
    """What is wrong with a ``--public-url`` ("" if nothing): it must be the address
    people open, ``http(s)://NAME[:PORT]``, with no path, query or fragment.

    >>> public_url_problem("https://cards.example.org"), public_url_problem("")
    ('', '')
    >>> public_url_problem("cards.example.org")
    'it must start with https:// (or http://), as in https://cards.example.org'
    >>> public_url_problem("https://cards.example.org/play")
    'it must be the address only (https://NAME or https://NAME:PORT), without /play'
    """
    if not url:
        return ""
    from urllib.parse import urlsplit
    example = "as in https://cards.example.org"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        return f"it is not an address ({e}); {example}"
    if parts.scheme not in ("http", "https"):
        return f"it must start with https:// (or http://), {example}"
    if not parts.hostname or any(c.isspace() for c in url):
        return f"it names no machine; {example}"
    if parts.username is not None or parts.password is not None:
        return "it may not hold a user name or password"
    rest = parts.path.rstrip("/") + (f"?{parts.query}" if parts.query else "") + (
        f"#{parts.fragment}" if parts.fragment else "")
    if rest:
        return (f"it must be the address only ({parts.scheme}://NAME or "
                f"{parts.scheme}://NAME:PORT), without {rest}")
    del port
    return ""


def add_serve_parser(sub: Any) -> None:
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
                        "(X-Forwarded-For); the last address in it is used, and only "
                        "when the request comes from a --trusted-proxy")
    p.add_argument("--trusted-proxy", default="", metavar="ADDR[,ADDR...]",
                   help="with --address-header: the proxies (addresses or networks) "
                        f"whose header is believed ({', '.join(LOOPBACK)})")
    p.add_argument("--limit-tables", type=int, default=60, metavar="N",
                   help="tables one address may start in an hour (60; 0: no limit)")
    p.add_argument("--limit-rule-sets", type=int, default=60, metavar="N",
                   help="rule sets one address may save in an hour (60; 0: no limit)")
    p.add_argument("--limit-events", type=int, default=10, metavar="N",
                   help="club events one address may create in an hour (10; 0: no limit)")
    p.add_argument("--limit-spectators", type=int, default=100, metavar="N",
                   help="spectators' sockets open at once at one table (100; 0: no limit)")
    p.add_argument("--limit-spectators-per-address", type=int, default=20, metavar="N",
                   help="spectators' sockets open at once from one address (20; 0: no "
                        "limit)")
    p.add_argument("--decision-budget", type=float, default=10.0, metavar="SECONDS",
                   help="the longest a computer player may think about one move (10); "
                        "past it, it plays its first legal move")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes on this address (1); more than one needs a "
                        "PostgreSQL database (--db postgresql://...)")
    p.add_argument("--no-steering", action="store_true",
                   help="with several processes: leave each connection with the process the "
                        "kernel gives it (by default a table's sockets are handed to the "
                        "process that runs its computer players)")
    p.add_argument("--ping-seconds", type=float, default=PING_SECONDS, metavar="SECONDS",
                   help="how often a connection that sends nothing is asked whether it is "
                        "still there; one that does not answer within as long again is "
                        "closed (20)")
    p.add_argument("--event-loop", choices=EVENT_LOOPS, default="auto",
                   help="the event loop: uvloop's where it is installed (auto), or "
                        "asyncio's own")
    # for tests of an event's clock: how long a minute of a round's time limit lasts
    p.add_argument("--minute-seconds", type=float, default=60.0, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_serve)


def cannot_write(db_url: str) -> str:
    """Why the server could not save moves in its database ("" if it can): checked
    once at start, so that a read-only database is named at once rather than at the
    first move."""
    from handfoot.server.storage.store import Store
    try:
        store = Store(db_url)
        try:
            store.check_writable()
        finally:
            store.close()
    except Exception as e:
        reason = str(getattr(e, "orig", None) or e).splitlines()[0][:300]
        return (f"handfoot serve: cannot write to the database {db_url} ({reason}). "
                "The server would not be able to save any move: check that the file, "
                "its folder and the filesystem are writable (or the database user may "
                "write), then start it again.")
    return ""


def serve(host: str, port: int, db_url: str, bot_delay: float = 0.6,
          minute: float = 60.0, public_url: str = "", limits: RateLimits | None = None,
          address_header: str = "", trusted_proxies: tuple[str, ...] = (),
          decision_budget: float = 10.0, processes: int = 1,
          steering: bool = True, ping: float = PING_SECONDS, loop: str = "auto") -> int:
    """Serve until stopped; the exit status. ``processes`` > 1: that many processes on one
    address (PostgreSQL only: :mod:`handfoot.server.processes.spawn`), each table's sockets handed
    to the one that keeps it unless ``steering`` is False (:mod:`.steering`)."""
    import uvicorn  # (imported once the server starts: `handfoot --help` stays quick)

    from handfoot.server import collector
    from handfoot.server.app import create_app
    from handfoot.server.eventloop import uvicorn_options
    from handfoot.server.offloop.work import Work
    from handfoot.server.processes.spawn import NEEDS_POSTGRES, run_processes, shares
    from handfoot.server.storage.command import shown_url

    if processes > 1 and not shares(db_url):
        print(NEEDS_POSTGRES, file=sys.stderr, flush=True)
        return 2
    problem = cannot_write(db_url)
    if problem:
        print(problem, file=sys.stderr, flush=True)
        return 2
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    address = public_url or f"http://{shown}:{port}"
    print(f"handfoot: open {address}/ in your browser "
          f"(database: {shown_url(db_url)}; stop with Ctrl+C); club events at "
          f"{address}/events"
          + (f"; {processes} server processes" if processes > 1 else ""), flush=True)
    options: dict[str, Any] = {"db_url": db_url, "bot_delay": bot_delay, "minute": minute,
                               "public_url": public_url, "limits": limits,
                               "address_header": address_header,
                               "trusted_proxies": trusted_proxies,
                               "decision_budget": decision_budget, "ping": ping,
                               "loop": loop}
    if processes > 1:
        return run_processes(processes, host, port, options, steering=steering)
    app = create_app(db_url, bot_delay=bot_delay, minute=minute, public_url=public_url,
                     limits=limits, address_header=address_header,
                     trusted_proxies=trusted_proxies,
                     work=Work(budget=decision_budget))
    collector.configure()
    uvicorn.run(app, host=host, port=port, **uvicorn_options(ping, loop))
    return 0
