"""The score of a hand, itemised, for each team.

A team scores the value of every card it has on the table (books and unfinished
melds, burned cards included), its book bonuses, the going-out bonus, the red 3s
on its board and its players' exact grabs; it loses the value of every card still
held in its players' hands and unplayed feet (3s count as the rule set says).
The same function scores a hand played in the engine and a hand typed in from a
real table (:mod:`handfoot.scorekeeper`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from handfoot.cards import RANK, SEVEN, WILD, Card, is_red, is_three
from handfoot.engine.melds import SEQUENCE, WILD_MELD
from handfoot.rules import Rules, Words

if TYPE_CHECKING:
    from handfoot.engine import Hand


@mypyc_attr(native_class=False)  # frozen: pickled and copied as a Python class
@dataclass(frozen=True, slots=True)
class TeamScore:
    """One team's score for one hand, item by item; ``total`` is their sum."""

    team: int
    clean_books: int = 0
    clean_book_points: int = 0
    dirty_books: int = 0
    dirty_book_points: int = 0
    wild_books: int = 0
    wild_book_points: int = 0
    sequence_books: int = 0
    sequence_book_points: int = 0
    red_sevens_books: int = 0
    red_sevens_book_points: int = 0
    table_cards: int = 0  #: the value of every card on the table
    held_cards: int = 0  #: minus the value of cards (not 3s) left in hands and feet
    threes: int = 0  #: what 3s left in hands and feet cost
    red_threes: int = 0  #: red 3s laid on the board
    red_threes_count: int = 0
    going_out: int = 0
    deal_bonus: int = 0
    penalties: int = 0  #: short openings shown (played, or entered by a scorer), other penalties
    total: int = 0

    def lines(self, words: Words | None = None) -> list[tuple[str, int]]:
        """(label, points) for each item that is not zero, in the order of a score sheet,
        books named in the rule set's ``words`` ("Red canastas (2)")."""
        w = words or Words()
        out = []
        for label, count, points in (
            (w.title("clean"), self.clean_books, self.clean_book_points),
            (w.title("dirty"), self.dirty_books, self.dirty_book_points),
            (w.title("wild"), self.wild_books, self.wild_book_points),
            (w.title("sequence"), self.sequence_books, self.sequence_book_points),
            (w.title("red-sevens"), self.red_sevens_books, self.red_sevens_book_points),
            ("Red 3s on the board", self.red_threes_count, self.red_threes),
        ):
            if count or points:
                out.append((f"{label} ({count})", points))
        for label, points in (
            ("Cards on the table", self.table_cards),
            ("Cards left in hand and foot", self.held_cards),
            ("3s left in hand and foot", self.threes),
            ("Going out", self.going_out),
            ("Exact deal", self.deal_bonus),
            ("Penalties", self.penalties),
        ):
            if points:
                out.append((label, points))
        return out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


_COUNTS = frozenset({"clean_books", "dirty_books", "wild_books", "sequence_books",
                     "red_sevens_books", "red_threes_count"})


def book_kind(rules: Rules, kind: int, cards: Sequence[Card]) -> str | None:
    """"clean", "dirty", "wild", "sequence", "red-sevens", or None for an unfinished meld."""
    return _book_kind(kind, cards, rules.meld.book_size, bool(rules.scores.red_sevens_book))


def _book_kind(kind: int, cards: Sequence[Card], size: int, red_sevens: bool) -> str | None:
    """:func:`book_kind`, given the rule set's book size and whether red sevens make a
    book of their own (read once for a whole team's melds: compiled, each is looked up
    by name in the rule set)."""
    if len(cards) < size:
        return None
    if kind == WILD_MELD:
        return "wild"
    if kind == SEQUENCE:
        return "sequence"
    # (loops: compiled, any() and all() of a generator each made one and drove it)
    for c in cards:
        if WILD[c]:
            return "dirty"
    if red_sevens and RANK[cards[0]] == SEVEN:
        for c in cards:
            if not is_red(c):
                return "clean"
        return "red-sevens"
    return "clean"


def red_threes_points(rules: Rules, count: int) -> int:
    s = rules.scores
    if s.red_threes_set and count >= s.red_threes_set:
        return s.red_threes_set_bonus + (count - s.red_threes_set) * s.red_three_on_board
    return count * s.red_three_on_board


def score_team(rules: Rules, team: int, melds: Iterable[tuple[int, Sequence[Card]]],
               held: Iterable[Card], red_threes_on_board: int = 0, went_out: bool = False,
               exact_grabs: int = 0, penalties: int = 0) -> TeamScore:
    """Score one team. ``melds`` are (kind, cards) pairs for its melds and books;
    ``held`` is every card left in its players' hands and unplayed feet."""
    values = rules.card_value
    held_values = rules.held_value
    counts = dict.fromkeys(BOOK_KINDS, 0)
    table = 0
    size = rules.meld.book_size
    red_sevens = bool(rules.scores.red_sevens_book)
    for kind, cards in melds:
        for c in cards:  # (a loop: compiled, sum() of a generator went through Python)
            table += values[c]
        which = _book_kind(kind, cards, size, red_sevens)
        if which:
            counts[which] = counts[which] + 1
    held_cards = threes = 0
    for c in held:
        if is_three(c):
            threes += held_values[c]
        else:
            held_cards += held_values[c]
    return team_score(rules, team, counts, table, held_cards, threes, red_threes_on_board,
                      went_out, exact_grabs, penalties)


#: the kinds of book, as :func:`book_kind` names them
BOOK_KINDS: Final = ("clean", "dirty", "wild", "sequence", "red-sevens")


#: TeamScore's fields, in their order
_FIELDS: Final = tuple(f.name for f in fields(TeamScore))


def team_score(rules: Rules, team: int, books: dict[str, int], table_cards: int,
               held_cards: int, threes: int, red_threes_on_board: int = 0,
               went_out: bool = False, exact_grabs: int = 0, penalties: int = 0
               ) -> TeamScore:
    """A team's score from its totals: the complete books of each kind in ``books``, the
    value of its cards on the table, what its cards left (``held_cards``, not 3s) and
    its 3s left cost (both 0 or less), and the extras."""
    s = rules.scores
    clean, dirty, wild = books.get("clean", 0), books.get("dirty", 0), books.get("wild", 0)
    runs, sevens = books.get("sequence", 0), books.get("red-sevens", 0)
    clean_points, dirty_points = clean * s.clean_book, dirty * s.dirty_book
    wild_points, run_points = wild * s.wild_book, runs * s.sequence_book
    sevens_points = sevens * s.red_sevens_book
    red_threes = red_threes_points(rules, red_threes_on_board)
    going_out = s.going_out if went_out else 0
    deal_bonus = exact_grabs * rules.deal.exact_grab_bonus
    penalty = -abs(penalties)
    # every item but the counts (:data:`_COUNTS`)
    total = (clean_points + dirty_points + wild_points + run_points + sevens_points
             + table_cards + held_cards + threes + red_threes + going_out + deal_bonus
             + penalty)
    # (the fields set one by one from here: the frozen dataclass's own __init__ runs as
    # Python, some 28,000 machine instructions a team at the end of each hand, and with
    # keywords matched from a dict some 38,000)
    score = TeamScore.__new__(TeamScore)
    values = (team, clean, clean_points, dirty, dirty_points, wild, wild_points,
              runs, run_points, sevens, sevens_points, table_cards, held_cards,
              threes, red_threes, red_threes_on_board, going_out, deal_bonus, penalty, total)
    for name, value in zip(_FIELDS, values, strict=True):
        object.__setattr__(score, name, value)
    return score


def score_hand(hand: Hand) -> list[TeamScore]:
    """The itemised score of every team for a hand that is over (or stands as it is)."""
    rules = hand.rules
    target = rules.deal.hand_size + rules.deal.foot_size
    out = []
    went_out_team = None if hand.went_out is None else hand.team_of[hand.went_out]
    # (an opening shown short costs what the scorer's ``short_openings`` does)
    short_penalty = rules.opening.short_penalty
    for team in range(hand.teams):
        held: list[Card] = []
        exact = 0
        for seat in hand.team_seats(team):
            held.extend(hand.hand_cards(seat))
            held.extend(hand.feet[seat] or ())
            if hand.deal.grabs and hand.deal.grabs[seat] == target:
                exact += 1
        melds = [(m.kind, m.cards) for m in hand.melds[team]]
        out.append(score_team(rules, team, melds, held, len(hand.red_threes[team]),
                              went_out=went_out_team == team and (
                                  hand.ended_by == "out"
                                  or rules.going_out.hand_ends == "stock-drawn"),
                              exact_grabs=exact,
                              penalties=hand.short_openings[team] * short_penalty))
    return out
