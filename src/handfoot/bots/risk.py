"""The risk of being caught: how likely the hand is to end before a seat plays again,
and what the cards it holds would cost then.

A hand ends when a player goes out (or, in some rule sets, when the stock runs out);
every card still held then counts against its holder's team at the rule set's own
values (a red 3 500 points in six-deck, 100 in classic; a black 3 5 or 100). The hard
player weighs that cost in its policy (which piles to take, when to stop holding wild
cards back) and in the evaluation of the positions its search reaches.

**How likely an opponent is to go out** within its next ``k`` turns is read from what
the whole table sees: whether it is in its foot, how many cards it holds, how many books
its team still needs to go out, and whether its partners have done what going out asks
of them (:data:`OUT_WITHIN`). The table was counted from 2,000 hands of the medium
player against itself in the four presets where going out ends the hand (500 each,
seeds 5000 on; from each seat's draw, whether it went out within 1 to 6 of its turns),
rounded, with neighbouring hand sizes pooled where few hands reached them.

>>> from handfoot.rules import preset
>>> rules = preset("six-deck")
>>> # the opponents in their feet holding 1 and 2 cards with their books made
>>> round(ends_within(rules, 0, [9, 1, 9, 2], [False, True, False, True],
...                   [0, 0], stock=40, turns=1), 2)
0.54
>>> # the same opponents still in their hands, far from out
>>> ends_within(rules, 0, [9, 11, 9, 11], [False, False, False, False], [0, 2, 0, 2],
...             stock=40, turns=1)
0.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from handfoot.cards import NUM_CARDS
from handfoot.engine import Hand
from handfoot.rules import GoingOut, Rules

#: the chance that a player goes out within 1, 2, ... 6 of its turns, by (cards held at
#: the start of its turn, bucketed: 1, 2, 3, 4, 5-6, 7-9, 10 or more) for a player in its
#: foot whose team needs no more books and whose partners may let it go out
_READY: Final[tuple[tuple[float, ...], ...]] = (
    (0.50, 0.63, 0.68, 0.70, 0.71, 0.72),
    (0.07, 0.23, 0.31, 0.35, 0.38, 0.39),
    (0.05, 0.12, 0.20, 0.26, 0.30, 0.31),
    (0.01, 0.08, 0.13, 0.20, 0.23, 0.26),
    (0.00, 0.02, 0.07, 0.11, 0.13, 0.15),
    (0.00, 0.00, 0.00, 0.01, 0.02, 0.03),
    (0.09, 0.14, 0.18, 0.20, 0.21, 0.22),
)
#: the same for a team one book short (the last card cannot go before the book is made)
_ONE_SHORT: Final[tuple[tuple[float, ...], ...]] = (
    (0.03, 0.07, 0.10, 0.12, 0.14, 0.15),
    (0.00, 0.03, 0.06, 0.08, 0.10, 0.12),
    (0.00, 0.02, 0.05, 0.08, 0.10, 0.12),
    (0.00, 0.01, 0.05, 0.08, 0.10, 0.12),
    (0.00, 0.00, 0.02, 0.04, 0.07, 0.08),
    (0.00, 0.00, 0.00, 0.01, 0.01, 0.02),
    (0.02, 0.06, 0.10, 0.13, 0.16, 0.19),
)
#: two books short or more, or partners not yet ready (any hand size in the foot)
_FAR: Final[tuple[float, ...]] = (0.00, 0.01, 0.04, 0.07, 0.10, 0.13)
#: a player not yet in its foot
_NOT_IN_FOOT: Final[tuple[float, ...]] = (0.00, 0.00, 0.005, 0.01, 0.02, 0.03)
#: every table above by name (for the docs and tests)
OUT_WITHIN: Final[dict[str, tuple[tuple[float, ...], ...]]] = {
    "ready": _READY, "one short": _ONE_SHORT, "far": (_FAR,), "not in foot": (_NOT_IN_FOOT,)}


def _bucket(cards: int) -> int:
    if cards <= 4:
        return max(cards, 1) - 1
    return 4 if cards <= 6 else (5 if cards <= 9 else 6)


def seat_out_chance(cards: int, in_foot: bool, short: int, partners_ready: bool,
                    turns: int) -> float:
    """The chance that a player goes out within ``turns`` of its turns (0 for none)."""
    if turns <= 0:
        return 0.0
    k = min(turns, 6) - 1
    if not in_foot:
        return _NOT_IN_FOOT[k]
    if not partners_ready or short >= 2:
        return _FAR[k]
    table = _READY if short == 0 else _ONE_SHORT
    return table[_bucket(cards)][k]


def books_short(go: GoingOut, books: tuple[int, int, int, int]) -> int:
    """How many books a team with these complete books (clean, dirty, wild-card,
    sequence) still needs to go out."""
    clean, dirty, wild, seq = books
    spare = clean - go.clean_books
    short = max(-spare, 0)
    dirty_have = dirty + (max(spare, 0) if go.clean_counts_as_dirty else 0)
    short += max(go.dirty_books - dirty_have, 0)
    return short + max(go.wild_books - wild, 0) + max(go.sequence_books - seq, 0)


def ends_within(rules: Rules, me: int, cards: Sequence[int], in_foot: Sequence[bool],
                short: Sequence[int], stock: int, turns: int) -> float:
    """The chance that the hand ends before ``me`` has played ``turns`` more turns
    (1: before its next turn), from each seat's cards held and whether it is in its
    foot, each team's books still missing (``short``, by team) and the stock's size."""
    if turns <= 0:
        return 0.0
    seats = len(cards)
    draw = max(rules.turn.draw, 1)
    go = rules.going_out
    if go.stock_out == "end-hand" and stock < seats * draw * turns:
        return 1.0  # the stock runs out first
    if go.hand_ends == "stock-drawn" or rules.players.teams <= 0:
        return 0.0
    teams = rules.players.teams
    mine = me % teams
    stay = 1.0
    for s in range(seats):
        team = s % teams
        if team == mine:
            continue
        ready = go.partners == "none" or all(
            in_foot[p] for p in range(team, seats, teams))
        stay *= 1.0 - seat_out_chance(cards[s], in_foot[s], short[team], ready, turns)
    return 1.0 - stay


#: how many of a seat's next turns :func:`ends_list` looks ahead
AHEAD: Final = 8


def ends_list(rules: Rules, me: int, cards: Sequence[int], in_foot: Sequence[bool],
              short: Sequence[int], stock: int) -> list[float]:
    """:func:`ends_within` for 0, 1, ... :data:`AHEAD` - 1 turns (the same numbers, each
    opponent read once)."""
    out = [0.0] * AHEAD
    seats = len(cards)
    go = rules.going_out
    per_round = seats * max(rules.turn.draw, 1)
    teams = rules.players.teams
    stay = [1.0] * AHEAD
    if go.hand_ends != "stock-drawn" and teams > 0:
        for s in range(seats):
            team = s % teams
            if team == me % teams:
                continue
            ready = go.partners == "none" or all(
                in_foot[p] for p in range(team, seats, teams))
            for k in range(1, AHEAD):
                stay[k] *= 1.0 - seat_out_chance(cards[s], in_foot[s], short[team], ready, k)
    for k in range(1, AHEAD):
        ends = go.stock_out == "end-hand" and stock < per_round * k
        out[k] = 1.0 if ends else 1.0 - stay[k]
    return out


def _short(hand: Hand) -> list[int]:
    go = hand.rules.going_out
    return [books_short(go, hand.books(t)) for t in range(hand.teams)]


def hand_ends_within(hand: Hand, seat: int, turns: int = 1) -> float:
    """:func:`ends_within` read from a state (only what the whole table sees)."""
    return ends_within(hand.rules, seat, hand.hand_len, hand.in_foot, _short(hand),
                       len(hand.stock), turns)


def hand_ends(hand: Hand, seat: int) -> list[float]:
    """:func:`ends_list` read from a state (only what the whole table sees)."""
    return ends_list(hand.rules, seat, hand.hand_len, hand.in_foot, _short(hand),
                     len(hand.stock))


def held_cost(rules: Rules, counts: Sequence[int]) -> int:
    """What these cards cost their team if the hand ends while they are held, in points
    (positive): each at the rule set's value for a card caught in hand, 3s included."""
    held = rules.held_value
    cost = 0
    for c in range(NUM_CARDS):
        k = counts[c]
        if k:
            cost -= held[c] * k
    return cost


def seat_cost(hand: Hand, seat: int) -> int:
    """What the seat's hand and its foot not yet picked up would cost if caught now."""
    rules = hand.rules
    cost = held_cost(rules, hand.hands[seat])
    foot = hand.feet[seat]
    if foot:
        held = rules.held_value
        for c in foot:
            cost -= held[c]
    return cost


def caught(hand: Hand, team: int) -> float:
    """The points the team may expect to lose by being caught before its seats play
    again: each seat's cards (and foot) times the chance the hand ends before its next
    turn."""
    total = 0.0
    for seat in hand.team_seats(team):
        q = hand_ends_within(hand, seat, 1)
        if q > 0.0:
            total += q * seat_cost(hand, seat)
    return total


def shed_cost(costs: Sequence[int], ends: Sequence[float]) -> float:
    """The expected cost of cards that leave the hand one a turn, the costliest first,
    the first with this turn's discard: the ``i``-th (from 0) is still held if the hand
    ends before the seat's ``i``-th next turn, with the chance ``ends[i]``
    (``ends[0]``: 0; past its end, the last chance)."""
    total = 0.0
    for i, cost in enumerate(sorted(costs, reverse=True)):
        if i == 0 or not ends:
            continue
        total += cost * ends[min(i, len(ends) - 1)]
    return total


__all__ = ["AHEAD", "OUT_WITHIN", "books_short", "caught", "ends_list", "ends_within",
           "hand_ends", "hand_ends_within",
           "held_cost", "seat_cost", "seat_out_chance", "shed_cost"]
