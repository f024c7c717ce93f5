"""Cards as small ints, and the notation players type.

A card is an ``int``: ``(rank - 2) * 4 + suit`` for the 52 ordinary cards and
``JOKER`` (52) for a joker. Several decks are shuffled together, so the same
card occurs several times; hands are counted, not listed, on the hot path.

>>> parse_card("7H"), format_card(parse_card("10s")), format_card(JOKER)
(22, '10♠', 'Joker')
>>> rank_of(parse_card("AD")), is_red(parse_card("3D")), is_wild(parse_card("2C"))
(14, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from mypy_extensions import i64

Card = int
Rank = int
Suit = int

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)

TWO: Final = 2
THREE: Final = 3
SEVEN: Final = 7
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
ACE: Final = 14
JOKER_RANK: Final = 15
#: Ranks that can be melded as naturals: 4 to ace (3s are discards only in every sheet).
NATURAL_RANKS: Final = tuple(range(4, 15))

JOKER: Final = 52
NUM_CARDS: Final = 53  #: distinct kinds of card; count vectors have this length

SUIT_LETTERS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_NAMES: Final = {
    2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
    11: "J", 12: "Q", 13: "K", 14: "A", 15: "Joker",
}
RANK_WORDS: Final = {
    2: "2s", 3: "3s", 4: "4s", 5: "5s", 6: "6s", 7: "7s", 8: "8s", 9: "9s", 10: "10s",
    11: "Jacks", 12: "Queens", 13: "Kings", 14: "Aces", 15: "Jokers",
}
_RANK_PARSE: Final = {
    "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "T": 10,
    "J": 11, "Q": 12, "K": 13, "A": 14,
}


class CardError(ValueError):
    """A card was written in a way we cannot read."""


def card(rank: Rank, suit: Suit) -> Card:
    """The card of this rank and suit (``rank`` 2..14); use ``JOKER`` for a joker."""
    return (rank - 2) * 4 + suit


def rank_of(c: Card) -> Rank:
    return JOKER_RANK if c == JOKER else (c >> 2) + 2


def suit_of(c: Card) -> Suit:
    """The suit, or -1 for a joker."""
    return -1 if c == JOKER else c & 3


def is_red(c: Card) -> bool:
    return c != JOKER and (c & 3) in (DIAMONDS, HEARTS)


def is_wild(c: Card) -> bool:
    """Twos and jokers are wild in every sheet."""
    return c == JOKER or c < 4


def is_three(c: Card) -> bool:
    return 4 <= c < 8


def is_red_three(c: Card) -> bool:
    return c in (5, 6)


def is_black_three(c: Card) -> bool:
    return c in (4, 7)


def is_natural(c: Card) -> bool:
    """A card that can be melded as itself: 4 to ace."""
    return 8 <= c < 52


#: Precomputed tables for the hot path, indexed by card.
RANK: Final = tuple(rank_of(c) for c in range(NUM_CARDS))
SUIT: Final = tuple(suit_of(c) for c in range(NUM_CARDS))
WILD: Final = tuple(is_wild(c) for c in range(NUM_CARDS))
NATURAL: Final = tuple(is_natural(c) for c in range(NUM_CARDS))
WILD_CARDS: Final = (0, 1, 2, 3, JOKER)

# Sets of cards as the bits of one number, bit ``c`` for card ``c`` (as python-chess's
# bitboards, one bit a square): four bits a rank, clubs lowest, the joker bit 52. On the
# hot path they are machine integers (``i64``); every mask here is a ``Final`` constant,
# which compiled code reads as a literal.
CardSet = i64
BB_EMPTY: Final = 0
BB_TWOS: Final = 0xF  #: 2♣ 2♦ 2♥ 2♠
BB_BLACK_THREES: Final = 0x90  #: 3♣ and 3♠
BB_RED_THREES: Final = 0x60  #: 3♦ and 3♥
BB_NATURALS: Final = 0xFFFFFFFFFFF00  #: 4♣ to A♠, bits 8 to 51
BB_JOKER: Final = 0x10000000000000  #: bit 52
FIRST_NATURAL: Final = 8  #: the card (and bit) of the lowest natural, 4♣
BB_RANK_SUITS: Final = 0xF  #: one rank's four suits, shifted down to bit 0
#: the clubs of the naturals: a suit's naturals are ``(cards >> suit) & BB_NATURAL_CLUBS``,
#: one bit a rank, four bits apart
BB_NATURAL_CLUBS: Final = 0x1111111111100
#: the lowest suit among a rank's four bits, indexed by those bits (-1 for none)
LOWEST_SUIT: Final[tuple[int, ...]] = (-1, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0)
# every rank's bits above its lowest suit, above its lowest two, its highest: where a
# card of a lower suit of the same rank lies one, two or three bits down
_BB_ABOVE_1: Final = 0xEEEEEEEEEEEEE
_BB_ABOVE_2: Final = 0xCCCCCCCCCCCCC
_BB_ABOVE_3: Final = 0x8888888888888


def rank_suits(cards: CardSet, rank: Rank) -> int:
    """The suits of ``rank`` in ``cards``, as four bits (clubs lowest).

    >>> rank_suits(parse_card_set("7H 7S 8C"), 7)
    12
    """
    return (cards >> ((rank - 2) * 4)) & BB_RANK_SUITS


def lowest_of_each_rank(cards: CardSet) -> CardSet:
    """The lowest card (by suit) of each rank in ``cards`` (the joker's bit kept).

    >>> format_card_set(lowest_of_each_rank(parse_card_set("7H 7S 8D 8H 2S JK")))
    '7♥ 8♦ 2♠ Joker'
    """
    return (cards & ~((cards << 1) & _BB_ABOVE_1) & ~((cards << 2) & _BB_ABOVE_2)
            & ~((cards << 3) & _BB_ABOVE_3))


def lowest_suit(suits: i64) -> i64:
    """The lowest suit among a rank's four bits (not none): :data:`LOWEST_SUIT`, worked
    out rather than looked up (fast path: docs/design.md#card-sets).

    >>> [lowest_suit(s) for s in (1, 2, 4, 8, 12, 15)]
    [0, 1, 2, 3, 2, 0]
    """
    low = suits & -suits
    return (low >> 1) - (low >> 3)


def lowest_card(cards: CardSet) -> CardSet:
    """The bit of the lowest card in ``cards`` (0 for none)."""
    return cards & -cards


def popcount(cards: CardSet) -> int:
    """How many cards ``cards`` holds.

    >>> popcount(BB_TWOS | BB_JOKER)
    5
    """
    n: i64 = 0
    while cards:
        cards &= cards - 1
        n += 1
    return n


def scan_forward(cards: CardSet) -> Iterator[Card]:
    """The cards of ``cards``, lowest first (python-chess's name).

    >>> list(scan_forward(BB_BLACK_THREES | BB_JOKER))
    [4, 7, 52]
    """
    c = 0
    while cards:
        if cards & 1:
            yield c
        cards >>= 1
        c += 1


def card_set(cards: Iterable[Card]) -> CardSet:
    """The set of ``cards`` (each card once, however many are given)."""
    bits: i64 = 0
    one: i64 = 1 if bits == 0 else 0  # (not a literal 1: see docs/design.md#card-sets)
    for c in cards:
        bits |= one << c
    return bits


def parse_card_set(text: str) -> CardSet:
    return card_set(parse_cards(text))


def format_card_set(cards: CardSet) -> str:
    return format_cards(scan_forward(cards))


def parse_card(text: str) -> Card:
    """Read a card such as ``7H``, ``10s``, ``TS``, ``Q♥``, ``2c`` or ``JK``/``Joker``."""
    t = text.strip().upper()
    if t in ("JK", "JOKER", "JKR", "*", "🃏"):
        return JOKER
    if len(t) < 2:
        raise CardError(f"'{text}' is not a card; write it like 7H, 10S, QD, AC or JK")
    rank_text, suit_text = t[:-1], t[-1]
    symbol = SUIT_SYMBOLS.find(suit_text)
    suit = symbol if symbol >= 0 else SUIT_LETTERS.find(suit_text)
    rank = _RANK_PARSE.get(rank_text)
    if suit < 0 or rank is None:
        raise CardError(f"'{text}' is not a card; write it like 7H, 10S, QD, AC or JK")
    return card(rank, suit)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read several cards separated by spaces or commas."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(p) for p in parts)


def format_card(c: Card) -> str:
    """``7♥``, ``10♠``, ``Joker``."""
    if c == JOKER:
        return "Joker"
    return RANK_NAMES[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)]


def card_code(c: Card) -> str:
    """The plain ASCII notation used in records and typed input: ``7H``, ``10S``, ``JK``."""
    if 0 <= c < NUM_CARDS:
        return _CODES[c]  # (every state message names a few hundred cards)
    return RANK_NAMES[rank_of(c)] + SUIT_LETTERS[suit_of(c)]


_CODES: Final = tuple("JK" if c == JOKER else RANK_NAMES[rank_of(c)] + SUIT_LETTERS[suit_of(c)]
                      for c in range(NUM_CARDS))


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(c) for c in sort_cards(cards))


def _sort_key(c: Card) -> tuple[int, int]:
    r = rank_of(c)
    order = 20 + r if r in (TWO, JOKER_RANK) else r
    return (order, suit_of(c))


_SORT_KEYS: Final = tuple(_sort_key(c) for c in range(NUM_CARDS))


def sort_key(c: Card) -> tuple[int, int]:
    """Sorted by rank as players hold them: 3s, 4 .. A, then 2s and jokers."""
    return _SORT_KEYS[c]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=_SORT_KEYS.__getitem__)


_SORTED_ORDER: Final = tuple(sorted(range(NUM_CARDS), key=_SORT_KEYS.__getitem__))
#: ``_REPEATS[c][k]`` is the list of ``k`` copies of ``c`` (up to eight decks' worth)
_REPEATS: Final = tuple(tuple([c] * k for k in range(9)) for c in range(NUM_CARDS))


#: no cards at all, as a count vector
NO_CARDS: Final = (0,) * NUM_CARDS


def sorted_from_counts(counts: Sequence[int]) -> list[Card]:
    """The cards of a count vector, sorted as :func:`sort_cards` sorts them.

    >>> sorted_from_counts(counts_of([52, 8, 0, 8, 4]))
    [4, 8, 8, 0, 52]
    """
    out: list[Card] = []
    for c in _SORTED_ORDER:
        k = counts[c]
        if k:
            out += _REPEATS[c][k] if k < 9 else [c] * k
    return out


def counts_of(cards: Iterable[Card]) -> list[int]:
    """A count vector (length ``NUM_CARDS``) for a collection of cards."""
    counts = [0] * NUM_CARDS
    for c in cards:
        counts[c] = counts[c] + 1
    return counts


def cards_of(counts: list[int], start: int = 0, stop: int = NUM_CARDS,
             step: int = 1) -> list[Card]:
    """The cards of a count vector, sorted by card number; only those from ``start`` to
    ``stop`` by ``step`` where given (the 2s: ``cards_of(hand, 0, 4)``).

    >>> cards_of(counts_of([52, 8, 0, 8, 4])), cards_of(counts_of([7, 5, 4, 4]), 4, 8, 3)
    ([0, 4, 8, 8, 52], [4, 4, 7])
    """
    # (fast path: docs/design.md#card-sets)
    out: list[Card] = []
    c = start
    while c < stop:
        n = counts[c]
        while n > 0:
            out.append(c)
            n -= 1
        c += step
    return out
