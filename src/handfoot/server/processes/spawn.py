"""``handfoot serve --workers N``: N server processes on one address, sharing one
PostgreSQL database (see :mod:`handfoot.server.processes.sync` for how they stay one server).

Each process listens on the address itself with ``SO_REUSEPORT`` (Linux: the kernel
spreads new connections over the processes); where that is missing, this process opens
the socket and the processes share it. This process only watches: a process that stops
(even by ``kill -9``) is started again within a second, and meanwhile the others take
over its tables' computer players. Stopping this process (Ctrl+C, ``kill``) stops them
all; if it is killed outright, each process notices within a second and stops.

Each process has a Unix datagram socket of its own through which the others hand it the
sockets of the tables it keeps (:mod:`handfoot.server.processes.steering`); this process makes
them, and keeps them open, so that a process started again finds its own and any socket
sent to it meanwhile.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from typing import Any

NEEDS_POSTGRES = ("handfoot serve: several processes need a PostgreSQL database (SQLite is "
                  "kept by one process): give --db postgresql://USER:PASSWORD@HOST/DB, or "
                  "leave --workers at 1.")
RESTART_AFTER = 1.0  #: seconds before a process that stopped is started again
GIVE_UP = 5  #: processes that stop within seconds of starting, in a row, before giving up


def shares(db_url: str) -> bool:
    """Whether several processes can share this database."""
    return db_url.startswith(("postgresql:", "postgres:", "postgresql+"))


def _listening(host: str, port: int, reuse_port: bool) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _watch_parent(parent: int) -> None:
    """End this server process when the one that started it is gone."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)
    threading.Thread(target=watch, daemon=True, name="watch-supervisor").start()


def _serve_one(host: str, port: int, shared: socket.socket | None, options: dict[str, Any],
            parent: int, index: int, lines: tuple[socket.socket, list[socket.socket]] | None
            ) -> None:
    """Server process ``index``; ``lines``: its inlet and every process's outlet, when a table's
    sockets are handed to the process that keeps it."""
    import uvicorn

    from handfoot.server import collector
    from handfoot.server.app import create_app
    from handfoot.server.eventloop import uvicorn_options
    from handfoot.server.offloop.work import Work
    from handfoot.server.processes.steering import keeper_lookup, steered_server
    _watch_parent(parent)
    options = dict(options)
    work = Work(budget=options.pop("decision_budget"))
    ping = options.pop("ping")
    loop = options.pop("loop")
    app = create_app(options.pop("db_url"), work=work, process=index, **options)
    sock = shared if shared is not None else _listening(host, port, reuse_port=True)
    collector.configure()
    config = uvicorn.Config(app, **uvicorn_options(ping, loop))
    if lines is None:
        uvicorn.Server(config).run(sockets=[sock])
    else:
        inlet, outlets = lines
        steered_server(config, sock, index, outlets, inlet,
                       keeper_lookup(app.state)).run(sockets=[sock])


def _lines(processes: int) -> list[tuple[socket.socket, socket.socket]]:
    """Each process's (inlet, outlet): a datagram pair; the others send on the outlet."""
    pairs = []
    for _ in range(processes):
        inlet, outlet = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        inlet.set_inheritable(True)
        outlet.set_inheritable(True)
        pairs.append((inlet, outlet))
    return pairs


def run_processes(processes: int, host: str, port: int, options: dict[str, Any],
                steering: bool = True) -> int:
    """Start ``processes`` server processes and keep them running; the exit status.
    ``steering``: each table's sockets handed to the process that keeps it (with
    ``SO_REUSEPORT`` only: a shared socket's connections are taken by whichever process
    asks first)."""
    if not shares(options["db_url"]):
        print(NEEDS_POSTGRES, file=sys.stderr, flush=True)
        return 2
    reuse_port = hasattr(socket, "SO_REUSEPORT") and sys.platform.startswith("linux")
    shared = None if reuse_port else _listening(host, port, reuse_port=False)
    if reuse_port:  # refuse at once an address in use (not in every process, for ever)
        _listening(host, port, reuse_port=True).close()
    # the processes tell a load test on this machine whose CPU time to count
    os.environ["HANDFOOT_SUPERVISOR"] = str(os.getpid())
    context = multiprocessing.get_context("spawn")
    stopping = threading.Event()

    pairs = _lines(processes) if steering and reuse_port else None
    outlets = [outlet for _, outlet in pairs] if pairs is not None else []

    def start(i: int) -> Any:
        lines = (pairs[i][0], outlets) if pairs is not None else None
        p = context.Process(target=_serve_one, name=f"handfoot process {i + 1}",
                            args=(host, port, shared, options, os.getpid(), i, lines))
        p.start()
        return p

    def stop(signum: int, frame: Any) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    procs = [start(i) for i in range(processes)]
    started = [time.monotonic()] * processes
    quick_deaths = 0
    status = 0
    while not stopping.wait(0.2):
        for i, p in enumerate(procs):
            if p.is_alive():
                continue
            lived = time.monotonic() - started[i]
            quick_deaths = quick_deaths + 1 if lived < 10 else 0
            if quick_deaths >= GIVE_UP:
                print("handfoot serve: the processes keep stopping as they start; see the "
                      "messages above.", file=sys.stderr, flush=True)
                status = 1
                stopping.set()
                break
            print(f"handfoot serve: process {i + 1} stopped (exit status {p.exitcode}); "
                  "starting it again", file=sys.stderr, flush=True)
            if stopping.wait(RESTART_AFTER):
                break
            procs[i], started[i] = start(i), time.monotonic()
    for p in procs:
        if p.is_alive() and p.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + 15
    for p in procs:
        p.join(max(0.1, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join(5)
    return status
