"""Stacked six-deck positions for the tests of the risk of being caught (the hard
player's policy and search, the review's words): the same position late in a hand, with
the opponents near going out, and early, with them far from it."""

from __future__ import annotations

from handfoot.actions import DRAW, Discard
from handfoot.cards import parse_cards
from handfoot.engine import Hand
from handfoot.game import Game
from handfoot.rules import preset
from stacked import on_table, put_in_foot, put_pile, stacked_hand

#: a 37-card pile (bottom first, the first card the upcard) holding 10 red 3s, the king
#: on top: seat 0 holds a pair of kings to take it with
PILE = ("7C 3D 9S 3H 5C 3D JC 3H 8S 6D 3D 10C 3H 4D 5S 3D 9H JD 3H 6C 10D "
        "3D 8H 4H 6S 10S JS 7D 5H 9C 4S 3H QH 6H 8C JH KC")


def _near_out(hand: Hand) -> None:
    """The opponents in their feet with 1 and 2 cards, their books for going out made."""
    put_in_foot(hand, 1, "8C")
    put_in_foot(hand, 3, "9C 4D")
    on_table(hand, 1, "AC AH AD AS AC AH AD")
    on_table(hand, 1, "QC QD QH QS QC 2C 2D")


def _game(hand: Hand) -> Game:
    game = Game(hand.rules, 0)
    game.hand = hand
    return game


def pile_position(late: bool) -> Game:
    """Six-deck, seat 0 to draw with a pair of kings, the pile above on the table and
    seen going down (its discards in the history); ``late``: the opponents near out."""
    hand = stacked_hand(preset("six-deck"),
                        hands={0: "KH KD 9D 10H JH QS 4C 5D 6H 7S 8D"}, first_seat=0)
    on_table(hand, 0, "AH AD AS")
    if late:
        _near_out(hand)
    put_pile(hand, PILE)
    hand.history[:] = [(1 + i % 3, Discard(c)) for i, c in enumerate(parse_cards(PILE)[1:])]
    return _game(hand)


def play_position(late: bool) -> Game:
    """Six-deck, seat 0 has drawn: it holds a 2, three black 3s and nine single naturals,
    its team a clean book of aces and four kings; ``late``: the opponents near out."""
    hand = stacked_hand(preset("six-deck"), hands={0: "2C 4C 5C 6D 7S 8H 9D 10H JH QD 3C"},
                        first_seat=0, stock="3S 3C")
    on_table(hand, 0, "AH AD AS AC AH AD AS")
    on_table(hand, 0, "KH KD KS KC")
    hand.push(DRAW)
    if late:
        _near_out(hand)
    return _game(hand)


