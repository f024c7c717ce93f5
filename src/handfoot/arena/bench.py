"""``handfoot bench``: how fast the engine and the bots are, on one core.

For each preset: hands per second with random v random and with heuristic v heuristic
(every action checked by the engine, as in ``handfoot sim``), and the expert's median
and 95th-percentile time per decision (every decision it makes, playing with an expert
partner against two heuristic players). Beside them, a floor: the same decks dealt and
only the bookkeeping of drawing and discarding done (no rules, no choices), as hands per
second, and each figure's ratio to it, so a reader sees how close the engine comes to
the cost of moving cards. Two more figures split random play's time: the same hands'
moves only carried out (each hand dealt again and its moves pushed, with no listing and
no choosing), and carried out with the legal moves listed before each move that had a
choice, as the random player is given them (without a seat copy); what is left of a
hand's time is the choosing and the game loop around it. One process, one core; times
are the CPU time of the thread that plays (:func:`cpu`), so that other work on the
machine does not count against it, and each is the fastest of several passes over the
same hands (:data:`ROUNDS` of the hands played, the passes of every measure and every
preset taking turns: :func:`run_rules`; :data:`PASSES` of each replay).
The default sizes (100 hands of each) finish in a minute or two for the five presets;
``--hands`` and ``--decisions`` make it longer. ``--legal`` times every legal-move question by hand
size instead (:mod:`handfoot.arena.bench_legal`). With the research extra installed, the steps
per second of a random rollout through the engine, the PettingZoo environment and the
OpenSpiel game are reported too (:mod:`handfoot.research.speed`; None without it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from handfoot import compiled
from handfoot.arena import bench_legal, fingerprint, hand_seed, play, seat_bots
from handfoot.bots import Bot
from handfoot.bots.expert import ExpertBot
from handfoot.bots.heuristic import HeuristicBot
from handfoot.cards import NUM_CARDS
from handfoot.engine import Deal, Hand
from handfoot.game import Game, HandResult
from handfoot.game.views import seat_view
from handfoot.rules import PRESET_NAMES, Rules, preset

#: The clock of every figure: the playing thread's CPU time (the process's would count
#: OpenBLAS's threads spinning on the other core after numpy is imported)
cpu = time.thread_time

#: Hands per measure: a simulation plays thousands in one process, with the rule set's
#: memo of smallest melds warm; the fastest pass (below) runs with it filled
DEFAULT_RANDOM_HANDS = 100
DEFAULT_HEURISTIC_HANDS = 100
DEFAULT_DECISIONS = 60
#: Passes of each replay's measure, the fastest reported (as ``timeit`` advises: other
#: work on a shared machine slows a pass, never speeds it up)
PASSES = 5
#: Rounds of :func:`run_rules`, every measure of every preset taking turns, so that
#: each figure is the fastest of passes spread over a minute or two: this machine runs
#: at its full speed or about half of it, switching every few seconds
#: (docs/bots.md, "Measuring")
ROUNDS = 9


def hands_per_second(rules: Rules, bots: Sequence[str], hands: int, seed: int = 0,
                     played: list[HandResult] | None = None, passes: int = 1) -> float:
    """Single hands (each the first of a fresh game) played one after another, in the
    fastest of ``passes`` passes over the same hands; each hand's result is added to
    ``played`` when given (once: every pass plays the same games)."""
    best = float("inf")
    for n in range(passes):
        best = min(best, _pass_seconds(rules, bots, hands, seed, played if n == 0 else None))
    return hands / best


def _pass_seconds(rules: Rules, bots: Sequence[str], hands: int, seed: int,
                  played: list[HandResult] | None) -> float:
    """One pass of :func:`hands_per_second`: its CPU seconds; each hand's result added
    to ``played`` when given."""
    start = cpu()
    for i in range(hands):
        s = hand_seed(seed, i)
        game = play(Game(rules, s), seat_bots(rules, bots, s), hands=1)
        if played is not None:
            played.append(game.results[0])
    return cpu() - start


def replayed_hands_per_second(rules: Rules, played: Sequence[HandResult],
                              listing: bool = False) -> float:
    """The hands ``played`` dealt again and their moves carried out, unchecked (the
    engine's :meth:`Hand.push`); with ``listing``, the legal moves are listed too before
    each move that had a choice, as the random player is given them
    (:meth:`Hand.actor_legal` without a seat copy).
    The fastest of :data:`PASSES` passes."""
    best = float("inf")
    for _ in range(PASSES):
        start = cpu()
        for result in played:
            hand = Hand(rules, result.deal)
            for _, action in result.actions:
                if listing and hand.only_move() is None:
                    len(hand.actor_legal(copy=False))
                hand.push(action)
            if hand.ended_by != result.ended_by:  # pragma: no cover - a guard
                raise RuntimeError("a replayed hand ended otherwise than it was played")
        best = min(best, cpu() - start)
    return len(played) / best


def floor_hands_per_second(rules: Rules, hands: int, seed: int = 0, passes: int = 1) -> float:
    """The floor: each hand's decks dealt as the engine deals them, then turn after turn
    the draw put into the hand's counts and its lowest card discarded, until the stock
    is gone: the bookkeeping of a hand, with no rules and no choices. The fastest of
    ``passes`` passes over the same hands."""
    return hands / min(_floor_seconds(rules, hands, seed) for _ in range(passes))


def _floor_seconds(rules: Rules, hands: int, seed: int) -> float:
    seats = rules.players.seats
    hs, fs = rules.deal.hand_size, rules.deal.foot_size
    draw = rules.draw_count(1)
    start = cpu()
    for i in range(hands):
        deal = Deal.shuffled(rules, random.Random(hand_seed(seed, i)))
        order = deal.order
        held = [[0] * NUM_CARDS for _ in range(seats)]
        for s in range(seats):
            for c in order[s * (hs + fs):s * (hs + fs) + hs]:
                held[s][c] += 1
        stock = list(order[seats * (hs + fs):])
        pile: list[int] = []
        seat = deal.first_seat
        while len(stock) >= draw:
            counts = held[seat]
            for _ in range(draw):
                counts[stock.pop()] += 1
            low = next(c for c in range(NUM_CARDS) if counts[c])
            counts[low] -= 1
            pile.append(low)
            seat = (seat + 1) % seats
    return cpu() - start


def expert_decision_times(rules: Rules, decisions: int, seed: int = 0) -> list[float]:
    """Seconds per decision of the expert (team 0's seats) against the heuristic (the
    other seats), over ``decisions`` decisions of hands played from their start."""
    times: list[float] = []
    i = 0
    while len(times) < decisions:
        s = hand_seed(seed, i)
        bots: list[Bot] = [
            ExpertBot(s * 31 + seat) if rules.team_of[seat] == 0
            else HeuristicBot(s * 31 + seat) for seat in range(rules.players.seats)]
        game = Game(rules, s)
        while not game.results and len(times) < decisions:
            seat = game.actor
            legal = game.legal_actions()
            view = seat_view(game, seat)
            start = cpu()
            action = bots[seat].choose(view, legal)
            if rules.team_of[seat] == 0:
                times.append(cpu() - start)
            game.apply(action, seat)
        i += 1
    return times


def bench_preset(rules: Rules, random_hands: int, heuristic_hands: int,
                 decisions: int, seed: int = 0) -> dict[str, Any]:
    """Every figure of one rule set (:func:`run` of it alone)."""
    return run_rules([rules], random_hands, heuristic_hands, decisions, seed)[0]


class _Best:
    """A rule set's fastest pass so far of each measure, in CPU seconds, and the random
    hands as its first pass played them."""

    def __init__(self) -> None:
        self.floor = self.random = self.heuristic = float("inf")
        self.floor_slowest = 0.0
        self.played: list[HandResult] = []


def run_rules(rules_list: Sequence[Rules], random_hands: int, heuristic_hands: int,
              decisions: int, seed: int = 0) -> list[dict[str, Any]]:
    """Every figure of each rule set, in their order.

    The passes take turns: a pass of the floor, one of random play and one of the
    heuristic for the first rule set, then for the next, and so on, and then again,
    :data:`ROUNDS` times; each measure's fastest pass is reported. Each measure's passes
    are so spread over the whole run rather than made one after another within a
    second or two. A burst of other work on this shared machine, which can last some
    seconds, then slows a pass or two of each measure rather than every pass of one:
    timed pass after pass, random play in classic went from some 850 hands a second to
    1,540 and back within fifteen seconds, and with the passes taking turns only within
    a rule set, one run measured classic's floor at 4,462 hands a second and its random
    play at 999, where the runs before and after measured 6,554 and 1,513 (docs/bots.md).
    """
    floor_hands = max(random_hands, heuristic_hands) * 10
    best = [_Best() for _ in rules_list]
    for n in range(ROUNDS):
        for rules, b in zip(rules_list, best, strict=True):
            floor = _floor_seconds(rules, floor_hands, seed)
            b.floor = min(b.floor, floor)
            b.floor_slowest = max(b.floor_slowest, floor)
            b.random = min(b.random, _pass_seconds(rules, ("random",), random_hands, seed,
                                                   b.played if n == 0 else None))
            b.heuristic = min(b.heuristic, _pass_seconds(rules, ("heuristic",),
                                                         heuristic_hands, seed, None))
    return [_figures(rules, b, floor_hands, random_hands, heuristic_hands, decisions, seed)
            for rules, b in zip(rules_list, best, strict=True)]


def _figures(rules: Rules, best: _Best, floor_hands: int, random_hands: int,
             heuristic_hands: int, decisions: int, seed: int) -> dict[str, Any]:
    """A rule set's figures from its fastest passes, with the replays, the expert's
    times and the rollouts measured now."""
    times = sorted(expert_decision_times(rules, decisions, seed))
    # (``--decisions 0``: the expert is not timed, and its figures are None)
    median = round(1000 * statistics.median(times), 2) if times else None
    p95 = round(1000 * times[min(len(times) - 1, int(0.95 * len(times)))], 2) \
        if times else None
    floor = floor_hands / best.floor
    random_speed = random_hands / best.random
    heuristic_speed = heuristic_hands / best.heuristic
    played = best.played
    carried = replayed_hands_per_second(rules, played)
    listed = replayed_hands_per_second(rules, played, listing=True)
    from handfoot.research.speed import rollout_speeds  # numpy only; each API lazily

    return {
        "floor_hands_per_s": round(floor, 1),
        "floor_slowest_hands_per_s": round(floor_hands / best.floor_slowest, 1),
        "random_hands_per_s": round(random_speed, 1),
        "random_ratio_to_floor": round(random_speed / floor, 4),
        "random_moves_per_hand": round(sum(len(r.actions) for r in played) / len(played), 1),
        "random_moves_carried_out_hands_per_s": round(carried, 1),
        "random_moves_carried_out_and_listed_hands_per_s": round(listed, 1),
        "heuristic_hands_per_s": round(heuristic_speed, 1),
        "heuristic_ratio_to_floor": round(heuristic_speed / floor, 4),
        "expert_ms_per_decision_median": median,
        "expert_ms_per_decision_p95": p95,
        "expert_decisions": len(times),
        "random_hands": random_hands,
        "heuristic_hands": heuristic_hands,
        **rollout_speeds(rules, random_hands, seed),
    }


def run(names: Sequence[str], random_hands: int, heuristic_hands: int, decisions: int,
        seed: int = 0) -> dict[str, dict[str, Any]]:
    """Every figure of each preset named, by name (:func:`run_rules`)."""
    rows = run_rules([preset(name) for name in names], random_hands, heuristic_hands,
                     decisions, seed)
    return dict(zip(names, rows, strict=True))


def add_parser(sub: Any) -> None:
    """The ``bench`` subcommand (registered by :mod:`handfoot.cli`)."""
    p = sub.add_parser("bench", help="engine and bot speed per preset, on one core")
    p.add_argument("--json", action="store_true", help="one JSON object keyed by preset")
    p.add_argument("--hands", type=int, default=0,
                   help=f"hands per measure (default {DEFAULT_RANDOM_HANDS} random v random, "
                        f"{DEFAULT_HEURISTIC_HANDS} heuristic v heuristic)")
    p.add_argument("--decisions", type=int, default=DEFAULT_DECISIONS,
                   help="expert decisions to time per preset (whole hands are played)")
    p.add_argument("--variant", action="append", choices=PRESET_NAMES,
                   help="only this preset (repeatable); default: all five")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--legal", action="store_true",
                   help="time every legal-move question by hand size (11 to 60 cards) in "
                        "each preset and the worst house rules, instead")
    p.add_argument("--fingerprint", action="store_true",
                   help="the hash of a fixed set of seeded hands' moves and scores, instead "
                        "(the same before and after a change that keeps every game)")
    p.add_argument("--instructions", action="store_true",
                   help="machine instructions of 100 hands (valgrind's callgrind), instead: "
                        "random classic and samba, heuristic texas-good-sam")
    p.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    names = args.variant or list(PRESET_NAMES)
    if args.fingerprint:
        print(fingerprint.games_fingerprint())
        return 0
    if args.instructions:
        table = fingerprint.instruction_table()
        print(json.dumps(table, indent=1) if args.json else "\n".join(
            f"{measure:28} {count:8.1f} M instructions / 100 hands"
            for measure, count in table.items()))
        return 0
    if args.legal:
        results = bench_legal.run(names)
        print(json.dumps(results, indent=1) if args.json else bench_legal.table(results))
        return 0
    random_hands = args.hands or DEFAULT_RANDOM_HANDS
    heuristic_hands = args.hands or DEFAULT_HEURISTIC_HANDS
    out = run(names, random_hands, heuristic_hands, args.decisions, args.seed)
    for name in names:
        if not args.json:
            r = out[name]
            expert = "expert not timed" if r["expert_ms_per_decision_median"] is None else (
                f"expert {r['expert_ms_per_decision_median']:7.1f} ms median, "
                f"{r['expert_ms_per_decision_p95']:7.1f} ms p95 per decision "
                f"({r['expert_decisions']} decisions)")
            print(f"{name:18} floor {r['floor_hands_per_s']:7.1f} hands/s   "
                  f"random {r['random_hands_per_s']:7.1f} ({r['random_ratio_to_floor']:.2f} of "
                  f"the floor)   heuristic {r['heuristic_hands_per_s']:7.1f} "
                  f"({r['heuristic_ratio_to_floor']:.2f})   {expert}", flush=True)
            print(f"{'':18} random v random's {r['random_moves_per_hand']} moves a hand, only "
                  f"carried out: {r['random_moves_carried_out_hands_per_s']} hands/s; "
                  f"carried out and listed: "
                  f"{r['random_moves_carried_out_and_listed_hands_per_s']} hands/s",
                  flush=True)
            print(f"{'':18} random rollout, steps/s: engine {r['engine_steps_per_s']}   "
                  f"PettingZoo {r['pettingzoo_steps_per_s']}   OpenSpiel "
                  f"{r['openspiel_steps_per_s']}", flush=True)
    if args.json:
        print(json.dumps({**out, "engine_compiled": engine_compiled()}, indent=1))
    else:
        print(f"engine: {'compiled with mypyc' if engine_compiled() else 'pure Python'}")
    return 0


def engine_compiled() -> bool:
    """Whether the engine runs compiled with mypyc (the default install; see
    :mod:`handfoot.compiled`)."""
    return compiled.running_compiled()
