"""Set-up helpers shared by the preset tests that keep the cards standing for earlier
play in the stock (the ``reserve``) and move them from there to the table
(:func:`handfoot.testing.put_meld`) or the pile (texas-good-sam, alabama-samboree)."""

from __future__ import annotations

from collections.abc import Mapping

from handfoot.actions import ChooseHand
from handfoot.cards import is_wild, parse_cards
from handfoot.engine import Hand
from handfoot.rules import Rules
from handfoot.testing import stacked_deal


def reserved_hand(rules: Rules, hands: Mapping[int, str] | None = None,
                  feet: Mapping[int, str] | None = None, stock: str = "",
                  first_seat: int = 0, grabs: tuple[int, ...] = (), reserve: str = "",
                  hand_number: int = 1, choose: bool = False) -> Hand:
    """A stacked hand: ``stock`` is drawn first; ``reserve`` (cards the test later puts on
    the table or the pile, standing for earlier play) is kept in the stock below it.
    ``choose``: every seat then chooses its first stack (``hands``) as its hand."""
    hand = Hand(rules, stacked_deal(rules, hands=hands, feet=feet, stock=f"{stock} {reserve}",
                                    first_seat=first_seat, grabs=grabs), hand_number)
    if choose:
        for _ in range(rules.players.seats):
            hand.apply(ChooseHand(0))
    return hand


def put_pile(hand: Hand, text: str) -> None:
    """Cards (bottom first) moved from the stock onto the discard pile: earlier discards."""
    for c in parse_cards(text):
        hand.stock.remove(c)
        hand.pile.append(c)
        hand.pile_wilds += is_wild(c)
