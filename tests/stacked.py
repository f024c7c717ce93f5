"""Set-up helpers shared by the preset tests: stacked hands, cards taken out of play
for earlier play the test stands for, melds on the table, a given pile, a seat in its foot,
and a check that a refused action changes nothing."""

from __future__ import annotations

import pytest

from handfoot.cards import JOKER, counts_of, parse_cards
from handfoot.engine import Hand, IllegalAction, Meld, Phase

_FIXED: dict[int, set[int]] = {}
_STACKED: dict[int, int] = {}


def register(hand: Hand, fixed: set[int], stock: str) -> Hand:
    """Remember which seats the test fixed and how many stock cards it stacked on top."""
    _FIXED[id(hand)] = fixed
    _STACKED[id(hand)] = len(parse_cards(stock))
    return hand


def take(hand: Hand, text: str) -> list[int]:
    """Take these cards out of play for a test's set-up (they stand for earlier play):
    from the stock's bottom, else from a hand or foot the test did not fix (which gets
    the stock's bottom card instead)."""
    out = []
    fixed = _FIXED.get(id(hand), set())
    for c in parse_cards(text):
        out.append(c)
        free = len(hand.stock) - _STACKED.get(id(hand), 0)
        if c in hand.stock[:free]:
            hand.stock.remove(c)
            continue
        for s in range(hand.seats):
            foot = hand.feet[s]
            if s in fixed:
                continue
            if foot is not None and c in foot:
                foot[foot.index(c)] = hand.stock.pop(0)
                break
            if hand.hands[s][c]:
                hand.hands[s][c] -= 1
                hand.hands[s][hand.stock.pop(0)] += 1
                break
        else:
            raise ValueError(f"no {text} left to take")
    return out


def on_table(hand: Hand, team: int, cards: str) -> Meld:
    """Put a meld on the team's table (as ``put_meld``; the team is open)."""
    new = hand._new_meld(team, take(hand, cards))
    hand.opened[team] = True
    return new


def snapshot(hand: Hand) -> tuple[object, ...]:
    """Everything a refused action must leave as it was."""
    return (hand.phase, hand.actor, [h[:] for h in hand.hands], hand.hand_len[:],
            [[m.cards[:] for m in ms] for ms in hand.melds], hand.opened[:], hand.pile[:],
            hand.stock[:], hand.in_foot[:], [None if f is None else f[:] for f in hand.feet])


def refused(hand: Hand, action: object, error: type[IllegalAction],
            seat: int | None = None) -> str:
    """Assert the action is refused with ``error`` and changes nothing; the message."""
    before = snapshot(hand)
    with pytest.raises(error) as info:
        hand.apply(action, seat)  # type: ignore[arg-type]
    assert snapshot(hand) == before
    return str(info.value)


def put_pile(hand: Hand, cards: str) -> None:
    """The pile (bottom first) stands for earlier discards; the old pile goes under
    the stock."""
    old = hand.pile[:]
    new = take(hand, cards)
    hand.stock[:0] = old
    hand.pile[:] = new
    hand.pile_wilds = sum(1 for c in new if c == JOKER or c < 4)


def put_in_foot(hand: Hand, seat: int, cards: str, foot_turns: int = 0) -> None:
    """The seat has played its hand and picked up its foot (earlier play, which the
    test stands for): it now holds ``cards``."""
    old = hand.hand_cards(seat) + (hand.feet[seat] or [])
    hand.hands[seat] = [0] * len(hand.hands[seat])
    hand.feet[seat] = None
    _FIXED.setdefault(id(hand), set()).add(seat)
    new = take(hand, cards)
    hand.stock[:0] = old
    hand.hands[seat] = counts_of(new)
    hand.hand_len[seat] = len(new)
    hand.known[seat] = [0] * len(hand.known[seat])
    hand.in_foot[seat] = True
    hand.foot_turns[seat] = foot_turns


def phase_of(hand: Hand) -> Phase:
    """The phase (a call, so that the type checker does not narrow it across actions)."""
    return hand.phase
