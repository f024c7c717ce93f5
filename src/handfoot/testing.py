"""Helpers to set up exact situations: a stacked deal, melds already on the table.

Used by the tests and the rule documents' examples; not by the engine itself.

>>> from handfoot.rules import preset
>>> rules = preset("texas-good-sam")
>>> hand = Hand(rules, stacked_deal(rules, hands={0: "QH QD QS KH KD KS AH AD AS 2C JK"}))
>>> from handfoot.cards import format_cards
>>> format_cards(hand.hand_cards(0))
'Q♦ Q♥ Q♠ K♦ K♥ K♠ A♦ A♥ A♠ 2♣ Joker'
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from handfoot.cards import Card, parse_cards
from handfoot.engine import Deal, Hand, Meld, full_deck
from handfoot.rules import Rules

__all__ = ["Hand", "put_meld", "stacked_deal"]


def stacked_deal(rules: Rules, hands: Mapping[int, str] | None = None,
                 feet: Mapping[int, str] | None = None, stock: str = "",
                 upcard: str | None = None, first_seat: int = 0, seed: int = 0,
                 grabs: tuple[int, ...] = (), reserve: str = "") -> Deal:
    """A deal in which the named seats hold exactly these cards (in hand and foot),
    the stock's top cards are ``stock`` (first drawn first), and everything else is
    shuffled by ``seed``. Unnamed hands and feet are filled from the shuffle.
    ``reserve`` cards lie at the bottom of the stock, for :func:`put_meld`."""
    hands = dict(hands or {})
    feet = dict(feet or {})
    pool = full_deck(rules)

    def take(text: str) -> list[Card]:
        cards = list(parse_cards(text))
        for c in cards:
            try:
                pool.remove(c)
            except ValueError:
                raise ValueError(f"the decks do not hold another {text}") from None
        return cards

    fixed_hands = {s: take(t) for s, t in hands.items()}
    fixed_feet = {s: take(t) for s, t in feet.items()}
    fixed_stock = take(stock)
    fixed_up = take(upcard) if upcard else []
    reserved = take(reserve)
    random.Random(seed).shuffle(pool)
    hs, fs = rules.deal.hand_size, rules.deal.foot_size
    order: list[Card] = []
    for s in range(rules.players.seats):
        for fixed, size in ((fixed_hands, hs), (fixed_feet, fs)):
            cards = fixed.get(s, [])
            if len(cards) > size:
                raise ValueError(f"seat {s} is given {len(cards)} cards; the stack holds {size}")
            order.extend(cards)
            for _ in range(size - len(cards)):
                order.append(pool.pop())
    if rules.deal.upcard:
        order.extend(fixed_up or [pool.pop()])
    order.extend(fixed_stock)
    order.extend(pool)
    order.extend(reserved)
    target = hs + fs
    return Deal(tuple(order), first_seat, grabs or (target + 1,) * rules.players.seats)


def put_meld(hand: Hand, team: int, cards: str) -> Meld:
    """Put a meld straight on a team's table, its cards taken out of the stock (the
    test stands for earlier play), and mark the team as open."""
    parsed = list(parse_cards(cards))
    for c in parsed:
        try:
            hand.stock.remove(c)
        except ValueError:
            raise ValueError(f"the stock holds no more {cards}") from None
    meld = hand._new_meld(team, parsed)
    hand.opened[team] = True
    return meld
