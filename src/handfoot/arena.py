"""Bots playing hands and games against each other, with a summary.

The same arguments always give the same hands: each hand's deal comes from the
seed and the hand's number, and each bot's choices from its own seeded generator.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from handfoot.bots import Bot, make_bot
from handfoot.game import Game
from handfoot.records import dumps, game_record
from handfoot.rules import Rules
from handfoot.views import seat_view


def hand_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def play(game: Game, bots: Sequence[Bot], hands: int | None = 1,
         on_action: Callable[[Game, int, Any], None] | None = None,
         max_actions: int = 1_000_000) -> Game:
    """Let ``bots`` (one per seat) play ``game`` until it is over or ``hands`` hands
    have been played (None: the whole game)."""
    done = 0 if hands is None else len(game.results) + hands
    count = 0
    while not game.over and (hands is None or len(game.results) < done):
        seat = game.actor
        bot = bots[seat]
        legal = game.legal_actions()
        view = seat_view(game, seat) if bot.uses_view else None
        action = bot.choose(view, legal)
        game.apply(action, seat)
        if on_action is not None:
            on_action(game, seat, action)
        count += 1
        if count > max_actions:  # pragma: no cover - a guard; play always ends
            raise RuntimeError("the game did not end")
    return game


def seat_bots(rules: Rules, names: Sequence[str], seed: int) -> list[Bot]:
    """Team t's seats are played by bot ``names[t % len(names)]``."""
    return [make_bot(names[rules.team_of[s] % len(names)], seed * 31 + s)
            for s in range(rules.players.seats)]


@dataclass
class Summary:
    variant: str
    bots: list[str]
    hands: int
    seed: int
    wins: list[int] = field(default_factory=list)
    ties: int = 0
    mean_points: list[float] = field(default_factory=list)
    sd_points: list[float] = field(default_factory=list)
    mean_turns: float = 0.0
    ended_by: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    hands_per_second: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def simulate(rules: Rules, hands: int, seed: int, bot_names: Sequence[str],
             record_dir: Path | None = None) -> Summary:
    """Play ``hands`` single hands (each the first hand of a fresh game)."""
    teams = rules.players.teams
    points: list[list[int]] = [[] for _ in range(teams)]
    summary = Summary(rules.name, list(bot_names), hands, seed, wins=[0] * teams)
    turns = 0
    start = time.perf_counter()
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    for i in range(hands):
        s = hand_seed(seed, i)
        game = Game(rules, s)
        bots = seat_bots(rules, bot_names, s)
        play(game, bots, hands=1)
        result = game.results[0]
        totals = [sc.total for sc in result.scores]
        best = max(totals)
        leaders = [t for t, v in enumerate(totals) if v == best]
        if len(leaders) == 1:
            summary.wins[leaders[0]] += 1
        else:
            summary.ties += 1
        for t in range(teams):
            points[t].append(totals[t])
        turns += sum(1 for _, a in result.actions if a.kind in ("discard", "end-turn")) + (
            1 if result.ended_by == "out" else 0)
        summary.ended_by[result.ended_by] = summary.ended_by.get(result.ended_by, 0) + 1
        if record_dir is not None:
            names = [bots[seat].name for seat in range(rules.players.seats)]
            record = game_record(game, names, {"hand_index": i, "seed": seed})
            (record_dir / f"hand-{i:05d}.json").write_text(dumps(record), "utf-8")
    summary.seconds = time.perf_counter() - start
    summary.hands_per_second = hands / summary.seconds if summary.seconds else 0.0
    summary.mean_turns = turns / hands if hands else 0.0
    for t in range(teams):
        xs = points[t]
        mean = sum(xs) / len(xs) if xs else 0.0
        summary.mean_points.append(round(mean, 1))
        var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
        summary.sd_points.append(round(math.sqrt(var), 1))
    return summary


def summary_text(s: Summary) -> str:
    lines = [f"{s.hands} hands of {s.variant}, seed {s.seed}, bots {', '.join(s.bots)}"]
    for t, w in enumerate(s.wins):
        lines.append(f"  team {t + 1} ({s.bots[t % len(s.bots)]}): won {w} "
                     f"({100 * w / max(s.hands, 1):.1f}%), points per hand "
                     f"{s.mean_points[t]:.1f} ± {s.sd_points[t]:.1f}")
    if s.ties:
        lines.append(f"  tied: {s.ties}")
    lines.append(f"  turns per hand {s.mean_turns:.1f}; hands ended by "
                 + ", ".join(f"{k} {v}" for k, v in sorted(s.ended_by.items())))
    lines.append(f"  {s.hands_per_second:.1f} hands per second")
    return "\n".join(lines)


def summary_json(s: Summary) -> str:
    return json.dumps(s.to_json(), indent=1)
