"""Shared test helpers: a snapshot of everything in a hand, for "nothing changed" checks,
the check that a refused action changes nothing, and short ways to name melds."""

from __future__ import annotations

from typing import Any

import pytest

from handfoot.actions import Action, LayDown
from handfoot.cards import RANK, parse_card, parse_cards
from handfoot.engine import Hand, IllegalAction


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Every piece of a hand's state that an action could change."""
    return (
        [h[:] for h in hand.hands], hand.hand_len[:],
        [None if f is None else f[:] for f in hand.feet], hand.in_foot[:], hand.foot_turns[:],
        [[(m.kind, m.rank, m.suit, m.cards[:], m.size, m.naturals, m.wilds, m.low, m.high)
          for m in ms]
         for ms in hand.melds],
        hand.opened[:], [r[:] for r in hand.red_threes], hand.pile[:], hand.pile_wilds,
        hand.stock[:], hand.phase, hand.seat, hand.actor, hand.turn_number, hand.asked,
        hand.permission, hand.may_end_turn, hand.went_out, hand.ended_by, len(hand.history),
        [k[:] for k in hand.known], hand.foot_known[:], hand.shuffles[:],
    )


def refused(hand: Hand, action: Action, error: type[IllegalAction], seat: int | None = None,
            *, exact: bool = False) -> str:
    """Assert that ``action`` (by ``seat``) is refused with ``error`` and changes nothing
    in the hand's :func:`snapshot`; return the message. A subclass of ``error`` will do,
    unless ``exact``: then it must be ``error`` itself, and ``is_legal`` must say no too."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction if exact else error) as info:
        hand.apply(action, seat)
    if exact:
        assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    assert snapshot(hand) == before
    if exact:
        assert not hand.is_legal(action, seat)
    return str(info.value)


def assert_refused(hand: Hand, action: Action, error: type[IllegalAction],
                   seat: int | None = None) -> str:
    """:func:`refused` with ``exact``: the action is refused with exactly ``error``,
    nothing changes and ``is_legal`` agrees; returns the message."""
    return refused(hand, action, error, seat, exact=True)


def lay(text: str) -> LayDown:
    """Lay down these melds: ``"QH QD QS | 5H 5D 5S"``, melds split by ``|``."""
    return LayDown(tuple(parse_cards(m) for m in text.split("|")))


def meld_index(hand: Hand, team: int, rank_card: str) -> int:
    """Where the team's last meld of this card's rank lies (for ``AddToMeld``)."""
    rank = RANK[parse_card(rank_card)]
    return max(i for i, m in enumerate(hand.melds[team]) if m.rank == rank)
