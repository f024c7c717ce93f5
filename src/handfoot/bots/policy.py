"""The expert's own fast policy: the heuristic's wishes with patient wilds, safer
discards and earlier requests to go out.

The heuristic puts wilds on unfinished melds as soon as it holds two or its team
still needs dirty books (in most rule sets: from the first turn). Measured against the
heuristic on duplicate deals (both playing every seat of their team, straight on the
engine), holding the wilds until they complete a book, or until the player is in its
foot, wins about 60% of the hands in texas-good-sam, alabama-samboree and six-deck
and breaks even in classic and samba: a wild on a meld of four does nothing a wild
kept in hand cannot do later, and a wild kept can finish whichever meld gets close
first. Pairs laid with a wild are kept (dropping them lost clearly everywhere).

Two more changes, measured the same way: the heuristic keeps from discarding ranks of
which the next player's team has an unfinished meld, but where the pile can only be
taken with a natural pair from hand (every preset but samba) that meld does not help
them take it; this policy ignores it there. And where a partner must agree to going
out, it asks with up to four cards left instead of two. All three together, on fresh
deals (300 duplicate deals, seed 20000 on): 63.5% texas-good-sam, 58.5% classic,
61.2% six-deck, 65.5% alabama-samboree, 49.3% samba. Since texas-good-sam plays on
until the stock is drawn, the policy gains little there (about 52%).

Two more, for the race to the books that going out needs: a clean meld takes no wild
while the team still needs clean books, and where the pile can only be taken with a
natural pair from hand, a discard's rank counts against it by the chance that the next
player holds such a pair (:func:`pair_chances`: taking the pile is what most speeds a
team on). Their gains are in docs/bots.md.

This policy is the expert's default choice where it does not search, its source of
candidates where it does, and the way its own team plays in its rollouts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from handfoot.actions import ASK, END_TURN, Action, AddToMeld, AskToGoOut, Discard, TakePile
from handfoot.bots.heuristic import (
    Obs,
    Ok,
    discard_score,
    fallback,
    pile_worth,
    rank_held,
    seen_pile,
    wishes,
)
from handfoot.bots.risk import shed_cost
from handfoot.cards import NATURAL, NUM_CARDS, RANK, WILD, is_three
from handfoot.engine import RANK_MELD

#: where a player in the foot with this many cards or fewer asks to go out (the
#: heuristic: two)
ASK_AT = 4


#: where the hand is at least this likely to end before the player's next turn, it stops
#: holding wild cards back and plays off what it can before it discards
RUSH: Final = 0.25
#: what a card taken with the pile is worth, in points, when the pile's worth in cards
#: (the heuristic's :func:`~handfoot.bots.heuristic.pile_worth`) is set against the
#: points it risks
POINTS_PER_CARD: Final = 50.0


def rushed(ends: Sequence[float]) -> bool:
    """Whether being caught is likely enough to play off cards first: ``ends[1]``, the
    chance that the hand ends before the player's next turn, at least :data:`RUSH`."""
    return len(ends) > 1 and ends[1] >= RUSH


def pile_risk(o: Obs, ends: Sequence[float]) -> float:
    """What taking the pile risks, in cards (:data:`POINTS_PER_CARD`): its 3s, each at
    the rule set's value for a 3 caught in hand, shed one a turn (costliest first) while
    the hand may end (``ends[i]``: the chance it ends before the player's ``i``-th next
    turn); and the naturals it cannot use yet (none of the rank held, no open meld of
    it), still held two turns on. A card of the pile nobody saw counts as the deck's
    average 3."""
    if not ends or ends[-1] <= 0.0:
        return 0.0
    rules = o.rules
    held = rules.held_value
    first, stop = o.settings.take_span(rules, o.pile_size)
    threes: list[int] = []
    loose = 0.0
    size = o.settings.book_size
    open_ranks = {m.rank for m in o.melds[o.team] if m.kind == RANK_MELD and m.size < size}
    unseen_three = -(held[4] + held[5] + held[6] + held[7]) / 54  # one 3 of each suit a deck
    for c in seen_pile(o, stop - 1 if stop > first else 0):
        if c is None:
            loose += unseen_three
        elif is_three(c):
            threes.append(-held[c])
        elif NATURAL[c] and RANK[c] not in open_ranks and not rank_held(o.hand, RANK[c]):
            loose -= held[c]
    later = ends[min(2, len(ends) - 1)]
    return (shed_cost(threes, ends) + later * loose) / POINTS_PER_CARD


def pile_too_risky(o: Obs, ends: Sequence[float]) -> bool:
    """Whether the pile, worth what the heuristic counts, risks more than that."""
    return pile_risk(o, ends) > 0.0 and pile_worth(o) - pile_risk(o, ends) < 0.0


def patient(o: Obs, action: Action) -> bool:
    """False for wilds added to a clean meld while the team still needs clean books
    (:func:`clean_short`), and, outside the foot, for wilds added to an unfinished meld
    of a rank that they do not complete."""
    if not isinstance(action, AddToMeld) or not any(WILD[c] for c in action.cards):
        return True
    melds = o.melds[o.team]
    if not 0 <= action.meld < len(melds):
        return True
    m = melds[action.meld]
    if m.kind != RANK_MELD:
        return True
    if m.wilds == 0 and clean_short(o):
        return False
    return o.in_foot or m.size + len(action.cards) >= o.settings.book_size


def clean_short(o: Obs) -> bool:
    """Whether the player's team has fewer clean books than it needs to go out (its
    books as the reading counted them)."""
    return o.books[0] < o.settings.out_clean_books


def own_penalties(o: Obs) -> list[int]:
    """Per rank (a list by rank number), what discarding it costs because of the team's
    own melds (as the heuristic: 250 for an unfinished meld, 60 for a book)."""
    size = o.settings.book_size
    own = [0] * 16
    for m in o.melds[o.team]:
        if m.kind == RANK_MELD:
            own[m.rank] = own[m.rank] + (250 if m.size < size else 60)
    return own


def discards(o: Obs) -> list[Action]:
    """Every card held as a discard, best first: the heuristic's order, except where the
    pile can only be taken with a natural pair from hand. There the next player's team's
    unfinished melds do not count; the chance that the next player holds a pair of the
    card's rank (:func:`pair_chances`) does, at :data:`PAIR_RISK`."""
    if "meld-on-board" in o.rules.pile.show:
        def score(c: int) -> float:
            return discard_score(o, c)
    else:
        ranks = own_penalties(o)
        chances = pair_chances(o)

        def score(c: int) -> float:
            s = discard_score(o, c, ranks)
            return s - PAIR_RISK * chances[RANK[c]] if NATURAL[c] else s
    cards = [c for c in range(NUM_CARDS) if o.hand[c]]
    cards.sort(key=lambda c: -score(c))
    return [Discard(c) for c in cards]


#: what a discard's rank costs, in the discard order's units, times the chance that the
#: next player holds a natural pair of it and so may take the pile (an unfinished meld
#: of the team's own costs 250: a one-in-ten chance costs as much; measured in
#: docs/bots.md)
PAIR_RISK: Final = 2500.0

def pair_chances(o: Obs) -> list[float]:
    """Per rank (a list by rank number), the chance that the next player holds a natural
    pair of it: the cards the seat cannot see (the decks less its hand, every meld and
    the cards the next player was seen taking; the pile too, which is cheaper to count
    in than to read and changes little) dealt at random, as many as the next player
    holds beyond those it was seen taking; a card of the rank seen taken counts towards
    the pair."""
    settings = o.settings
    left = list(settings.naturals_by_rank)
    unseen = settings.deck_size - o.hand_len
    for ms in o.melds:
        for m in ms:
            unseen -= m.size
            if m.kind == RANK_MELD:
                left[m.rank] -= m.naturals
    hand, known = o.hand, o.known_next
    seen_taken = [0] * 16
    for c in range(NUM_CARDS):
        if NATURAL[c]:
            left[RANK[c]] -= hand[c] + known[c]
            seen_taken[RANK[c]] += known[c]
    taken = sum(known)
    unseen -= taken
    drawn = o.next_hand_len - taken
    return [at_least(max(2 - seen_taken[r], 0), unseen, max(left[r], 0), drawn)
            for r in range(16)]


def at_least(need: int, pool: int, good: int, drawn: int) -> float:
    """The chance of at least ``need`` (0, 1 or 2) of ``good`` cards among ``drawn``
    dealt at random from ``pool``.

    >>> round(at_least(2, 10, 4, 3), 4)  # 1 - (20 + 60) / 120
    0.3333
    """
    if need <= 0:
        return 1.0
    if good < need or drawn < need:
        return 0.0
    if drawn >= pool:
        return 1.0
    none = 1.0  # no good card among those drawn
    for i in range(drawn):
        none *= max(pool - good - i, 0) / (pool - i)
    if need == 1:
        return 1.0 - none
    one = drawn * good / pool  # exactly one: it first, then no other
    for i in range(drawn - 1):
        one *= max(pool - good - i, 0) / (pool - 1 - i)
    return max(0.0, 1.0 - none - one)


def patient_wishes(o: Obs, ok: Ok, ends: Sequence[float] = ()) -> Iterator[Action]:
    """The heuristic's wishes, best first, without the impatient wilds; where a partner
    must agree, it asks to go out with up to :data:`ASK_AT` cards left (before ending the
    turn or discarding); its discards in the order of :func:`discards`.

    ``ends``: the chance that the hand ends before the player's 0th, 1st, ... next turn
    (:func:`handfoot.bots.risk.ends_within`; none: no risk counted). A pile that risks
    more than it is worth (:func:`pile_too_risky`) comes after drawing; where being
    caught is likely (:func:`rushed`) wild cards are not held back."""
    if o.phase == "draw" and ends:
        yield from _draw_wishes(o, ok, ends)
        return
    rush = rushed(ends)
    early_ask = (o.phase == "play" and o.rules.going_out.permission and o.in_foot
                 and o.permission is None and 2 < o.hand_len <= ASK_AT)
    for a in wishes(o, ok):
        if isinstance(a, Discard) or isinstance(a, AskToGoOut) or a == END_TURN:  # noqa: SIM101
            if early_ask:
                yield ASK
            if isinstance(a, Discard):
                yield from discards(o)
                return
            yield a
        elif rush or patient(o, a):
            yield a


def _draw_wishes(o: Obs, ok: Ok, ends: Sequence[float]) -> Iterator[Action]:
    """The heuristic's draw wishes, a pile too risky to take put after the others."""
    later: list[Action] = []
    risky: bool | None = None
    for a in wishes(o, ok):
        if isinstance(a, TakePile):
            if risky is None:
                risky = pile_too_risky(o, ends)
            if risky:
                later.append(a)
                continue
        yield a
    yield from later


def decide_patient(o: Obs, ok: Ok, legal: Sequence[Action] = (),
                   ends: Sequence[float] = ()) -> Action:
    """The first patient wish that ``ok`` accepts (else the heuristic's fallback)."""
    for a in patient_wishes(o, ok, ends):
        if ok(a):
            return a
    return fallback(o, legal)


__all__ = [
    "PAIR_RISK",
    "POINTS_PER_CARD",
    "RUSH",
    "at_least",
    "clean_short",
    "decide_patient",
    "pair_chances",
    "patient",
    "patient_wishes",
    "pile_risk",
    "pile_too_risky",
    "rushed",
]
