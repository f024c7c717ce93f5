"""Bots playing hands and games against each other, with a summary.

The same arguments always give the same hands, whatever the number of processes:
each deal comes from the seed and the deal's number only (:func:`hand_seed`), each
bot's choices from its own generator seeded the same way, and the results are put
back in deal order before anything is added up.

Bots are *entries*: ``bots[t]`` plays team t's seats. With ``duplicate`` every deal
is played once more for each other rotation of the entries over the teams (with two
teams: once with the seats swapped), so that the luck of the deal cancels out; the
results are then reported per entry, and a hand is won by the entry whose team
scored more (a tie, equal top scores, is won by nobody and counted apart).

The win rate is wins / hands played (ties included in the hands, so they lower every
entry's rate), with a 95% Wilson score interval (:func:`wilson`). With ``duplicate``
the two plays of a deal are not independent; the interval treats them as if they
were, which overstates the spread of a win rate (the luck of each deal cancels).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, cast

from mypy_extensions import i64, mypyc_attr

from handfoot.actions import Action, Discard, Draw, EndTurn, TakePile, TakeUpcard
from handfoot.bots import Bot, RandomBot, make_bot, reads_state
from handfoot.bots.heuristic import HeuristicBot, Obs
from handfoot.game import Game, HandResult
from handfoot.game.records import dumps, game_record
from handfoot.game.views import seat_view
from handfoot.rules import Rules

Z95 = 1.959963984540054  #: the 97.5% point of the standard normal distribution


def hand_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


#: how many moves :func:`play` keeps listed before it empties its list of them
_MOVES_KEPT: Final = 4096


def play(game: Game, bots: Sequence[Bot], hands: int | None = 1,
         on_action: Callable[[Game, int, Any], None] | None = None,
         max_actions: int = 1_000_000) -> Game:
    """Let ``bots`` (one per seat) play ``game`` until it is over or ``hands`` hands
    have been played (None: the whole game)."""
    done = 0 if hands is None else len(game.results) + hands
    count = 0
    # (fast paths of the arena's loop: docs/design.md#compiled-code)
    views = [bot.uses_view for bot in bots]
    states = [reads_state(bot) for bot in bots]
    # (the random player chooses from the engine's own list: Hand.moves_and_discards)
    randoms = [type(bot) is RandomBot for bot in bots]
    # (the heuristic decides in the game's own state, seeing what its seat may see)
    heuristics = [type(bot) is HeuristicBot for bot in bots]
    # (one reading, overwritten at each decision)
    reading = Obs()
    players = list(bots)  # (a list: a Sequence is indexed through Python's generic call)
    # (one list for many listings, emptied only once it is long)
    moves: list[Action] = []
    while not game.over and (hands is None or len(game.results) < done):
        seat = game.actor
        hand = game.hand
        # (not asked for the random player, whose listing is then the one move)
        forced = None if randoms[seat] else hand.only_move()
        if forced is not None:  # nothing to choose (drawing when the pile is out of reach)
            game.push(forced)
            if on_action is not None:
                on_action(game, seat, forced)
            count += 1
            continue
        bot = players[seat]
        if randoms[seat]:
            base: i64 = len(moves)
            if base > _MOVES_KEPT:
                moves.clear()
                base = 0
            discards, at = hand.moves_and_discards(moves)
            action = cast(RandomBot, bot).choose_split(
                moves, discards, at, hand.hand_number, hand.turn_number, hand.laying_out(),
                base)
            game.push(action)  # one of the moves listed, each legal (tested)
        elif heuristics[seat]:
            action = cast(HeuristicBot, bot).choose_in(hand, reading)
            game.push(action)  # accepted by the engine in this very state, or listed
        else:
            legal = game.legal_actions(states[seat])
            view = seat_view(game, seat) if views[seat] else None
            action = bot.choose(view, legal)
            if legal.confirms(action):
                game.push(action)  # the engine has just checked it, in this very state
            else:
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


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    >>> lo, hi = wilson(60, 100); round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


def hand_turns(result: HandResult) -> int:
    """Turns played in a hand: each begins with a draw (or the pile, or the upcard) and
    ends with a discard or an "end", or with going out (which, where play goes on until
    the stock is drawn, ends only the turn); a turn cut short by time is not counted."""
    # (by the actions' classes, not their kind's string: docs/design.md#compiled-code)
    turns = 0
    open_turn = False
    for _, a in result.actions:
        if isinstance(a, Draw) or isinstance(a, TakePile) or isinstance(a, TakeUpcard):  # noqa: SIM101
            turns += open_turn  # the turn before ended by going out, without a discard
            open_turn = True
        elif (isinstance(a, Discard) or isinstance(a, EndTurn)) and open_turn:  # noqa: SIM101
            turns += 1
            open_turn = False
    return turns + (open_turn and result.ended_by != "time")


# ------------------------------------------------------------------ one deal


@mypyc_attr(native_class=False)  # frozen: pickled and copied as a Python class
@dataclass(frozen=True, slots=True)
class SimSpec:
    """What to play; everything a worker process needs (it is pickled)."""

    rules: Rules
    seed: int
    bots: tuple[str, ...]  #: one entry per team
    games: bool = False  #: whole games instead of single hands
    duplicate: bool = False
    record_dir: str | None = None

    @property
    def copies(self) -> int:
        return len(self.bots) if self.duplicate else 1


@mypyc_attr(native_class=False)  # frozen: pickled and copied as a Python class
@dataclass(frozen=True, slots=True)
class Outcome:
    """One play of one deal (one hand, or one whole game), per entry."""

    index: int
    copy: int
    points: tuple[int, ...]  #: per entry
    winner: int | None  #: the winning entry, None for a tie
    turns: int
    hands: int  #: hands played (1 unless whole games)
    ended_by: tuple[str, ...]  #: how each hand ended


def team_entries(entries: int, copy: int) -> list[int]:
    """The entry playing each team in rotation ``copy`` (0: entry t plays team t)."""
    return [(t + copy) % entries for t in range(entries)]


def record_name(spec: SimSpec, index: int, copy: int) -> str:
    stem = f"{'game' if spec.games else 'hand'}-{index:05d}"
    if copy:
        stem += "-swapped" if len(spec.bots) == 2 else f"-rotation{copy}"
    return stem + ".json"


def play_deal(spec: SimSpec, index: int, copy: int = 0) -> Outcome:
    """Play deal ``index`` with the entries rotated ``copy`` places over the teams."""
    rules = spec.rules
    k = len(spec.bots)
    s = hand_seed(spec.seed, index)
    entry_of = team_entries(k, copy)
    game = Game(rules, s)
    bots = seat_bots(rules, [spec.bots[e] for e in entry_of], s)
    play(game, bots, hands=None if spec.games else 1)
    if spec.games:
        results = game.results
        totals = list(game.totals)
        winning_teams = list(game.winners)
    else:
        results = game.results[:1]
        totals = [sc.total for sc in results[0].scores]
        best = max(totals)
        winning_teams = [t for t, v in enumerate(totals) if v == best]
    points = [0] * k
    for t in range(k):
        points[entry_of[t]] = totals[t]
    winner = entry_of[winning_teams[0]] if len(winning_teams) == 1 else None
    if spec.record_dir is not None:
        names = [bots[seat].name for seat in range(rules.players.seats)]
        info: dict[str, Any] = {("game_index" if spec.games else "hand_index"): index,
                                "seed": spec.seed}
        if spec.duplicate:
            info["copy"] = copy
        record = game_record(game, names, info)
        (Path(spec.record_dir) / record_name(spec, index, copy)).write_text(dumps(record),
                                                                            "utf-8")
    return Outcome(index, copy, tuple(points), winner, sum(hand_turns(r) for r in results),
                   len(results), tuple(r.ended_by for r in results))


def play_chunk(spec: SimSpec, start: int, stop: int) -> list[Outcome]:
    """Deals ``start`` to ``stop - 1``, every copy of each (a worker process's job)."""
    return [play_deal(spec, i, c) for i in range(start, stop) for c in range(spec.copies)]


def chunks(n: int, jobs: int, most: int = 64) -> list[tuple[int, int]]:
    """Split deals 0..n-1 into runs of a few, several per process.

    >>> chunks(10, 1)
    [(0, 10)]
    >>> chunks(10, 2)
    [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)]
    """
    if jobs <= 1:
        return [(0, n)] if n else []
    size = max(1, min(most, math.ceil(n / (jobs * 4))))
    return [(i, min(i + size, n)) for i in range(0, n, size)]


# ------------------------------------------------------------------ summary


@mypyc_attr(native_class=False)  # a plain record, pickled and turned into JSON
@dataclass
class Summary:
    variant: str
    bots: list[str]  #: the entries: bots[t] plays team t (in every rotation, with duplicate)
    hands: int  #: hands played in all
    seed: int
    unit: str = "hands"  #: "hands" or "games": what the wins count
    deals: int = 0  #: deals played (each once, or once per rotation with duplicate)
    played: int = 0  #: hands (or games) played, counting every rotation
    duplicate: bool = False
    jobs: int = 1
    wins: list[int] = field(default_factory=list)  #: per entry
    ties: int = 0  #: hands (games) where the top score was shared: nobody's win
    win_rate: list[float] = field(default_factory=list)  #: wins / played
    win_ci95: list[list[float]] = field(default_factory=list)  #: Wilson interval
    mean_points: list[float] = field(default_factory=list)  #: per hand (game), per entry
    sd_points: list[float] = field(default_factory=list)
    mean_difference: float = 0.0  #: entry 1's points minus entry 2's, per hand (game)
    sd_difference: float = 0.0
    mean_turns: float = 0.0  #: per hand
    mean_hands: float = 1.0  #: hands per game
    ended_by: dict[str, int] = field(default_factory=dict)  #: hands by how they ended
    seconds: float = 0.0
    hands_per_second: float = 0.0
    differences: list[int] = field(default_factory=list, repr=False)  #: for the plot

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["differences"]
        return data


def _mean_sd(xs: Sequence[int]) -> tuple[float, float]:
    if not xs:
        return (0.0, 0.0)
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
    return (mean, math.sqrt(var))


def summarise(spec: SimSpec, outcomes: Sequence[Outcome], seconds: float,
              jobs: int = 1) -> Summary:
    """Add up outcomes (in deal order, whatever order they arrived in)."""
    rows = sorted(outcomes, key=lambda o: (o.index, o.copy))
    k = len(spec.bots)
    played = len(rows)
    hands = sum(o.hands for o in rows)
    s = Summary(spec.rules.name, list(spec.bots), hands, spec.seed,
                unit="games" if spec.games else "hands",
                deals=len({o.index for o in rows}), played=played,
                duplicate=spec.duplicate, jobs=jobs, wins=[0] * k)
    for o in rows:
        if o.winner is None:
            s.ties += 1
        else:
            s.wins[o.winner] = s.wins[o.winner] + 1
        for how in o.ended_by:
            s.ended_by[how] = s.ended_by.get(how, 0) + 1
    for e in range(k):
        s.win_rate.append(round(s.wins[e] / played, 4) if played else 0.0)
        lo, hi = wilson(s.wins[e], played)
        s.win_ci95.append([round(lo, 4), round(hi, 4)])
        mean, sd = _mean_sd([o.points[e] for o in rows])
        s.mean_points.append(round(mean, 1))
        s.sd_points.append(round(sd, 1))
    if k >= 2:
        s.differences = [o.points[0] - o.points[1] for o in rows]
        mean, sd = _mean_sd(s.differences)
        s.mean_difference, s.sd_difference = round(mean, 1), round(sd, 1)
    s.ended_by = dict(sorted(s.ended_by.items()))
    s.mean_turns = round(sum(o.turns for o in rows) / hands, 1) if hands else 0.0
    s.mean_hands = round(hands / played, 2) if played else 0.0
    s.seconds = round(seconds, 3)
    s.hands_per_second = round(hands / seconds, 1) if seconds > 0 else 0.0
    return s


def simulate(rules: Rules, hands: int, seed: int, bot_names: Sequence[str],
             record_dir: Path | None = None, *, games: bool = False,
             duplicate: bool = False, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> Summary:
    """Play ``hands`` deals: single hands (each the first hand of a fresh game) or, with
    ``games``, whole games. ``bot_names[t % len(bot_names)]`` plays team t. With
    ``jobs`` > 1 the deals are spread over that many processes; ``progress`` is called
    with the number of deals just finished."""
    k = rules.players.teams
    spec = SimSpec(rules, seed, tuple(bot_names[t % len(bot_names)] for t in range(k)),
                   games=games, duplicate=duplicate,
                   record_dir=None if record_dir is None else str(record_dir))
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    outcomes: list[Outcome] = []
    parts = chunks(hands, jobs)
    if jobs <= 1:
        for i in range(hands):
            outcomes.extend(play_chunk(spec, i, i + 1))
            if progress is not None:
                progress(1)
    else:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            futures = {pool.submit(play_chunk, spec, a, b): b - a for a, b in parts}
            for future in as_completed(futures):
                outcomes.extend(future.result())
                if progress is not None:
                    progress(futures[future])
    return summarise(spec, outcomes, time.perf_counter() - start, jobs)


# ------------------------------------------------------------------ output


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary_text(s: Summary) -> str:
    unit = s.unit
    one = unit[:-1]
    how = " (duplicate: every deal played with the bots in each team's seats)" \
        if s.duplicate else ""
    lines = [f"{s.played} {unit} of {s.variant}, seed {s.seed}, "
             f"bots {', '.join(s.bots)}{how}"]
    for e, w in enumerate(s.wins):
        who = f"bot {e + 1} ({s.bots[e]})" if s.duplicate else f"team {e + 1} ({s.bots[e]})"
        lo, hi = s.win_ci95[e]
        lines.append(f"  {who}: won {w} of {s.played} ({_pct(s.win_rate[e])}, 95% CI "
                     f"{_pct(lo)}–{_pct(hi)}); points per {one} {s.mean_points[e]:.1f} "
                     f"± {s.sd_points[e]:.1f}")
    lines.append(f"  tied: {s.ties} (the top score shared; counted as nobody's win)")
    if len(s.bots) >= 2:
        lines.append(f"  difference per {one} ({'bot' if s.duplicate else 'team'} 1 minus 2): "
                     f"{s.mean_difference:+.1f} ± {s.sd_difference:.1f}")
    if s.unit == "games":
        lines.append(f"  hands per game {s.mean_hands:.2f}")
    lines.append(f"  turns per hand {s.mean_turns:.1f}; hands ended by "
                 + ", ".join(f"{k} {v}" for k, v in sorted(s.ended_by.items())))
    lines.append(f"  {s.hands_per_second:.1f} hands per second ({s.seconds:.2f} s, "
                 f"{s.jobs} process{'es' if s.jobs != 1 else ''})")
    return "\n".join(lines)


def summary_json(s: Summary) -> str:
    return json.dumps(s.to_json(), indent=1)
