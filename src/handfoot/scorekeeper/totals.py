"""A team's score entered by totals, as the printed score sheet asks for them.

At many tables the scorer does not write every meld down: they count each kind of book,
add up the card points on the table and the points of the cards left, and count the 3s.
A ``[teams.totals]`` table in a score file (docs/scorekeeper.md) gives those totals;
they are checked for what totals can show (a count of books the decks allow, card
points a sum of card values) and scored like melds written out card by card.

>>> from handfoot.rules import preset
>>> rules = preset("texas-good-sam")
>>> t = read_totals(rules, {"clean_books": 2, "dirty_books": 3, "table_cards": 520,
...                         "cards_left": 15, "black_threes_left": 1}, "team 0")
>>> t.books["clean"], t.held_cards, t.threes
(2, -15, -100)
>>> try:
...     read_totals(rules, {"table_cards": 523}, "team 0 (Us)")
... except ScoreSheetError as e:
...     print(e)  # doctest: +ELLIPSIS
team 0 (Us), totals.table_cards = 523: card points are a sum of card values, all multiples...
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from handfoot.cards import JOKER, NUM_CARDS, RANK, WILD, Card, is_black_three, is_red_three
from handfoot.engine.melds import fewest_naturals
from handfoot.rules import Rules


class ScoreSheetError(ValueError):
    """A score file that cannot be read or does not fit the rules (the message names the
    team, meld, player or key at fault)."""


#: the keys of ``[teams.totals]``: a kind of book (as :func:`handfoot.game.scoring.book_kind`
#: names it) for each count of books
BOOK_KEYS = {"clean_books": "clean", "dirty_books": "dirty", "wild_books": "wild",
             "sequence_books": "sequence", "red_sevens_books": "red-sevens"}
POINT_KEYS = ("table_cards", "cards_left")
THREE_KEYS = ("red_threes_left", "black_threes_left")
TOTAL_KEYS = (*BOOK_KEYS, *POINT_KEYS, *THREE_KEYS)


@dataclass(frozen=True, slots=True)
class Totals:
    """One team's totals, read and checked."""

    books: dict[str, int]  #: complete books by kind
    table_cards: int  #: the value of every card on the table
    held_cards: int  #: minus the value of the cards (not 3s) left in hands and feet
    threes: int  #: what the 3s left in hands and feet cost (0 or less)
    red_threes_left: int
    black_threes_left: int


@dataclass(frozen=True, slots=True)
class Usage:
    """The fewest cards a team's table and hands can hold: natural cards of 4 to ace,
    wild cards, red 3s and black 3s."""

    naturals: int = 0
    wilds: int = 0
    red_threes: int = 0
    black_threes: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.naturals + other.naturals, self.wilds + other.wilds,
                     self.red_threes + other.red_threes, self.black_threes + other.black_threes)


def cards_usage(cards: list[Card], red_threes_on_board: int = 0) -> Usage:
    """What cards written out one by one use."""
    naturals = sum(1 for c in cards if not WILD[c] and RANK[c] != 3)
    return Usage(naturals, sum(1 for c in cards if WILD[c]),
                 sum(1 for c in cards if is_red_three(c)) + red_threes_on_board,
                 sum(1 for c in cards if is_black_three(c)))


def deck_usage(rules: Rules) -> Usage:
    """What the rule set's decks hold."""
    d = rules.num_decks
    jokers = d * rules.deck.jokers_per_deck + rules.deck.extra_jokers
    return Usage(11 * 4 * d, 4 * d + jokers, 2 * d, 2 * d)


def _count(data: dict[str, Any], key: str, where: str) -> int:
    value = data.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ScoreSheetError(f"{where}, totals.{key} must be a whole number, 0 or more")
    return value


def _step(rules: Rules) -> int:
    """Every card's value is a multiple of this (5 in every preset)."""
    return math.gcd(*(v for v in rules.card_value if v))


def min_book_points(rules: Rules, kind: str) -> int:
    """The fewest card points a complete book of ``kind`` can hold."""
    size, m = rules.meld.book_size, rules.meld
    natural = sorted(rules.card_value[c] for c in range(NUM_CARDS)
                     if not WILD[c] and RANK[c] != 3)[0]
    wild = min(rules.card_value[c] for c in range(NUM_CARDS) if WILD[c])
    if kind == "clean":
        return size * natural
    if kind == "dirty":
        return min((size - w) * natural + w * wild for w in range(1, m.max_wilds + 1))
    if kind == "wild":
        return size * wild
    if kind == "red-sevens":
        return size * min(rules.card_value[c] for c in range(NUM_CARDS) if RANK[c] == 7)
    by_rank = [min(rules.card_value[c] for c in range(NUM_CARDS) if RANK[c] == r)
               for r in range(4, 15)]
    return min(sum(by_rank[i:i + size]) for i in range(len(by_rank) - size + 1))


def dirty_naturals(rules: Rules) -> int:
    """The fewest natural cards in a complete book with wild cards."""
    m = rules.meld
    return max(fewest_naturals(m.book_size, m.min_naturals, m.max_wilds,
                               m.naturals_exceed_wilds), 1)


def books_usage(rules: Rules, books: dict[str, int]) -> Usage:
    """The fewest cards these complete books hold."""
    size = rules.meld.book_size
    naturals = (books["clean"] + books["sequence"] + books["red-sevens"]) * size \
        + books["dirty"] * dirty_naturals(rules)
    return Usage(naturals, books["dirty"] + books["wild"] * size)


def book_limits(rules: Rules) -> dict[str, int]:
    """The most books of each kind one team can have with the rule set's decks."""
    d, size, m = rules.num_decks, rules.meld.book_size, rules.meld
    per_rank = 4 * d // size
    if m.books_per_rank:
        per_rank = min(per_rank, m.books_per_rank)
    wilds = deck_usage(rules).wilds
    return {
        "clean": 11 * per_rank,
        "dirty": min(11 * (4 * d // dirty_naturals(rules)), wilds) if m.max_wilds else 0,
        "wild": wilds // size if m.wild_melds else 0,
        "sequence": 4 * d * (11 // size) if m.sequences else 0,
        "red-sevens": 2 * d // size if rules.scores.red_sevens_book else 0,
    }


def read_totals(rules: Rules, data: Any, where: str) -> Totals:
    """A team's ``[teams.totals]``, checked on its own."""
    if not isinstance(data, dict):
        raise ScoreSheetError(f"{where}: totals must be a table, like "
                              "totals = {clean_books = 2, table_cards = 520}")
    unknown = set(data) - set(TOTAL_KEYS)
    if unknown:
        raise ScoreSheetError(f"{where}: unknown total(s) {', '.join(sorted(unknown))}; the "
                              f"totals are {', '.join(TOTAL_KEYS)}")
    w = rules.words
    books = {kind: _count(data, key, where) for key, kind in BOOK_KEYS.items()}
    limits = book_limits(rules)
    for key, kind in BOOK_KEYS.items():
        n = books[kind]
        if n > limits[kind]:
            if limits[kind] == 0:
                raise ScoreSheetError(f"{where}, totals.{key} = {n}: {rules.name} has no "
                                      f"{w.name(kind, 2)}")
            raise ScoreSheetError(f"{where}, totals.{key} = {n}: the {rules.num_decks} decks "
                                  f"of {rules.name} make at most {limits[kind]} "
                                  f"{w.name(kind, 2)} for a team")
    step = _step(rules)
    whole_deck = sum(rules.card_value[c] * n for c, n in _deck_counts(rules).items())
    points = {}
    for key in POINT_KEYS:
        value = _count(data, key, where)
        if step > 1 and value % step:
            raise ScoreSheetError(f"{where}, totals.{key} = {value}: card points are a sum "
                                  f"of card values, all multiples of {step} in "
                                  f"{rules.name}")
        if value > whole_deck:
            raise ScoreSheetError(f"{where}, totals.{key} = {value}: every card of the "
                                  f"{rules.num_decks} decks together counts {whole_deck}")
        points[key] = value
    least = sum(n * min_book_points(rules, kind) for kind, n in books.items() if n)
    if points["table_cards"] < least:
        named = " and ".join(f"{n} {w.name(kind, n)}" for kind, n in books.items() if n)
        raise ScoreSheetError(f"{where}, totals.table_cards = {points['table_cards']}: "
                              f"{named} hold at least {least} points of cards")
    red, black = (_count(data, key, where) for key in THREE_KEYS)
    s = rules.scores
    return Totals(books, points["table_cards"], -points["cards_left"],
                  red * s.red_three_held + black * s.black_three_held, red, black)


def totals_usage(rules: Rules, totals: Totals, red_threes_on_board: int) -> Usage:
    return books_usage(rules, totals.books) + Usage(
        0, 0, totals.red_threes_left + red_threes_on_board, totals.black_threes_left)


def check_usage(rules: Rules, usage: Usage, where: str) -> None:
    """The cards a sheet uses, at the least, fit in the rule set's decks."""
    have = deck_usage(rules)
    decks = f"the {rules.num_decks} decks of {rules.name}"
    for what, need, held in (
            ("natural cards (4s to aces)", usage.naturals, have.naturals),
            ("wild cards", usage.wilds, have.wilds),
            ("red 3s", usage.red_threes, have.red_threes),
            ("black 3s", usage.black_threes, have.black_threes)):
        if need > held:
            least = "" if what.endswith("3s") else "at least "
            raise ScoreSheetError(f"{where}: the sheet has {least}{need} {what}, but "
                                  f"{decks} hold only {held}")


def _deck_counts(rules: Rules) -> dict[Card, int]:
    d = rules.num_decks
    out = {c: d for c in range(NUM_CARDS) if c != JOKER}
    out[JOKER] = d * rules.deck.jokers_per_deck + rules.deck.extra_jokers
    return out
