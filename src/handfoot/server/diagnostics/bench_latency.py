"""How long a person waits for the push after their action while other tables play.

``python -m handfoot.server.diagnostics.bench_latency`` starts ``handfoot serve`` on 127.0.0.1 with
a throwaway SQLite database (or uses one already running on 127.0.0.1 with
``--port``), starts ``--tables`` tables of four computer players at ``--level``, lets
them play (a table whose game is over is replaced), and meanwhile plays tables of four
people itself (drawing, then discarding), timing each action from sending it to
receiving the new state on that seat's socket. The measure is the discards: the push
after a draw also lists the drawer's legal moves, which for the long hands these people
end up holding is the engine's own cost (one meld at a time fixes it), not the load of
the other tables. It prints the median, 95th and 99th percentile and the worst, for the
discards and for every action, and exits within ``--seconds`` (plus start-up). Only
127.0.0.1 is ever contacted.

    python -m handfoot.server.diagnostics.bench_latency --tables 20 --level hard --actions 300
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
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
    seeds = iter(range(1000, 10**6))

    def computers() -> str:
        return str(server.post("/api/tables", {"rules": rules, "seed": next(seeds), "seats": [
            {"kind": "bot", "level": level}] * 4})["id"])

    playing = [computers() for _ in range(tables)]
    stop = threading.Event()

    def keep_playing() -> None:
        """A table of computers whose game is over is replaced by a new one."""
        while not stop.wait(2.0):
            for k, tid in enumerate(playing):
                if server.get(f"/api/tables/{tid}")["over"]:
                    playing[k] = computers()

    keeper = threading.Thread(target=keep_playing, daemon=True)
    keeper.start()
    took: list[float] = []  # the turns' last actions (discards)
    every: list[float] = []
    time.sleep(warmup)  # the computers get going
    deadline = time.monotonic() + seconds
    game = 0
    try:
        while len(every) < actions and time.monotonic() < deadline:
            game += 1  # a table of people, again when its game is over
            _people(server, rules, 6 + game, actions, deadline, took, every)
    finally:
        stop.set()
        keeper.join(30)
    return {"tables": tables, "level": level, "rules": rules,
            **_summary("", took), **_summary("all_", every)}


def _summary(prefix: str, seconds: list[float]) -> dict[str, Any]:
    ms = [t * 1000 for t in seconds]
    return {f"{prefix}actions": len(ms),
            f"{prefix}median_ms": round(statistics.median(ms), 1) if ms else None,
            f"{prefix}p95_ms": round(percentile(ms, 95), 1),
            f"{prefix}p99_ms": round(percentile(ms, 99), 1),
            f"{prefix}max_ms": round(max(ms), 1) if ms else None}


def _people(server: ServerProcess, rules: str, seed: int, actions: int, deadline: float,
            took: list[float], every: list[float]) -> None:
    """Play a table of four people until its game is over (or enough is measured)."""
    out = server.post("/api/tables", {"rules": rules, "seed": seed,
                                      "seats": [{"kind": "human"}] * 4})
    tid = out["id"]
    tokens = {i["seat"]: i["token"] for i in out["invites"]}
    clients = {s: Client(server, tid, t) for s, t in tokens.items()}
    try:
        st = clients[0].state()
        while len(every) < actions and time.monotonic() < deadline:
            actor = st["view"]["actor"]
            if st["view"]["game_over"]:
                break
            me = clients[actor]
            mine = me.state(st["seq"])
            if mine["waiting"]:  # between hands: the game goes on once each pressed Next hand
                st = me.resumed(mine["seq"], timeout=120)
                continue
            legal = mine["legal"]
            if not legal:
                raise RuntimeError(f"seat {actor} was sent no legal action at seq "
                                   f"{mine['seq']}")
            pick = next((a for a in legal if a["type"] in ("draw", "choose")),
                        next((a for a in legal if a["type"] == "discard"), legal[0]))
            start = time.monotonic()
            me.act(pick)
            st = me.state(st["seq"] + 1, timeout=120)
            every.append(time.monotonic() - start)
            if pick["type"] == "discard":
                took.append(every[-1])
    finally:
        for c in clients.values():
            c.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m handfoot.server.diagnostics.bench_latency",
                                description=__doc__.split("\n\n")[0] if __doc__ else "")
    p.add_argument("--tables", type=int, default=20, help="tables of computers (20)")
    p.add_argument("--level", default="hard", help="their level (hard)")
    p.add_argument("--rules", default="texas-good-sam", help="the rule set (texas-good-sam)")
    p.add_argument("--actions", type=int, default=600,
                   help="the people's actions, half of them discards (600)")
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
        print(f"while {result['tables']} tables of {result['level']} computers play "
              f"({result['rules']}), the push after a person's action:")
        for what, prefix in (("discards (the measure)", ""), ("every action", "all_")):
            print(f"  {what}: {result[prefix + 'actions']} actions, median "
                  f"{result[prefix + 'median_ms']} ms, p95 {result[prefix + 'p95_ms']} ms, "
                  f"p99 {result[prefix + 'p99_ms']} ms, worst {result[prefix + 'max_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
