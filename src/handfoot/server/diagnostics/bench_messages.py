"""What writing the state messages of one move costs, hand after hand.

After every move the server writes a state message for each seat with a socket at the
table and one for its spectators (:class:`handfoot.server.live.messages.Broadcast`). The
load test (``handfoot loadtest``) runs for minutes, while hands are still short; late
in a hand each message carries more: the melds on the table, the newest moves of the
log. This benchmark plays whole hands with medium computer players at
every seat and, after each move, writes the messages of a table whose four seats and
a spectator are all connected, as a broadcast does. It prints the CPU time of one
broadcast (median, 95th percentile, mean) and the size of the largest message.

    python -m handfoot.server.diagnostics.bench_messages --rules six-deck --hands 4
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import time
from collections.abc import Iterator, Sequence
from typing import Any

from handfoot.arena import hand_seed, seat_bots
from handfoot.bots import Bot
from handfoot.game.views import seat_view
from handfoot.rules import PRESET_NAMES, preset
from handfoot.server.live.messages import Broadcast
from handfoot.server.live.table import LiveTable
from handfoot.server.offloop.pool import ServedGame
from handfoot.server.storage.store import TableRow

_SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "medium"},
          {"kind": "human", "name": "Cy"}, {"kind": "bot", "level": "medium"}]


def each_move(table: LiveTable, bots: Sequence[Bot]) -> Iterator[None]:
    """Play the table's hand to its end, ``bots`` at every seat, each move applied and
    told in the move log as the server does; stops after each move."""
    game = table.game
    while not game.results:
        seat = game.actor
        action = bots[seat].choose(seat_view(game, seat), game.legal_actions())
        game.verify(action, seat)
        table.seq += 1
        table.moves.play(game, table.seq, action, wait_for_people=False)
        yield


def measure(rules_name: str, hands: int, seed: int = 0) -> dict[str, Any]:
    """Play ``hands`` first hands of fresh four-seat games and time every broadcast."""
    rules = preset(rules_name)
    if rules.players.seats != len(_SEATS):
        raise ValueError(f"{rules_name} is not played by four")
    times: list[float] = []
    largest = 0
    for i in range(hands):
        s = hand_seed(seed, i)
        row = TableRow(id=f"bench{i}", rules_name=rules_name, rules_toml="", seed=s,
                       seats=[dict(x) for x in _SEATS], created=dt.datetime.now(dt.UTC))
        game = ServedGame(rules, s)
        table = LiveTable(row=row, rules=rules, game=game)
        for _ in each_move(table, seat_bots(rules, ("heuristic",), s)):
            start = time.process_time()
            messages = Broadcast(table, None)
            texts = [messages.data(viewer) for viewer in (0, 1, 2, 3, None)]
            times.append(time.process_time() - start)
            largest = max(largest, *(len(t) for t in texts))
    ordered = sorted(times)
    return {
        "rules": rules_name, "hands": hands, "broadcasts": len(times),
        "messages_per_broadcast": 5,
        "us_per_broadcast_median": round(1e6 * statistics.median(ordered), 1),
        "us_per_broadcast_p95": round(1e6 * ordered[int(0.95 * (len(ordered) - 1))], 1),
        "us_per_broadcast_mean": round(1e6 * statistics.fmean(ordered), 1),
        "largest_message_bytes": largest,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m handfoot.server.diagnostics.bench_messages",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="six-deck",
                   choices=[n for n in PRESET_NAMES if preset(n).players.seats == 4])
    p.add_argument("--hands", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = measure(args.rules, max(1, args.hands), args.seed)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(f"{r['rules']}: {r['broadcasts']} broadcasts of 5 messages in {r['hands']} "
              f"hands: median {r['us_per_broadcast_median']} us, 95th percentile "
              f"{r['us_per_broadcast_p95']} us, mean {r['us_per_broadcast_mean']} us; "
              f"largest message {r['largest_message_bytes']:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
