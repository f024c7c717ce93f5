"""Shared test helpers: a snapshot of everything in a hand, for "nothing changed" checks."""

from __future__ import annotations

from typing import Any

from handfoot.engine import Hand


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
