"""How long a person waits for the push after their action while other tables play.

``python -m handfoot.server.bench_latency`` starts ``handfoot serve`` on 127.0.0.1 with
a throwaway SQLite database (or uses one already running on 127.0.0.1 with
``--port``), starts ``--tables`` tables of four computer players at ``--level``, lets
them play, and meanwhile plays a table of four people itself (drawing, then
discarding), timing each action from sending it to receiving the new state on that
seat's socket. It prints the median, 95th and 99th percentile and the worst, and exits
within ``--seconds`` (plus start-up). Only 127.0.0.1 is ever contacted.

    python -m handfoot.server.bench_latency --tables 20 --level hard --actions 300
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from typing import Any

from handfoot.server.testing import Client, ServerProcess


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


class Attached(ServerProcess):
    """A server already running on 127.0.0.1 (not started or stopped here)."""

    def start(self) -> ServerProcess:
        return self

    def stop(self) -> None:
        pass


def measure(server: ServerProcess, tables: int, level: str, rules: str, actions: int,
            seconds: float, warmup: float) -> dict[str, Any]:
    for i in range(tables):
        server.post("/api/tables", {"rules": rules, "seed": 1000 + i, "seats": [
            {"kind": "bot", "level": level}] * 4})
    out = server.post("/api/tables", {"rules": rules, "seed": 7,
                                      "seats": [{"kind": "human"}] * 4})
    tid = out["id"]
    tokens = {i["seat"]: i["token"] for i in out["invites"]}
    clients = {s: Client(server, tid, t) for s, t in tokens.items()}
    took: list[float] = []
    time.sleep(warmup)  # the computers get going
    deadline = time.monotonic() + seconds
    try:
        st = clients[0].state()
        while len(took) < actions and time.monotonic() < deadline:
            actor = st["view"]["actor"]
            if st["view"]["game_over"]:
                break
            me = clients[actor]
            mine = me.state(st["seq"])
            legal = mine["legal"]
            pick = next((a for a in legal if a["type"] in ("draw", "choose")),
                        next((a for a in legal if a["type"] == "discard"), legal[0]))
            start = time.monotonic()
            me.act(pick)
            st = me.state(st["seq"] + 1, timeout=120)
            took.append(time.monotonic() - start)
    finally:
        for c in clients.values():
            c.close()
    ms = [t * 1000 for t in took]
    return {"tables": tables, "level": level, "rules": rules, "actions": len(ms),
            "median_ms": round(statistics.median(ms), 1) if ms else None,
            "p95_ms": round(percentile(ms, 95), 1), "p99_ms": round(percentile(ms, 99), 1),
            "max_ms": round(max(ms), 1) if ms else None}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m handfoot.server.bench_latency",
                                description=__doc__.split("\n\n")[0] if __doc__ else "")
    p.add_argument("--tables", type=int, default=20, help="tables of computers (20)")
    p.add_argument("--level", default="hard", help="their level (hard)")
    p.add_argument("--rules", default="texas-good-sam", help="the rule set (texas-good-sam)")
    p.add_argument("--actions", type=int, default=300, help="the person's actions (300)")
    p.add_argument("--seconds", type=float, default=240, help="stop after this long (240)")
    p.add_argument("--warmup", type=float, default=5, help="seconds before measuring (5)")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="the computers' pause before each move (0.6, as served)")
    p.add_argument("--port", type=int, default=None,
                   help="measure a server already running on 127.0.0.1:PORT")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if args.port is not None:
            server: ServerProcess = Attached("", port=args.port)
        else:
            server = ServerProcess(f"sqlite:///{os.path.join(tmp, 'bench.db')}",
                                   bot_delay=args.bot_delay,
                                   args=("--limit-tables", "0")).start()
        try:
            result = measure(server, args.tables, args.level, args.rules, args.actions,
                             args.seconds, args.warmup)
        finally:
            server.stop()
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['actions']} actions of a person while {result['tables']} tables of "
              f"{result['level']} computers play ({result['rules']}): push after the action "
              f"median {result['median_ms']} ms, p95 {result['p95_ms']} ms, "
              f"p99 {result['p99_ms']} ms, worst {result['max_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
