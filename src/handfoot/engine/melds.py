"""Melds and books: what a meld is, the checks on its cards, and counting books.

These are pure functions of a rule set and cards; :mod:`handfoot.engine.checks`
uses them against a team's table.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple, Protocol

from mypy_extensions import mypyc_attr

from handfoot.cards import (
    NATURAL,
    NUM_CARDS,
    RANK,
    RANK_WORDS,
    SUIT,
    SUIT_SYMBOLS,
    WILD,
    Card,
    format_cards,
    is_red_three,
    is_three,
)
from handfoot.engine.errors import BadMeld
from handfoot.engine.settings import Settings, settings_of
from handfoot.rules import GoingOut, Rules, Words

RANK_MELD: Final = 0
SEQUENCE: Final = 1
WILD_MELD: Final = 2
TWOS: Final = (0, 1, 2, 3)


def most_wilds(naturals: int, max_wilds: int, naturals_exceed_wilds: bool) -> int:
    """How many wild cards a meld of ``naturals`` natural cards may hold: at most
    ``max_wilds`` (the rule set's ``meld.max_wilds``), and, where a meld must have more
    natural cards than wild cards (``meld.naturals_exceed_wilds``), fewer than its
    naturals (-1 where even none is too many: a meld of no naturals).

    >>> most_wilds(4, 3, True), most_wilds(2, 3, True), most_wilds(2, 3, False)
    (3, 1, 3)
    """
    most = naturals - 1 if naturals_exceed_wilds else max_wilds
    return most if most < max_wilds else max_wilds


def fewest_naturals(size: int, min_naturals: int, max_wilds: int,
                    naturals_exceed_wilds: bool) -> int:
    """The fewest natural cards a meld of ``size`` cards of one rank may hold (the rest
    wild): the question of :func:`most_wilds` asked the other way round.

    >>> fewest_naturals(7, 2, 3, True), fewest_naturals(7, 2, 6, False)
    (4, 2)
    """
    n = min_naturals
    while size - n > most_wilds(n, max_wilds, naturals_exceed_wilds):
        n += 1
    return n


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Meld:
    """A meld on the table; it is a book once it holds ``book_size`` cards."""

    __slots__ = ("cards", "high", "kind", "low", "naturals", "owner", "rank", "size", "suit",
                 "view", "wilds")
    wilds: int
    naturals: int
    low: int
    high: int

    def __init__(self, kind: int, rank: int, suit: int, cards: list[Card],
                 like: Meld | None = None) -> None:
        #: what a view made of this meld, as (cards, index, view): a cache for
        #: :mod:`handfoot.game.views` (cards are only ever added to a meld)
        self.view: tuple[int, int, object] | None = None
        #: the hand state that may change it in place (others copy it first: a clone
        #: shares its melds until one of them changes)
        self.owner: object | None = None
        self.kind = kind
        self.rank = rank
        self.suit = suit
        self.cards = cards
        #: how many cards it holds (kept with ``cards``: read far more often than changed)
        self.size = len(cards)
        if like is not None:  # a copy: the counts are the same
            self.wilds, self.naturals, self.low, self.high = (
                like.wilds, like.naturals, like.low, like.high)
            return
        # (fast path: docs/design.md#melds)
        wilds = 0
        low = high = RANK[cards[0]]
        for c in cards:
            wilds += WILD[c]
            r = RANK[c]
            if r < low:
                low = r
            elif r > high:
                high = r
        self.wilds = wilds
        self.naturals = self.size - wilds
        self.low = low
        self.high = high

    def copy(self) -> Meld:
        m = Meld(self.kind, self.rank, self.suit, self.cards[:], self)
        m.view = self.view
        return m

    def add(self, cards: tuple[Card, ...]) -> None:
        """Put more cards on this meld (already checked; a tuple, which compiled code
        reads directly)."""
        held = self.cards
        self.size += len(cards)
        for c in cards:
            held.append(c)  # (appended: compiled, an extend costs some 200 instructions)
            if WILD[c]:
                self.wilds += 1
            else:
                self.naturals += 1
                r = RANK[c]
                if r < self.low:
                    self.low = r
                if r > self.high:
                    self.high = r

    def describe(self) -> str:
        if self.kind == SEQUENCE:
            return f"{SUIT_SYMBOLS[self.suit]} sequence"
        if self.kind == WILD_MELD:
            return "wild cards"
        return RANK_WORDS[self.rank]

    def __repr__(self) -> str:
        return f"<Meld {self.describe()}: {format_cards(self.cards)}>"


class MeldShape(Protocol):
    """What counting books reads of a meld."""

    @property
    def kind(self) -> int: ...
    @property
    def wilds(self) -> int: ...
    @property
    def size(self) -> int: ...


class Shape(NamedTuple):
    """A meld as it would be (for counting books before a play is made)."""

    kind: int
    wilds: int
    size: int


def book_index(kind: int, size: int, wilds: int, book_size: int) -> int:
    """Which book a meld of ``kind``, ``size`` cards and ``wilds`` wild cards is, as an
    index of :func:`count_books`'s answer (0 clean, 1 dirty, 2 wild-card, 3 sequence),
    or -1 while it is not yet a book."""
    if size < book_size:
        return -1
    if kind == RANK_MELD:
        return 1 if wilds else 0
    return 2 if kind == WILD_MELD else 3


def count_books(melds: Iterable[MeldShape], book_size: int) -> tuple[int, int, int, int]:
    """Complete books among ``melds``: (clean, dirty, wild-card, sequence)."""
    clean = dirty = wild = seq = 0
    # (fast path: docs/design.md#melds)
    ms = melds if isinstance(melds, list) else list(melds)
    for i in range(len(ms)):
        m = ms[i]
        # (fast path: docs/design.md#melds)
        if isinstance(m, Meld):
            size, kind, wilds = m.size, m.kind, m.wilds
        else:
            size, kind, wilds = m.size, m.kind, m.wilds
        which = book_index(kind, size, wilds, book_size)
        if which == 0:
            clean += 1
        elif which == 1:
            dirty += 1
        elif which == 2:
            wild += 1
        elif which == 3:
            seq += 1
    return clean, dirty, wild, seq


@functools.lru_cache(maxsize=4096)
def books_missing(go: GoingOut, words: Words, clean: int, dirty: int, wild: int,
                  seq: int) -> str | None:
    """What a team with these complete books still needs to go out, in the rule set's
    words ("1 more red canasta"), or None."""
    need = []
    spare_clean = clean - go.clean_books
    if spare_clean < 0:
        need.append(f"{-spare_clean} more {words.name('clean', -spare_clean)}")
    dirty_have = dirty + (max(spare_clean, 0) if go.clean_counts_as_dirty else 0)
    if dirty_have < go.dirty_books:
        k = go.dirty_books - dirty_have
        need.append(f"{k} more {words.name('dirty', k)}")
    if wild < go.wild_books:
        k = go.wild_books - wild
        need.append(f"{k} more {words.name('wild', k)}")
    if seq < go.sequence_books:
        k = go.sequence_books - seq
        need.append(f"{k} more {words.name('sequence', k)}")
    return " and ".join(need) if need else None


def classify(rule_set: Rules, cards: Sequence[Card],
             settings: Settings | None = None) -> tuple[int, int, int]:
    """(kind, rank, suit) of a new meld's cards, or :class:`BadMeld` saying why not;
    ``settings``: the rule set's (:func:`settings_of`), where the caller holds them (a
    hand does: they are not looked up in the rule set's memo at each meld)."""
    # The usual meld (enough cards, naturals of one rank from 4 to ace, any wilds, no 3)
    # is told in one pass over its cards; any other is read in full by _classify, which
    # says what is wrong with it.
    st = settings if settings is not None else settings_of(rule_set)
    if len(cards) >= st.min_size:
        low = -1  # the naturals' rank less 2, -2 once a 3 or a second rank is seen
        for c in cards:
            if 8 <= c < 52:  # a natural (cards.NATURAL)
                if low == -1:
                    low = c >> 2
                elif c >> 2 != low:
                    low = -2
                    break
            elif 4 <= c < 8:  # a 3 (cards.is_three)
                low = -2
                break
        if low >= 0:
            return RANK_MELD, low + 2, -1
    return _classify(rule_set, cards)


def _classify(rule_set: Rules, cards: Sequence[Card]) -> tuple[int, int, int]:
    """:func:`classify`, every case read in full."""
    rules = rule_set.meld
    naturals = [c for c in cards if NATURAL[c]]
    threes = [c for c in cards if is_three(c)]
    if threes:
        black = rule_set.threes.black_melded != "never"
        if not black or any(is_red_three(c) for c in threes):
            which = "red 3s" if black else "3s"
            raise BadMeld(f"{which[:1].upper()}{which[1:]} cannot be melded "
                          f"({format_cards([c for c in threes if black <= is_red_three(c)])}).")
        if len(threes) != len(cards):
            raise BadMeld("A meld of black 3s holds black 3s only (no wild cards, no others).")
    if len(cards) < rules.min_size:
        raise BadMeld(f"A meld needs at least {rules.min_size} cards; "
                      f"{format_cards(cards)} is {len(cards)}.")
    if threes:
        return RANK_MELD, 3, -1
    if not naturals:
        if not rules.wild_melds:
            raise BadMeld("Wild cards cannot make a meld of their own in these rules.")
        return WILD_MELD, 0, -1
    ranks = {RANK[c] for c in naturals}
    if len(ranks) == 1:
        return RANK_MELD, RANK[naturals[0]], -1
    if rules.sequences:
        suits = {SUIT[c] for c in cards}
        sorted_ranks = sorted(RANK[c] for c in cards)
        if (len(naturals) == len(cards) and len(suits) == 1
                and len(set(sorted_ranks)) == len(sorted_ranks)
                and sorted_ranks[-1] - sorted_ranks[0] == len(sorted_ranks) - 1):
            if len(cards) > rules.book_size:
                raise BadMeld(f"A {rule_set.words.name('sequence')} is complete at "
                              f"{rules.book_size} cards.")
            return SEQUENCE, 0, SUIT[cards[0]]
        if len(suits) == 1 and len(naturals) == len(cards):
            raise BadMeld(f"{format_cards(cards)} is not an unbroken sequence in one suit.")
        if len(naturals) < len(cards) and len({SUIT[c] for c in naturals}) == 1 \
                and len(ranks) == len(naturals):
            # Naturals of one suit and a wild: a sequence meant, which takes no wild card.
            name = rule_set.words.name("sequence")
            raise BadMeld(f"A {name} takes no wild card: {format_cards(cards)} holds "
                          f"{format_cards([c for c in cards if WILD[c]])}. A {name} is "
                          "natural cards of one suit in sequence.")
    raise BadMeld(f"A meld is cards of one rank: {format_cards(cards)} mixes "
                  + ", ".join(RANK_WORDS[r] for r in sorted(ranks)) + ".")


def check_rank_counts(rule_set: Rules, rank: int, naturals: int, wilds: int,
                      complete_before: bool, added_wilds: int,
                      settings: Settings | None = None) -> None:
    """The natural and wild cards a meld of ``rank`` would hold, against the rules
    (``settings``: the rule set's, where the caller holds them)."""
    # (compiled fields: the rule set's are read by name)
    rules = settings if settings is not None else settings_of(rule_set)
    if complete_before and added_wilds and not rules.burn_wilds:
        raise BadMeld(f"Wild cards cannot be added to a complete {rule_set.words.book}.")
    if naturals < rules.min_naturals:
        raise BadMeld(f"A meld of {RANK_WORDS[rank]} needs at least {rules.min_naturals} "
                      "natural cards.")
    if wilds <= most_wilds(naturals, rules.max_wilds, rules.naturals_exceed_wilds):
        return
    if wilds > rules.max_wilds:
        raise BadMeld(f"A meld may hold at most {rules.max_wilds} wild cards; "
                      f"this meld of {RANK_WORDS[rank]} would hold {wilds}.")
    raise BadMeld("A meld needs more natural cards than wild cards; this meld of "
                  f"{RANK_WORDS[rank]} would have {naturals} natural and {wilds} wild.")


def check_table_meld(rules: Rules, cards: Sequence[Card]) -> int:
    """The kind of a meld as it lies on a table at the end of a hand (RANK_MELD,
    SEQUENCE or WILD_MELD), checked with the same rules as in play; raises
    :class:`BadMeld` if the cards could not be a meld or book under ``rules``."""
    kind, rank, _ = classify(rules, list(cards))
    if kind == RANK_MELD:
        wilds = sum(1 for c in cards if WILD[c])
        # Naturals burned on a complete book do not change its wilds, so check the book.
        check_rank_counts(rules, rank, len(cards) - wilds, wilds, False, 0)
    return kind


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Pending:
    """What one lay-down (or a pile pick-up with its opening) would put on the table.

    (A plain class: as a dataclass, its list of cards used was made by an interpreted
    ``default_factory`` every time, and a check of a pick-up or a lay-down makes one.)"""

    __slots__ = ("books", "clean", "dirty", "used", "value")

    def __init__(self) -> None:
        self.value = 0
        self.clean = 0
        self.dirty = 0
        self.books = 0
        #: how many of each card the lay-down takes from the hand
        self.used: list[int] = [0] * NUM_CARDS


def meld_order(cards: Sequence[Card]) -> tuple[bool, int]:
    """Melds of one action are checked and laid wild-card melds first, then longest first."""
    return (not all(WILD[c] for c in cards), -len(cards))
