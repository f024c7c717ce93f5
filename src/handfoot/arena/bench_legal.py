"""``handfoot bench --legal``: how long every legal-move question takes, by hand size.

For each rule set (the five presets and the worst house rules validation accepts)
and each hand size from 11 to 60 cards, hands are dealt and put in the situations
where the questions are hardest: drawing with a large pile that may be taken, playing
before the team has gone down, with melds laid out, after going down with many melds
on the table, and in the foot. In each, every question is timed: listing the legal
moves, counting them, whether a move is legal (a listed one, and a whole opening laid
at once), and whether the player may go out. Reported: the slowest answer (ms) and
the most moves listed, by rule set and hand size. The cyclic garbage collector makes
no passes while the questions are timed, as in a server process, where it makes none
of its own (:mod:`handfoot.server.collector`): a pass that fell within one answer,
wherever the allocations before it happened to trigger one, was what the slowest
answer measured (samba, 60 cards: 0.3 to 1.1 ms with it, 0.02 without).
"""

from __future__ import annotations

import dataclasses
import gc
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from handfoot.actions import DRAW, Action, AddToMeld, GoDown, LayDown, LayMeld
from handfoot.cards import NATURAL, NUM_CARDS, RANK
from handfoot.engine import Deal, Hand, Phase
from handfoot.engine.settings import forget_tables
from handfoot.rules import (
    MAX_DECKS,
    MAX_FOOT_SIZE,
    MAX_HAND_SIZE,
    MAX_SEATS,
    Rules,
    preset,
)

SIZES = (11, 20, 30, 40, 50, 60)


def worst_rules() -> Rules:
    """The house rules that make the most moves: every meld kind, suits that matter,
    one natural and up to six wilds in a meld, several open melds of a rank, any number
    of cards taken from the pile, shown three ways, and as many decks as allowed."""
    base = preset("samba")
    return dataclasses.replace(
        base, name="worst",
        players=dataclasses.replace(base.players, seats=MAX_SEATS, teams=2),
        deck=dataclasses.replace(base.deck, decks=MAX_DECKS, decks_per_player=0,
                                 jokers_per_deck=4),
        deal=dataclasses.replace(base.deal, hand_size=MAX_HAND_SIZE,
                                 foot_size=MAX_FOOT_SIZE),
        meld=dataclasses.replace(base.meld, min_naturals=1, max_wilds=6,
                                 naturals_exceed_wilds=False, one_open_meld_per_rank=False,
                                 burn_wilds=True),
        pile=dataclasses.replace(base.pile, take_min=1, take_max=0,
                                 before_opening="with-opening",
                                 show=("natural-pair", "natural-and-wild", "meld-on-board"),
                                 wild_freezes_until_taken=False),
        scores=dataclasses.replace(base.scores, red_sevens_book=1500))


def _time(question: Callable[[], object], rules: Rules, repeat: int = 3) -> float:
    """CPU seconds for one answer (other work on the machine does not count): the slowest
    of a few, the first with the engine's tables for these rules forgotten (as when a
    rule set is first met)."""
    times = []
    for i in range(repeat):
        if i == 0:
            forget_tables(rules)
        start = time.thread_time()
        question()
        times.append(time.thread_time() - start)
    return max(times)


def _hand_of(rules: Rules, size: int, seed: int) -> Hand:
    """A hand in play whose first player holds ``size`` cards once it draws (a hand
    grown by play: cards moved to it from the stock)."""
    rng = random.Random(seed)
    deck = [c for c in range(52)] * rules.num_decks + [52] * (
        rules.num_decks * rules.deck.jokers_per_deck + rules.deck.extra_jokers)
    rng.shuffle(deck)
    dealt = dataclasses.replace(rules.deal, choose_hand="blind")
    hand = Hand(dataclasses.replace(rules, deal=dealt), Deal(tuple(deck), 0))
    me = hand.actor
    while hand.hand_len[me] < size - hand.draw_count:
        hand.hands[me][hand.stock.pop()] += 1
        hand.recount(me)
    return hand


def _situations(rules: Rules, size: int, seed: int) -> Iterator[tuple[str, Hand]]:
    # Drawing, with a large pile whose top card the hand holds a pair of.
    h = _hand_of(rules, size, seed)
    me = h.actor
    pair = next((c for c in range(8, 52) if sum(h.hands[me][(c & ~3):(c & ~3) + 4]) >= 2
                 and h.hands[me][c]), None)
    if pair is not None:
        pile = [h.stock.pop() for _ in range(min(60, len(h.stock) - 10))]
        pile = [c for c in pile if NATURAL[c]] + [pair]
        h.hands[me][pair] -= 1
        h.recount(me)
        h.pile = pile
        h.pile_wilds = 0
        yield "draw, large pile", h
    # Playing before going down; with melds laid out.
    h = _hand_of(rules, size, seed)
    h.apply(DRAW)
    yield "play, not down", h
    laid = h.clone()
    for _ in range(3):
        move = next((a for a in laid.legal_actions() if isinstance(a, LayMeld)), None)
        if move is None:
            break
        laid.apply(move)
        add = next((a for a in laid.legal_actions() if isinstance(a, AddToMeld)), None)
        if add is not None:
            laid.apply(add)
    yield "play, melds laid out", laid
    # After going down, with many melds on the table; then in the foot.
    down = h.clone()
    team = down.team_of[down.actor]
    stock = down.stock
    for rank in range(4, 15):
        cards = [c for c in stock if RANK[c] == rank][:3]
        if len(cards) == 3:
            for c in cards:
                stock.remove(c)
            down._new_meld(team, cards)
    down.opened[team] = True
    yield "play, down, many melds", down
    foot = down.clone()
    foot.in_foot[foot.actor] = True
    foot.feet[foot.actor] = None
    yield "play, in the foot", foot


def _questions(h: Hand) -> dict[str, Callable[[], object]]:
    legal = h.legal_actions()
    listed: Action = legal[len(legal) // 2] if legal else DRAW
    melds = [a.cards for a in legal if isinstance(a, LayMeld)][:3]
    whole = LayDown(tuple(melds)) if melds else DRAW
    return {
        "list": h.legal_actions,
        "count": lambda: len(h.legal_actions()),
        "member": lambda: h.is_legal(listed),
        "member (whole opening)": lambda: h.is_legal(whole),
        "go out?": lambda: h.go_out_blocker(h.actor) is None,
        "go down?": lambda: h.is_legal(GoDown()),
    }


def measure(rules: Rules, sizes: tuple[int, ...] = SIZES, seeds: int = 3
            ) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    collecting = gc.isenabled()
    gc.disable()  # (as a server process runs: see the module's text)
    try:
        for size in sizes:
            out[size] = _measure_size(rules, size, seeds)
    finally:
        if collecting:
            gc.enable()
    return out


def _measure_size(rules: Rules, size: int, seeds: int) -> dict[str, Any]:
    """:func:`measure` of one hand size."""
    worst = 0.0
    most = 0
    where = ""
    for seed in range(seeds):
        for name, h in _situations(rules, size, seed):
            if h.phase == Phase.OVER:
                continue
            most = max(most, len(h.legal_actions()))
            for q, ask in _questions(h).items():
                t = _time(ask, rules)
                if t > worst:
                    worst, where = t, f"{name}: {q}"
    return {"worst_ms": round(1000 * worst, 3), "most_moves": most, "where": where}


def run(names: list[str], sizes: tuple[int, ...] = SIZES, seeds: int = 3
        ) -> dict[str, dict[int, dict[str, Any]]]:
    rule_sets = {name: preset(name) for name in names}
    rule_sets["worst house rules"] = worst_rules()
    return {name: measure(rules, sizes, seeds) for name, rules in rule_sets.items()}


def table(results: dict[str, dict[int, dict[str, Any]]]) -> str:
    sizes = sorted({s for r in results.values() for s in r})
    lines = ["slowest answer to a legal-move question, ms (most moves listed), by hand size",
             f"{'rule set':20}" + "".join(f"{s:>16}" for s in sizes)]
    for name, r in results.items():
        lines.append(f"{name:20}" + "".join(
            f"{r[s]['worst_ms']:>9.2f} ({r[s]['most_moves']:>4})" for s in sizes))
    return "\n".join(lines)


__all__ = ["NUM_CARDS", "SIZES", "measure", "run", "table", "worst_rules"]
