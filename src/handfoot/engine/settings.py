"""The settings the engine reads at every move, in one compiled object per rule set.

A rule set (:class:`handfoot.rules.Rules`) is made of frozen dataclasses that stay
plain Python: they are read from TOML, validated, compared, pickled and copied with
``dataclasses.replace``. Read from compiled code, each of their fields is a lookup by
name; listing the moves read some twenty-five of them every time. :class:`Settings`
holds the same values (a copy, never a second source: it is made from the rule set and
from nothing else) as fields of a compiled class, which compiled code reads directly.
It is made once per rule set (:func:`settings_of`) and shared by every hand played
under it.

>>> from handfoot.rules import preset
>>> s = settings_of(preset("samba"))
>>> s.min_size, s.sequences, s.red_on_board, s is settings_of(preset("samba"))
(3, True, True, True)
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64, mypyc_attr

from handfoot.cards import NATURAL, NUM_CARDS, RANK, counts_of
from handfoot.engine.deal import full_deck
from handfoot.rules import Rules

#: the key of a rule set's :class:`Settings` in its memo (the memo's other keys are
#: numbers: see :attr:`handfoot.rules.Rules.memo`)
_KEY: Final = "engine-settings"


def _usual_classes(by_card: bool) -> tuple[int, ...]:
    """The usual card classes (see :attr:`Settings.plain_classes`); ``by_card``: each
    natural of 4 to ace its own class."""
    return tuple(0 if c < 4 else 4 if c in (4, 7) else 5 if c < 8 else c if by_card
                 else c // 4 * 4 for c in range(NUM_CARDS))


@mypyc_attr(serializable=True)
class Settings:
    """A rule set's settings as the engine reads them at every move (see the module)."""

    def __init__(self, rules: Rules) -> None:
        m = rules.meld
        self.min_size: int = m.min_size
        self.min_naturals: int = m.min_naturals
        self.max_wilds: int = m.max_wilds
        self.naturals_exceed_wilds: bool = m.naturals_exceed_wilds
        self.one_open_meld_per_rank: bool = m.one_open_meld_per_rank
        self.books_per_rank: int = m.books_per_rank
        self.burn_wilds: bool = m.burn_wilds
        self.book_size: int = m.book_size
        self.sequences: bool = m.sequences
        self.wild_melds: bool = m.wild_melds
        self.wild_meld_blocks_wilds: bool = m.wild_meld_blocks_wilds
        o = rules.opening
        #: what an opening must hold besides its points (``opening``): clean melds and
        #: dirty melds of a rank, and complete books
        self.opening_clean: int = o.clean_melds
        self.opening_dirty: int = o.dirty_melds
        self.opening_books: int = o.books
        #: what a team loses for melds laid out for its opening and taken back short of
        #: it (``opening.short_penalty``; 0: nothing)
        self.short_penalty: int = o.short_penalty
        #: the plays of this turn may be taken back until the discard (``turn.take_back_turn``)
        self.take_back_turn: bool = rules.turn.take_back_turn
        black = rules.threes.black_melded
        #: black 3s are melded at all (``threes.black_melded`` is not "never")
        self.black_melded: bool = black != "never"
        #: black 3s are melded only to go out
        self.black_to_go_out: bool = black == "to-go-out"
        #: red 3s go on the board as they come
        self.red_on_board: bool = rules.threes.red == "board"
        #: the first player may take the upcard (``turn.first_turn_upcard`` is not "no")
        self.upcard: bool = rules.turn.first_turn_upcard != "no"
        #: ``turn.first_turn_upcard``: "no", or how the upcard is taken
        self.upcard_rule: str = rules.turn.first_turn_upcard
        #: the seats at the table, and the cards a turn draws (``turn.draw``)
        self.seats: int = rules.players.seats
        self.draw: int = rules.turn.draw
        #: each team's seats, by team (read only: :meth:`HandState.team_seats` gives them)
        self.team_seats: list[list[int]] = [
            [s for s in range(self.seats) if rules.team_of[s] == t]
            for t in range(max(rules.team_of) + 1)]
        #: ``pile.before_opening``: whether and how the pile is taken before opening
        self.pile_before_opening: str = rules.pile.before_opening
        #: a player asks a partner before going out (``going_out.permission``)
        self.permission: bool = rules.going_out.permission
        #: the pile may be taken with the opening (``pile.before_opening``)
        self.pile_with_opening: bool = rules.pile.before_opening == "with-opening"
        #: the fewest cards the pile must hold to be taken (at least one)
        self.pile_min: int = max(rules.pile.min_size, 1)
        show = rules.pile.show
        #: the pile may be taken showing a natural pair of the top card's rank
        self.show_pair: bool = "natural-pair" in show
        #: ... a natural of its rank and a wild
        self.show_natural_and_wild: bool = "natural-and-wild" in show
        #: ... nothing, with a meld of its rank on the table
        self.show_meld_on_board: bool = "meld-on-board" in show
        #: a wild in the pile freezes it until it is taken (``pile.wild_freezes_until_taken``)
        self.wild_freezes: bool = rules.pile.wild_freezes_until_taken
        #: the shown cards stay in the hand (``pile.shown_cards == "kept"``)
        self.shown_kept: bool = rules.pile.shown_cards == "kept"
        #: a player must ask a partner to go out (and is not playing alone)
        self.ask_partner: bool = rules.going_out.permission and not rules.individuals
        self.ask_when_able: bool = rules.going_out.ask_when_able
        #: going out with a discard: "allowed", "required" or "forbidden"
        #: (``going_out.discard``)
        self.out_discard: str = rules.going_out.discard
        #: the clean books a team needs to go out (``going_out.clean_books``)
        self.out_clean_books: int = rules.going_out.clean_books
        #: the dirty and wild-card books it needs (``going_out.dirty_books``, ``wild_books``)
        self.out_dirty_books: int = rules.going_out.dirty_books
        self.out_wild_books: int = rules.going_out.wild_books
        #: each player plays alone (no partners)
        self.individuals: bool = rules.individuals
        #: what a player's partners must have done before that player goes out
        #: (``going_out.partners``)
        self.partners: str = rules.going_out.partners
        self.card_class: tuple[int, ...] = rules.card_class
        #: each card's points
        self.card_value: tuple[int, ...] = rules.card_value
        #: what each card costs left in a hand (``Rules.held_value``)
        self.held_value: tuple[int, ...] = rules.held_value
        self.rank_classes: tuple[tuple[tuple[int, ...], ...], ...] = rules.rank_classes
        #: whether the cards' classes are the usual ones: any 2, the black 3s, the red 3s,
        #: each rank from 4 to ace whatever its suit, and the joker (the discards listed so,
        #: and the lowest natural held of a rank stands for all of them)
        self.plain_classes: bool = rules.card_class == _usual_classes(by_card=False)
        #: whether they are the usual ones but for the naturals of 4 to ace, each card its
        #: own class (where sequences are melded: samba)
        self.suit_classes: bool = rules.card_class == _usual_classes(by_card=True)
        #: the rule set's memo (:attr:`handfoot.rules.Rules.memo`)
        self.memo: dict[Any, Any] = rules.memo
        #: the smallest melds of each rank the listing has worked out, by the wilds
        #: usable (a list by their number: None where none are worked out yet), then by
        #: the rank and its counts (see :meth:`Hand._meld_moves`)
        self.cores_by_index: list[list[Any] | None] = []
        self.cores_by_key: dict[int, dict[int, Any]] = {}
        #: the wilds usable last asked of :attr:`cores_by_index`, with its list for them
        #: (a listing's wilds are most often the last listing's: the dict, keyed by a
        #: Python number, is then not asked). One pair, set at once: a listing in
        #: another thread never reads one's key with another's list.
        self.cores_last: tuple[i64, list[Any]] = (-1, [])
        #: the melds of wild cards alone the listing has worked out, by the wilds held
        #: (each count up to a meld's size, one number: a list by it, None where they are
        #: not worked out yet; see :meth:`Hand._meld_moves`)
        self.wild_melds_by: list[list[Any] | None] = []
        #: where each natural is its own class: the ways to pick n naturals of a rank
        #: (as suits), by how many of each suit are held (see :meth:`Hand._suit_cores`)
        self.suit_picks: dict[int, list[list[tuple[int, ...]]]] = {}
        #: how many of each card the rule set's decks hold
        self.deck_counts: list[int] = counts_of(full_deck(rules))
        #: how many cards the decks hold, and how many naturals of each rank (a list by
        #: rank number)
        self.deck_size: int = sum(self.deck_counts)
        self.naturals_by_rank: list[int] = [0] * 16
        for c in range(NUM_CARDS):
            if NATURAL[c]:
                self.naturals_by_rank[RANK[c]] += self.deck_counts[c]
        #: what a team still needs in books to go out, in words ("" for nothing), kept
        #: by its books (see :meth:`HandState.books_missing`)
        self.books_missing: dict[int, str] = {}
        #: how many cards a pick-up may take, by the pile's size: the first and one past
        #: the last (see :meth:`take_span`)
        self.take_spans: list[tuple[int, int] | None] = []

    def take_span(self, rules: Rules, size: int) -> tuple[int, int]:
        """:func:`pile_take_counts` as two numbers, the first count and one past the last
        (compiled, a range's ``start`` and ``stop`` are looked up by name)."""
        spans = self.take_spans
        if size >= len(spans):
            spans.extend([None] * (size + 1 - len(spans)))
        span = spans[size]
        if span is None:
            counts = pile_take_counts(rules, size)
            span = spans[size] = (counts.start, counts.stop)
        return span


def forget_tables(rules: Rules) -> None:
    """Forget every table the engine has worked out for ``rules``, as when the rule set
    is first met: its memo, and its settings' tables of smallest melds, books missing
    and pile counts (emptied in place: the hands that hold the settings forget them too)."""
    made = rules.memo.get(_KEY)
    if isinstance(made, Settings):
        made.cores_by_index.clear()
        made.cores_by_key.clear()
        made.cores_last = (-1, [])
        made.wild_melds_by.clear()
        made.suit_picks.clear()
        made.books_missing.clear()
        made.take_spans.clear()
    rules.memo.clear()


def settings_of(rules: Rules) -> Settings:
    """The rule set's :class:`Settings`, made the first time it is asked for."""
    memo = rules.memo
    made = memo.get(_KEY)
    if made is None:
        made = memo[_KEY] = Settings(rules)
    assert isinstance(made, Settings)
    return made


def pile_take_counts(rules: Rules, size: int) -> range:
    """:meth:`Rules.pile_take_counts` for a pile of ``size`` cards, worked out once per
    rule set and pile size (kept in the rule set's memo, by a negative number: the
    smallest melds' keys are never negative), not asked of the interpreted rule set at
    every listing of the moves and every look at the pile."""
    key = -1 - size
    memo = rules.memo
    counts: range | None = memo.get(key)
    if counts is None:
        counts = memo[key] = rules.pile_take_counts(size)
    return counts
