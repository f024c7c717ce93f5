"""What chance decides for a hand: the shuffled deck, the first player, the grabs."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

from mypy_extensions import i64, mypyc_attr

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


#: whether ``getrandbits(32 * m)`` holds the generator's m next words in order, the first
#: the lowest (CPython fills the number's words so on a little-endian machine)
_WORDS_IN_ORDER: Final = sys.byteorder == "little"
#: the standard generator's own ``getrandbits``, which draws them so
_LIBRARY_BITS: Final = random.Random.getrandbits

#: how ``random.Random`` (and a generator that supplies its own bits, as served games'
#: :class:`handfoot.game.fair.KeyedRandom` does) draws a number below n
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
    if not _WORDS_IN_ORDER or type(rng).getrandbits is not _LIBRARY_BITS:
        # (a generator that supplies its own bits, as a served game's does: its words
        # drawn many at once need not be the ones it draws one by one)
        _shuffle_by_draws(rng, cards)
        return
    # The library draws each card's place as the top bits of one 32-bit word of the
    # generator, drawing a word again where the number is too large (:func:`below`).
    # Here the words come in batches from one call: ``getrandbits(32 * m)`` gives the
    # next m words, the first the lowest (a call through Python for each card cost some
    # 400 machine instructions, most of a deal's shuffle). Each word places at most one
    # card, so a batch of as many words as places are left never draws one the library
    # would not: the generator is left where the library leaves it.
    i: i64 = len(cards) - 1
    n: i64 = i + 1
    k: i64 = 0  # the bits n takes (the library's n.bit_length())
    while n >> k:
        k += 1
    t: i64
    # (the cards moved as the objects they are: read as numbers, each was made again)
    held = cast(list[object], cards)
    while i > 0:
        m: i64 = i
        words = rng.getrandbits(32 * int(m)).to_bytes(4 * int(m), "little")
        for t in range(0, 4 * m, 4):
            # (the word's top k bits, from its top bytes: most places need one or two)
            j: i64 = words[t + 3]
            if k <= 8:
                j >>= 8 - k
            elif k <= 16:
                j = (j << 8 | words[t + 2]) >> (16 - k)
            else:
                j = (j << 24 | words[t + 2] << 16 | words[t + 1] << 8 | words[t]) >> (32 - k)
            if j < n:
                held[i], held[j] = held[j], held[i]
                i -= 1
                n = i + 1
                if not n >> (k - 1):  # n has one bit fewer
                    k -= 1


def _shuffle_by_draws(rng: random.Random, cards: list[Card]) -> None:
    """:func:`shuffle`, drawing each card's place by a call of its own."""
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
