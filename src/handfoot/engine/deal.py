"""What chance decides for a hand: the shuffled deck, the first player, the grabs."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from handfoot.cards import JOKER, Card
from handfoot.rules import Rules


@mypyc_attr(native_class=False)  # frozen: pickled and copied as a Python class
@dataclass(frozen=True, slots=True)
class Deal:
    """Everything chance decides for a hand, so that a record stands on its own.

    ``order`` is the whole shuffled deck, top first. Seat 0 gets the first two
    stacks (hand size, then foot size), seat 1 the next two, and so on; then the
    upcard, if the rules turn one; the rest is the stock. ``grabs`` is how many
    cards each player's simulated grab took (the bonus goes to exact grabs).
    ``shuffles`` holds, in order, each new stock made from the pile during the hand.
    """

    order: tuple[Card, ...]
    first_seat: int
    grabs: tuple[int, ...] = ()
    shuffles: tuple[tuple[Card, ...], ...] = ()

    @staticmethod
    def shuffled(rules: Rules, rng: random.Random, first_seat: int | None = None) -> Deal:
        deck = full_deck(rules)
        shuffle(rng, deck)
        seats = rules.players.seats
        target = rules.deal.hand_size + rules.deal.foot_size
        spread = rules.deal.grab_spread
        grabs = tuple(target + randint(rng, -spread, spread) for _ in range(seats))
        if first_seat is None:
            first_seat = high_card_cut(seats, rng)
        return Deal(tuple(deck), first_seat, grabs)


#: how ``random.Random`` (and a generator that supplies its own bits, as served games'
#: :class:`handfoot.fair.KeyedRandom` does) draws a number below n
_WITH_BITS: Final = getattr(random.Random, "_randbelow_with_getrandbits", None)


def below(rng: random.Random, n: int) -> int:
    """A number from 0 to ``n - 1`` (``n`` at least 1): the very number
    ``rng.randrange(n)`` gives, by the standard library's own method (the fewest random
    bits that can hold ``n - 1``, drawn again while the number is too large), here
    compiled (the library's method is Python). :func:`shuffle` draws the same way,
    through :func:`below_bits`.

    >>> a, b = random.Random(5), random.Random(5)
    >>> [below(a, n) for n in (1, 2, 3, 1000)] == [b.randrange(n) for n in (1, 2, 3, 1000)]
    True
    """
    return below_bits(rng.getrandbits, n)


def below_bits(bits: Callable[[int], int], n: int) -> int:
    """:func:`below`, drawing from ``bits``, a generator's ``getrandbits`` looked up once
    by a caller that draws many numbers (looked up at every call, it cost as much again
    as drawing the number)."""
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def draws_as_library(rng: random.Random) -> bool:
    """Whether ``rng`` draws a number below n as the standard library's generator does
    (from its ``getrandbits``: :func:`below`), so that :func:`shuffle` and
    :func:`randint` may draw its numbers compiled."""
    return _WITH_BITS is not None and getattr(type(rng), "_randbelow", None) is _WITH_BITS


def shuffle(rng: random.Random, cards: list[Card]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does (the standard
    library's own method, compiled: a deck of several hundred cards took a Python loop of
    as many steps). A generator that draws its numbers otherwise shuffles for itself.

    >>> a, b = list(range(60)), list(range(60))
    >>> shuffle(random.Random(3), a); random.Random(3).shuffle(b); a == b
    True
    """
    if not draws_as_library(rng):
        rng.shuffle(cards)  # (a Python whose library shuffles otherwise, too)
        return
    # below(rng, i + 1) for each card, with the generator's method looked up once (each
    # call of rng.getrandbits looked it up by name)
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        j = below_bits(bits, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


#: the key of a rule set's whole deck in its memo (:func:`full_deck`)
_DECK_KEY: Final = "full-deck"


def full_deck(rules: Rules) -> list[Card]:
    """Every card of the rule set's decks, in card order (a new list, copied from the
    rule set's memo: made afresh, several hundred cards from ranges, it was a fortieth
    of a random hand's time)."""
    kept: tuple[Card, ...] | None = rules.memo.get(_DECK_KEY)
    if kept is None:
        deck: list[Card] = []
        for _ in range(rules.num_decks):
            deck.extend(range(52))
            deck.extend([JOKER] * rules.deck.jokers_per_deck)
        deck.extend([JOKER] * rules.deck.extra_jokers)
        kept = rules.memo[_DECK_KEY] = tuple(deck)
    return list(kept)


def randint(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)``: the very number, drawn compiled (:func:`below`) where the
    generator draws as the standard library's does (the library's method is Python, some
    2,000 machine instructions a number).

    >>> x, y = random.Random(8), random.Random(8)
    >>> [randint(x, -3, 3) for _ in range(9)] == [y.randint(-3, 3) for _ in range(9)]
    True
    """
    if draws_as_library(rng):
        return a + below(rng, b - a + 1)
    return rng.randint(a, b)


def high_card_cut(seats: int, rng: random.Random) -> int:
    """Each player cuts for high card (2 low, ace high); ties cut again."""
    contenders = list(range(seats))
    while True:
        cuts = {s: randint(rng, 2, 14) for s in contenders}
        best = max(cuts.values())
        contenders = [s for s in contenders if cuts[s] == best]
        if len(contenders) == 1:
            return contenders[0]
