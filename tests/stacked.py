"""Set-up helpers shared by the preset tests that stack a hand and then take cards out
of play for earlier play the test stands for (classic, samba, six-deck): a stacked hand,
cards taken out of play, melds on the table, a given pile and a seat in its foot.

(The check that a refused action changes nothing is :func:`helpers.refused`.)"""

from __future__ import annotations

from collections.abc import Mapping

from handfoot.actions import AnswerGoOut, AskToGoOut, Draw, LayMeld
from handfoot.cards import JOKER, counts_of, parse_cards
from handfoot.engine import Hand, Meld, Phase
from handfoot.rules import Rules
from handfoot.testing import stacked_deal

_FIXED: dict[int, set[int]] = {}
_STACKED: dict[int, int] = {}
_FROM_HANDS: dict[int, bool] = {}


def register(hand: Hand, fixed: set[int], stock: str, from_hands: bool = True) -> Hand:
    """Remember which seats the test fixed (:func:`take` leaves their hands and feet
    alone) and how many stock cards it stacked on top. ``from_hands=False``: take never
    draws on any hand (the test stacked every hand), only on the feet of other seats."""
    _FIXED[id(hand)] = fixed
    _STACKED[id(hand)] = len(parse_cards(stock))
    _FROM_HANDS[id(hand)] = from_hands
    return hand


def stacked_hand(rules: Rules, hands: Mapping[int, str] | None = None,
                 feet: Mapping[int, str] | None = None, stock: str = "",
                 first_seat: int = 0, grabs: tuple[int, ...] = (),
                 upcard: str | None = None, from_hands: bool = True) -> Hand:
    """A hand dealt by :func:`handfoot.testing.stacked_deal` and registered for
    :func:`take`: the seats named in ``hands`` or ``feet`` are the test's, and so are the
    ``stock`` cards on top. ``from_hands=False`` (every hand is the test's): take draws
    only on the feet, of the seats not named in ``feet``."""
    hand = Hand(rules, stacked_deal(rules, hands=hands, feet=feet, stock=stock,
                                    upcard=upcard, first_seat=first_seat, grabs=grabs))
    fixed = set(feet or ()) | (set(hands or ()) if from_hands else set())
    return register(hand, fixed, stock, from_hands)


def take(hand: Hand, text: str) -> list[int]:
    """Take these cards out of play for a test's set-up (they stand for earlier play):
    from the stock's bottom, else from a hand or foot the test did not fix (which gets
    the stock's bottom card instead)."""
    out = []
    fixed = _FIXED.get(id(hand), set())
    from_hands = _FROM_HANDS.get(id(hand), True)
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
            if from_hands and hand.hands[s][c]:
                hand.hands[s][c] -= 1
                hand.hands[s][hand.stock.pop(0)] += 1
                hand.recount(s)
                break
        else:
            raise ValueError(f"no {text} left to take")
    return out


def on_table(hand: Hand, team: int, cards: str) -> Meld:
    """Put a meld on the team's table (as ``put_meld``; the team is open)."""
    new = hand._new_meld(team, take(hand, cards))
    hand.opened[team] = True
    return new


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
    hand.recount(seat)
    hand.known[seat] = [0] * len(hand.known[seat])
    hand.in_foot[seat] = True
    hand.foot_turns[seat] = foot_turns


def phase_of(hand: Hand) -> Phase:
    """The phase (a call, so that the type checker does not narrow it across actions)."""
    return hand.phase


def out_with_black_threes(rules: Rules, foot: str, stock: str, threes_meld: bool) -> Hand:
    """Where black 3s are melded only to go out: seat 0, in its foot with a clean and a
    dirty book down, draws ``stock`` onto ``foot``, asks to go out, is let, and lays
    KD KS KC (held), so that only its black 3s are left; ``threes_meld``: the team has
    3C 3S 3C on the table (meld 2)."""
    hand = stacked_hand(rules, upcard="9S", stock=stock)
    on_table(hand, 0, "4C 4D 4H 4S 4C 4D 4H")
    on_table(hand, 0, "8C 8D 8H 8S 2C 2D JK")
    if threes_meld:
        on_table(hand, 0, "3C 3S 3C")
    put_in_foot(hand, 0, foot)
    put_in_foot(hand, 2, "AH AD 5H")
    hand.apply(Draw(), 0)
    hand.apply(AskToGoOut(), 0)
    hand.apply(AnswerGoOut(True), 2)
    hand.apply(LayMeld(parse_cards("KD KS KC")), 0)
    return hand
