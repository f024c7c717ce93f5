"""The state of one hand, and carrying out actions already known to be legal.

:class:`HandState` holds who holds what, what is on the table and whose turn it
is, and :meth:`HandState.push` carries out an action without checking it (the
fast path for simulations and for replaying a checked log). The checks live in
:mod:`handfoot.engine.checks`, the legal moves in :mod:`handfoot.engine.moves`.

Melds laid out for an opening that has not gone down yet ("staged") lie in the
team's melds while ``opened`` is still false: they belong to the player whose turn
it is, count toward the opening, and go back to that hand if taken back.

A count in a list is changed as ``counts[c] = counts[c] + 1``, not ``counts[c] += 1``
(fast path: docs/design.md#the-state).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import IntEnum
from typing import Final, Self

from mypy_extensions import i64, mypyc_attr

from handfoot.actions import (
    Action,
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    ChooseHand,
    Discard,
    Draw,
    EndTurn,
    GoDown,
    LayDown,
    LayMeld,
    PickUpFoot,
    TakeBack,
    TakePile,
    TakeUpcard,
)
from handfoot.cards import (
    NO_CARDS,
    NUM_CARDS,
    RANK,
    SUIT,
    WILD,
    Card,
    format_card,
    format_cards,
    is_red_three,
)
from handfoot.engine.deal import Deal, shuffle
from handfoot.engine.melds import (
    RANK_MELD,
    SEQUENCE,
    WILD_MELD,
    Meld,
    book_index,
    books_missing,
    classify,
    count_books,
    meld_order,
)
from handfoot.engine.settings import Settings, settings_of
from handfoot.rules import Rules


class Phase(IntEnum):
    CHOOSE = 0  #: players choose which dealt stack is their hand
    DRAW = 1  #: the player to act draws, or takes the pile or the upcard
    PLAY = 2  #: the player lays down, adds, asks to go out, and discards
    ASK = 3  #: the partner answers a request to go out
    OVER = 4  #: the hand is over


# The phases as plain module names: read on every action (an enum member is read through its class).
PHASE_CHOOSE: Final = Phase.CHOOSE
PHASE_DRAW: Final = Phase.DRAW
PHASE_PLAY: Final = Phase.PLAY
PHASE_ASK: Final = Phase.ASK
PHASE_OVER: Final = Phase.OVER

#: a team's table: its open melds and its books, each counted by rank (a list indexed by
#: the rank, 2 to 14), and whether a wild-card meld is open
Tables = tuple[list[int], list[int], bool]


@mypyc_attr(serializable=True)
class TableCounts:
    """A team's table counted by rank (:meth:`CheckedHand.table_counts`), at table
    version :attr:`version`: :attr:`open_ranks` and :attr:`book_ranks` are its open
    melds and its books (lists indexed by the rank, 2 to 14), :attr:`wild_open` whether
    a wild-card meld is open. (A class, not a tuple: docs/design.md#the-state.)"""

    __slots__ = ("book_ranks", "open_ranks", "version", "wild_open")

    def __init__(self, version: int, open_ranks: list[int], book_ranks: list[int],
                 wild_open: bool) -> None:
        self.version = version
        self.open_ranks = open_ranks
        self.book_ranks = book_ranks
        self.wild_open = wild_open

    def counted(self) -> Tables:
        """The counts as :meth:`CheckedHand._table_state` gives them."""
        return self.open_ranks, self.book_ranks, self.wild_open


@mypyc_attr(serializable=True)
class KeptBooks:
    """A team's complete books (:meth:`HandState.books`) at table version
    :attr:`version`, and what they still lack to go out in words
    (:meth:`HandState.books_missing`, once asked: :attr:`worded`). A class, as
    :class:`TableCounts`: carried to the next version by setting its field, where a pair
    in a list was made anew."""

    __slots__ = ("books", "missing", "version", "worded")

    def __init__(self, version: int, books: tuple[int, int, int, int]) -> None:
        self.version = version
        self.books = books
        self.worded = False
        self.missing: str | None = None


@mypyc_attr(serializable=True)
class Held:
    """Which cards a seat holds, as the bits of one machine integer: bit ``c`` is set
    where the seat holds one or more of card ``c`` (:attr:`HandState.held`). Kept with
    the seat's counts at each change, so that the legal moves find the ranks held, and
    their suits, in a few operations on it rather than by reading the 53 counts (fast
    path: docs/design.md#card-sets)."""

    __slots__ = ("bits",)

    def __init__(self, bits: i64 = 0) -> None:
        self.bits: i64 = bits


def bits_held(counts: list[int]) -> i64:
    """The bits of the cards of which ``counts`` holds one or more (:class:`Held`)."""
    # (fast path: docs/design.md#the-state)
    bits: i64 = 0
    one: i64 = 1 if counts else 0  # (not a constant: see card_bit)
    c: i64
    for c in range(len(counts)):
        if counts[c]:
            bits |= one << c
    return bits


def card_bit(c: i64) -> i64:
    """The bit of card ``c`` (:class:`Held`)."""
    # (fast path: docs/design.md#the-state)
    one: i64 = 1 if c >= 0 else 0
    return one << c


#: a seat copy's bits for every hand it does not see (those hands hold no card)
_NO_HELD: Final = Held()

#: what a card the player cannot see is shown as in :meth:`HandState.seat_copy`
FACE_DOWN: Final[Card] = 0
_NO_RNG: Final = random.Random(0)
_NO_DEAL: Final = Deal((), 0)
UNSET_DEAL: Final = Deal((), -1)  #: the deal of a state whose parts its maker sets one by one
# A seat copy is never played on, so its face-down cards are lists made once and shared
# (a copy that is played on, for a check, is a clone: it copies them).
_FACE_DOWN: Final[dict[int, list[Card]]] = {}
#: by the pile's size * NUM_CARDS + its top card (a list: a number above 256 looked up in a
#: dict was made as a Python number and hashed at every seat copy)
_FACE_DOWN_PILES: Final[list[list[Card] | None]] = []
_BLANK: Final[list[int]] = list(NO_CARDS)
_NO_STACKS: Final[list[tuple[list[Card], list[Card]]]] = []  #: a seat copy's, after the choice
_NO_SHUFFLES: Final[list[tuple[Card, ...]]] = []  #: a seat copy's: it knows of none


def _face_down(n: int) -> list[Card]:
    """``n`` face-down cards."""
    cards = _FACE_DOWN.get(n)
    if cards is not None:
        return cards
    made = [FACE_DOWN] * n
    _FACE_DOWN[n] = made
    return made


def _face_down_pile(pile: list[Card]) -> list[Card]:
    """A discard pile with only its top card face up (at most some 20,000 of them: a
    pile's size times a top card)."""
    if not pile:
        return []
    key = len(pile) * NUM_CARDS + pile[-1]
    if key >= len(_FACE_DOWN_PILES):
        _FACE_DOWN_PILES.extend([None] * (key + 1 - len(_FACE_DOWN_PILES)))
    cards = _FACE_DOWN_PILES[key]
    if cards is None:
        cards = _FACE_DOWN_PILES[key] = [FACE_DOWN] * (len(pile) - 1) + [pile[-1]]
    return cards


@mypyc_attr(serializable=True)
class _Owner:
    """A mark of its own for each state (a class: docs/design.md#the-state)."""

    __slots__ = ()


_NO_PILE: Final[list[Card]] = []  #: (read only) no pile copied for a record
#: what the player to act does, by phase (:meth:`HandState.__repr__`)
_PHASE_WORDS: Final = ("to choose a stack", "to draw", "to play", "to answer", "over")


def _meld_words(m: Meld, book_size: int) -> str:
    """A meld in a few words: "Queens ×4 clean", "7s ×7 dirty book"."""
    kind = "clean" if not m.wilds else "wild" if m.kind == WILD_MELD else "dirty"
    return f"{m.describe()} ×{m.size} {kind}" + (" book" if m.size >= book_size else "")


def _net(gained: list[Card], lost: list[Card]) -> tuple[Card, ...]:
    """The cards of ``gained`` not matched by one of ``lost``, lowest first."""
    counts = [0] * NUM_CARDS
    for c in gained:
        counts[c] = counts[c] + 1
    for c in lost:
        counts[c] = counts[c] - 1
    return tuple([c for c in range(NUM_CARDS) for _ in range(counts[c])])


@mypyc_attr(serializable=True)
class Played:
    """What one action did, as :meth:`HandState.play` (and :meth:`CheckedHand.apply`)
    returns it: read by the narration and the move log, never changed.

    ``cards_in`` are the cards the action brought into the seat's hand and kept there
    (drawn, taken from the pile, the foot), lowest card first: only that seat sees them.
    ``meld`` is the index of the team's meld made or added to (-1: none), described by
    ``meld_label``, ``meld_kind`` and ``meld_cards`` as it is after the action.
    ``ended_by`` is how the hand ended ("out", "stock"), or "" where it goes on.
    """

    seat: Final[int]
    team: Final[int]
    action: Final[Action]
    drawn: Final[int]  #: cards taken from the stock (seen by the seat only)
    cards_in: Final[tuple[Card, ...]]
    pile_cards: Final[tuple[Card, ...]]  #: the pile's cards taken, its top last
    pile_top: Final[Card | None]  #: the pile's top card before the action
    meld: Final[int]
    meld_label: Final[str]
    meld_kind: Final[int]
    meld_cards: Final[tuple[Card, ...]]
    meld_size_before: Final[int]  #: the meld's size before a card was added (0: new)
    melds_made: Final[int]
    points: Final[int]  #: what the cards laid down are worth
    red_threes: Final[int]  #: red 3s laid on the table
    opened: Final[bool]  #: the action opened the team (went down)
    had_opened: Final[bool]  #: the team had gone down before the action
    went_out: Final[bool]
    ended_by: Final[str]

    def __init__(self, seat: int, team: int, action: Action, drawn: int,
                 cards_in: tuple[Card, ...], pile_cards: tuple[Card, ...],
                 pile_top: Card | None, meld: int, meld_label: str, meld_kind: int,
                 meld_cards: tuple[Card, ...], meld_size_before: int, melds_made: int,
                 points: int, red_threes: int, opened: bool, had_opened: bool,
                 went_out: bool, ended_by: str) -> None:
        self.seat = seat
        self.team = team
        self.action = action
        self.drawn = drawn
        self.cards_in = cards_in
        self.pile_cards = pile_cards
        self.pile_top = pile_top
        self.meld = meld
        self.meld_label = meld_label
        self.meld_kind = meld_kind
        self.meld_cards = meld_cards
        self.meld_size_before = meld_size_before
        self.melds_made = melds_made
        self.points = points
        self.red_threes = red_threes
        self.opened = opened
        self.had_opened = had_opened
        self.went_out = went_out
        self.ended_by = ended_by

    def __repr__(self) -> str:
        return (f"<Played seat {self.seat + 1} {self.action.notation()}"
                + (f": {len(self.cards_in)} cards in" if self.cards_in else "")
                + (f", {self.meld_label} ({len(self.meld_cards)} cards)"
                   if self.meld >= 0 else "")
                + (f", {self.points} points" if self.points else "")
                + (f", hand over ({self.ended_by})" if self.ended_by else "") + ">")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class HandState:
    """The state of one hand: who holds what, what is on the table, whose turn it is."""

    def __init__(self, rules: Rules, deal: Deal, hand_number: int = 1,
                 team_scores: Sequence[int] | None = None,
                 rng: random.Random | None = None) -> None:
        self.rules = rules
        self.deal = deal
        #: this state's mark on the melds it may change in place (see :meth:`_own`)
        self.owner: object = _Owner()
        #: the cards taken from the stock while :meth:`play` carries out an action (None
        #: otherwise: :meth:`push` keeps no record)
        self.drawn: list[Card] | None = None
        if deal is UNSET_DEAL:
            return  # a copy in the making: its parts are set by the copier
        #: the settings read at every move, as compiled fields (:mod:`.settings`)
        self.settings: Settings = settings_of(rules)
        self.hand_number = hand_number
        self.seats = n = rules.players.seats
        self.team_of = rules.team_of
        self.teams = rules.players.teams
        self.team_scores = list(team_scores) if team_scores else [0] * self.teams
        self.rng = rng if rng is not None else random.Random(0)
        self._replay_shuffles = list(deal.shuffles)
        self.shuffles: list[tuple[Card, ...]] = []
        self.minimums = [rules.opening_minimum(hand_number, s) for s in self.team_scores]
        self.draw_count = rules.draw_count(hand_number)

        order = list(deal.order)
        # (counted, not sorted: two sorts of several hundred cards were a tenth of
        # starting a hand)
        counts = [0] * NUM_CARDS
        for c in order:
            if not 0 <= c < NUM_CARDS:
                raise ValueError(f"the deal holds {c!r}, which is not a card")
            counts[c] = counts[c] + 1
        if counts != self.settings.deck_counts:
            raise ValueError("the deal does not hold exactly the cards of the rule set's decks")
        if not 0 <= deal.first_seat < n:
            raise ValueError(f"the first seat {deal.first_seat} is not a seat")
        hs, fs = rules.deal.hand_size, rules.deal.foot_size
        pos = 0
        self.stacks: list[tuple[list[Card], list[Card]]] = []
        for _ in range(n):
            a, b = order[pos:pos + hs], order[pos + hs:pos + hs + fs]
            pos += hs + fs
            self.stacks.append((a, b))
        self.hands: list[list[int]] = [[0] * NUM_CARDS for _ in range(n)]
        self.hand_len = [0] * n
        #: each seat's cards as bits, kept with ``hands`` (:class:`Held`)
        self.held: list[Held] = [Held() for _ in range(n)]
        self.feet: list[list[Card] | None] = [None] * n
        self.in_foot = [False] * n
        self.foot_turns = [0] * n
        self.known: list[list[int]] = [[0] * NUM_CARDS for _ in range(n)]
        #: bumped whenever any ``known`` count changes (a cache key for the views)
        self.known_version = 0
        self.foot_known: list[Card | None] = [None] * n
        self.melds: list[list[Meld]] = [[] for _ in range(self.teams)]
        self.opened = [False] * self.teams
        self.red_threes: list[list[Card]] = [[] for _ in range(self.teams)]
        self.pile: list[Card] = []
        self.pile_wilds = 0
        rest = order[pos:]
        if rules.deal.upcard:
            turn_back = rules.deal.upcard_turn_back
            while rest:
                up = rest[0]
                if (("red-three" in turn_back and is_red_three(up))
                        or ("wild" in turn_back and WILD[up])):
                    # "it gets placed back in the deck and another card is drawn":
                    # it goes under the stock.
                    rest = [*rest[1:], up]
                    continue
                break
            self.pile.append(rest[0])
            self.pile_wilds = 1 if WILD[rest[0]] else 0
            rest = rest[1:]
        self.stock: list[Card] = rest[::-1]  # top of the stock is the end of the list
        self.first_seat = deal.first_seat
        self.seat = deal.first_seat  # whose turn it is
        self.actor = deal.first_seat  # who must act now
        self.turn_number = 0
        self.asked = False
        self.permission: bool | None = None
        self.may_end_turn = False
        self.went_out: int | None = None
        self.ended_by = ""
        self.history: list[tuple[int, Action]] = []
        #: bumped whenever a team's part of the table changes (a cache key for the views)
        self.table_version = [0] * self.teams
        #: each team's openings shown short (``opening.short_penalty``): melds laid out for
        #: an opening taken back while they were short of it, once a turn (docs/rules)
        self.short_openings = [0] * self.teams
        #: the turn whose laid-out melds have been judged (taken back short, and charged,
        #: or taken back making an opening): a turn is charged at most once
        self.exposure_settled = -1
        #: the plays of this turn that may be taken back (``turn.take_back_turn``): for
        #: each meld laid or added to, its index and its size before the turn (0: laid
        #: this turn); a tuple, replaced and never changed (shared with the copies)
        self.turn_plays: tuple[tuple[int, int], ...] = ()
        self._reset_view_caches()
        if rules.deal.choose_hand == "seeing-tops":
            self.phase = PHASE_CHOOSE
        else:
            for s in range(n):
                self._set_hand(s, 0)
            self.phase = PHASE_DRAW
            self._lay_dealt_red_threes()

    def _reset_view_caches(self) -> None:
        #: what :mod:`handfoot.game.views` last made of each seat and each team, with what
        #: it was made from (a copy of the hand starts without them)
        self.player_views: object = None
        self.player_views_known = -1
        self.team_views: list[tuple[int, object] | None] = [None] * self.teams
        #: each team's table counted by rank (:meth:`CheckedHand.table_counts`), with the
        #: table version it was counted at; shared with the seat copies, as the views are
        self.team_tables: list[TableCounts | None] = [None] * self.teams
        #: each team's complete books (:meth:`books`) and what they lack to go out
        #: (:meth:`books_missing`), with the table version they were counted at; shared
        #: with the seat copies, as above
        self.team_books: list[KeptBooks | None] = [None] * self.teams
        #: the feet as :meth:`seat_copy` shows them (face down); None when they changed
        self._face_down_feet: list[list[Card] | None] | None = None

    # ------------------------------------------------------------- small helpers
    def team_seats(self, team: int) -> list[int]:
        """The team's seats (the rule set's list, read only: asked whenever a player in
        the foot may go out)."""
        return self.settings.team_seats[team]

    def partner_to_ask(self, seat: int) -> int:
        """The teammate who answers a request to go out: the next one in turn order."""
        for k in range(1, self.seats):
            s = (seat + k) % self.seats
            if self.team_of[s] == self.team_of[seat]:
                return s
        return seat

    def hand_cards(self, seat: int) -> list[Card]:
        out: list[Card] = []
        for c, k in enumerate(self.hands[seat]):
            for _ in range(k):  # (appended: no list made for each card held)
                out.append(c)
        return out

    def foot_size(self, seat: int) -> int:
        foot = self.feet[seat]
        return 0 if foot is None else len(foot)

    def card_counts(self, seat: int) -> tuple[int, int]:
        """How many cards ``seat`` holds in its hand and in its foot, as the whole
        table sees them (while hands are chosen: the two stacks it has not chosen
        between yet)."""
        if self.phase == PHASE_CHOOSE and self.feet[seat] is None:
            hand, foot = self.stacks[seat]
            return len(hand), len(foot)
        return self.hand_len[seat], self.foot_size(seat)

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def over(self) -> bool:
        return self.phase == PHASE_OVER

    def staged(self, team: int) -> list[Meld]:
        """The melds laid out for this team's opening that has not gone down yet."""
        return [] if self.opened[team] else self.melds[team]

    def _set_hand(self, seat: int, stack: int) -> None:
        a, b = self.stacks[seat]
        hand, foot = (a, b) if stack == 0 else (b, a)
        counts = self.hands[seat]
        for c in hand:
            counts[c] = counts[c] + 1
        self.hand_len[seat] = len(hand)
        self.held[seat].bits = bits_held(counts)
        self.feet[seat] = list(foot)
        self._face_down_feet = None
        if self.rules.deal.choose_hand == "seeing-tops":
            # Both top cards were face up for the whole table to see.
            self.known[seat][hand[0]] = self.known[seat][hand[0]] + 1
            self.known_version += 1
            self.foot_known[seat] = foot[0]

    def _lay_dealt_red_threes(self) -> None:
        if self.rules.threes.red != "board":
            return
        for k in range(self.seats):
            self._lay_red_threes((self.first_seat + k) % self.seats)

    def _lay_red_threes(self, seat: int) -> None:
        """Red 3s go on the team's board at once and are replaced from the stock."""
        hand = self.hands[seat]
        held = self.held[seat]
        if not held.bits & 0x60:  # (bits 5 and 6: no red 3 held, the usual draw)
            return
        team = self.team_of[seat]
        while hand[5] or hand[6]:
            for c in (5, 6):
                while hand[c]:
                    hand[c] = hand[c] - 1
                    self.hand_len[seat] = self.hand_len[seat] - 1
                    if self.known[seat][c]:
                        self.known[seat][c] = self.known[seat][c] - 1
                        self.known_version += 1
                    self.red_threes[team].append(c)
                    self._table_changed(team, True)
                    got = self._pop_stock()
                    if got is not None:
                        hand[got] = hand[got] + 1
                        self.hand_len[seat] = self.hand_len[seat] + 1
                        held.bits |= card_bit(got)
                held.bits &= ~card_bit(c)  # (none of this red 3 left)

    def _pop_stock(self) -> Card | None:
        if not self.stock and not self._reshuffle():
            return None
        c = self.stock.pop()
        drawn = self.drawn
        if drawn is not None:  # (a record is being made: see :meth:`play`)
            drawn.append(c)
        return c

    def _reshuffle(self) -> bool:
        """Shuffle all of the pile but its top card into a new stock, where the rules do.
        A new stock must hold at least a full draw; otherwise the hand ends (without
        this, two cards could go round between the pile and the stock for ever)."""
        if not self._can_reshuffle():
            return False
        cards = self.pile[:-1]
        del self.pile[:-1]
        if self._replay_shuffles:
            new = list(self._replay_shuffles.pop(0))
            if sorted(new) != sorted(cards):
                raise ValueError("the recorded shuffle does not hold the cards of the pile")
        else:
            new = cards
            shuffle(self.rng, new)
        self.shuffles.append(tuple(new))
        self.stock = new[::-1]
        self.pile_wilds = 1 if WILD[self.pile[-1]] else 0
        return True

    def _can_reshuffle(self) -> bool:
        go = self.rules.going_out
        return (go.stock_out == "reshuffle-pile" and len(self.pile) - 1 >= self.draw_count
                and (go.reshuffles == 0 or len(self.shuffles) < go.reshuffles))

    def _stock_available(self) -> bool:
        return bool(self.stock) or self._can_reshuffle()

    # -------------------------------------------------------------- going out
    def books(self, team: int) -> tuple[int, int, int, int]:
        """Complete books of a team: (clean, dirty, wild, sequence). Kept for the
        table's version, and carried to the next where a change leaves them as they were
        (a card added that neither makes a book nor changes one's kind, a meld laid or
        taken back short of a book): the heuristic asks them at nearly every discard."""
        return self._kept_books(team).books

    def _kept_books(self, team: int) -> KeptBooks:
        """The team's books kept for its table's version, counted where none are."""
        version = self.table_version[team]
        kept = self.team_books[team]
        if kept is None or kept.version != version:
            kept = self.team_books[team] = KeptBooks(
                version, count_books(self.melds[team], self.settings.book_size))
        return kept

    def books_missing(self, team: int) -> str | None:
        """What the team still needs in books to go out, in words, or None (kept with the
        books, and carried with them: a player in the foot asks it of nearly every
        play)."""
        kept = self._kept_books(team)
        if not kept.worded:
            clean, dirty, wild, seq = kept.books
            kept.missing = self._missing_words(clean, dirty, wild, seq)
            kept.worded = True
        return kept.missing

    def _missing_words(self, clean: int, dirty: int, wild: int, seq: int) -> str | None:
        """What a team with these complete books still needs to go out, or None."""
        # Kept per rule set by the counts, as one number ("" for None): the words are
        # asked for whenever a player in the foot could ask to go out, and the cache of
        # :func:`books_missing` hashes the rule set's parts at every call.
        key = ((clean * 1024 + dirty) * 1024 + wild) * 1024 + seq
        kept = self.settings.books_missing
        why = kept.get(key)
        if why is None:
            why = kept[key] = books_missing(self.rules.going_out, self.rules.words,
                                            clean, dirty, wild, seq) or ""
        return why or None

    def partners_missing(self, seat: int) -> str | None:
        """What the partners must still do before this player may go out, or None."""
        if self.settings.individuals:
            return None
        how = self.settings.partners
        for s in self.team_seats(self.team_of[seat]):
            if s == seat:
                continue
            if how == "in-foot" and not self.in_foot[s]:
                return "your partner must be in their foot"
            if how == "played-from-foot" and self.foot_turns[s] < 1:
                return "your partner must have picked up their foot and played a turn from it"
        return None

    def go_out_blocker(self, seat: int) -> str | None:
        """Why this player may not go out now, in words, or None if they may."""
        if not self.in_foot[seat]:
            return "you are not in your foot yet"
        return self._out_blocker(seat, self.books_missing(self.team_of[seat]))

    def go_out_blocker_after(self, seat: int, action: AddToMeld | LayMeld) -> str | None:
        """:meth:`go_out_blocker` as it would answer once ``seat`` (in the foot, the team
        down) has made the meld or added the cards of ``action``, an action already
        checked otherwise. Of what it asks, only the team's books change (the partners'
        part and the answer to the question are the same before and after), so they are
        counted with the one meld made or changed, and nothing else is copied."""
        if not self.in_foot[seat]:
            return "you are not in your foot yet"
        team = self.team_of[seat]
        melds = self.melds[team]
        size = self.settings.book_size
        # The one meld changed is counted as it was and as it would be: a meld keeps its
        # kind as cards are added, and only its size and its wild cards change (no meld is
        # copied nor made, but a new one of a book's size or more, whose kind its cards
        # tell). Where it is the same book or none before and after, the team's books
        # are as they are.
        if isinstance(action, AddToMeld):
            m = melds[action.meld]
            wilds = m.wilds
            for c in action.cards:
                wilds += WILD[c]
            was = book_index(m.kind, m.size, m.wilds, size)
            now = book_index(m.kind, m.size + len(action.cards), wilds, size)
        elif len(action.cards) < size:
            was = now = -1
        else:
            made = self._meld_of(list(action.cards))
            was, now = -1, book_index(made.kind, made.size, made.wilds, size)
        if was == now:
            return self._out_blocker(seat, self.books_missing(team))
        books = list(self.books(team))
        if was >= 0:
            books[was] -= 1
        if now >= 0:
            books[now] += 1
        return self._out_blocker(
            seat, self._missing_words(books[0], books[1], books[2], books[3]))

    def _out_blocker(self, seat: int, missing: str | None) -> str | None:
        """:meth:`go_out_blocker` of a player in the foot whose team lacks ``missing``."""
        if missing:
            return f"your team needs {missing}"
        return self.partners_block_out(seat)

    def partners_block_out(self, seat: int) -> str | None:
        """What keeps a player in the foot from going out whatever the team's books: the
        partners (:meth:`partners_missing`) or the partner's answer, in words; or None."""
        partners = self.partners_missing(seat)
        if partners:
            return partners
        if self.settings.ask_partner and self.permission is not True:
            if self.permission is False:
                return "your partner said no this turn"
            return "you must ask your partner first"
        return None

    def __repr__(self) -> str:
        """The position at a glance, as a debugger or a failing test shows it: the rule
        set, whose turn and what they do, the pile's top and the stock, each seat's hand
        (a foot by its count) and each team's melds.

        >>> from handfoot.engine import Hand
        >>> from handfoot.rules import preset
        >>> from handfoot.testing import stacked_deal
        >>> rules = preset("classic")
        >>> hand = Hand(rules, stacked_deal(rules, hands={0: "4S 7H 7D QC QD QS 2C JK 9S 10H KH"}))
        >>> print(hand)  # doctest: +ELLIPSIS
        <Hand classic, hand 1 turn 0: seat 1 to draw; pile empty, stock 182
          seat 1: hand 4♠ 7♦ 7♥ 9♠ 10♥ Q♣ Q♦ Q♠ K♥ 2♣ Joker, foot 11 cards
          seat 2: hand ..., foot 11 cards
        ...
          team 1 not down: no melds
          team 2 not down: no melds>
        """
        pile = f"pile {len(self.pile)} ({format_card(self.pile[-1])} top)" if self.pile \
            else "pile empty"
        who = f"over ({self.ended_by})" if self.phase == PHASE_OVER \
            else f"seat {self.actor + 1} {_PHASE_WORDS[self.phase]}"
        lines = [f"<Hand {self.rules.name}, hand {self.hand_number} turn {self.turn_number}: "
                 f"{who}; {pile}, stock {len(self.stock)}"]
        for s in range(self.seats):
            foot = self.feet[s]
            lines.append(f"  seat {s + 1}: hand {format_cards(self.hand_cards(s)) or 'empty'}, "
                         + (f"foot {len(foot)} cards" if foot is not None else "in the foot"))
        for t in range(self.teams):
            melds = ", ".join(_meld_words(m, self.settings.book_size) for m in self.melds[t])
            down = "down" if self.opened[t] else "laying out" if melds else "not down"
            red = f"; red 3s: {len(self.red_threes[t])}" if self.red_threes[t] else ""
            lines.append(f"  team {t + 1} {down}: {melds or 'no melds'}{red}")
        return "\n".join(lines) + ">"

    # ------------------------------------------------------------------ push
    def push(self, action: Action) -> None:
        """Carry out an action already known to be legal (no checks)."""
        p = self.actor
        self.history.append((p, action))
        if isinstance(action, Draw):
            self._draw(p)
        elif isinstance(action, Discard):
            self._discard(p, action.card)
        elif isinstance(action, AddToMeld):
            self._add(p, action.meld, action.cards)
        elif isinstance(action, LayMeld):
            team = self.team_of[p]
            self._new_meld(team, list(action.cards))
            self._remove(p, action.cards)
            if self.opened[team]:
                if self.settings.take_back_turn:
                    self.turn_plays = (*self.turn_plays, (len(self.melds[team]) - 1, 0))
                self._after_play(p)
        elif isinstance(action, TakeBack) and self.opened[self.team_of[p]]:
            self._take_back_play(p, action.meld)
        elif isinstance(action, TakeBack):
            if self.settings.short_penalty:
                self._settle_exposure(self.team_of[p])
            self._take_back(p, action.meld)
        elif isinstance(action, GoDown):
            team = self.team_of[p]
            self.opened[team] = True
            self._table_changed(team, True)
            self._after_play(p)
        elif isinstance(action, LayDown):
            team = self.team_of[p]
            for cards in sorted(action.melds, key=meld_order):
                self._new_meld(team, list(cards))
                self._remove(p, cards)
            self.opened[team] = True
            self._table_changed(team)
            self._after_play(p)
        elif isinstance(action, TakePile):
            self._take_pile(p, action)
        elif isinstance(action, PickUpFoot):
            self.turn_plays = ()  # (the hand played out is gone: its plays stay)
            self._pick_up_foot(p)
        elif isinstance(action, TakeUpcard):
            c = self.pile.pop()
            self.pile_wilds = 0
            self.hands[p][c] = self.hands[p][c] + 1
            self.hand_len[p] = self.hand_len[p] + 1
            self.held[p].bits |= card_bit(c)
            self.known[p][c] = self.known[p][c] + 1
            self.known_version += 1
            self.phase = PHASE_PLAY
            self.may_end_turn = self.rules.turn.first_turn_upcard == "take-no-discard"
            if self.rules.threes.red == "board":
                self._lay_red_threes(p)
        elif isinstance(action, EndTurn):
            self._end_turn(p)
        elif isinstance(action, AskToGoOut):
            self.asked = True
            self.phase = PHASE_ASK
            self.actor = self.partner_to_ask(p)
        elif isinstance(action, AnswerGoOut):
            self.permission = action.yes
            self.phase = PHASE_PLAY
            self.actor = self.seat
        elif isinstance(action, ChooseHand):
            self._set_hand(p, action.stack)
            nxt = (p + 1) % self.seats
            if nxt == self.first_seat:
                self.phase = PHASE_DRAW
                self.actor = self.first_seat
                self._lay_dealt_red_threes()
            else:
                self.actor = nxt

    def play(self, action: Action) -> Played:
        """Carry out an action already known to be legal, as :meth:`push` does, and say
        what it did (:class:`Played`), from what is at hand before and after it."""
        p = self.actor
        team = self.team_of[p]
        had_opened = self.opened[team]
        melds_before = len(self.melds[team])
        red_before = len(self.red_threes[team])
        went_before = self.went_out
        hand_len = self.hand_len[p]
        pile_top = self.pile[-1] if self.pile else None
        pile = self.pile[:] if isinstance(action, TakePile) else _NO_PILE
        foot = self.feet[p] if isinstance(action, PickUpFoot) else None
        size_before = 0
        if isinstance(action, AddToMeld) and 0 <= action.meld < melds_before:
            size_before = self.melds[team][action.meld].size
        points = self._points_laid(action, team, pile_top)
        undone = self._undone(action, team) \
            if had_opened and isinstance(action, TakeBack) else None
        drawn: list[Card] = []
        self.drawn = drawn
        try:
            self.push(action)
        finally:
            self.drawn = None
        taken = tuple(pile[len(self.pile):]) if isinstance(action, TakePile) \
            else (pile_top,) if isinstance(action, TakeUpcard) and pile_top is not None else ()
        gained = [*drawn, *taken[:-1 if isinstance(action, TakePile) else None], *(foot or ())]
        laid_red = self.red_threes[team][red_before:]
        lost = [*laid_red, *(c for m in action.opening for c in m)] \
            if isinstance(action, TakePile) else list(laid_red)
        if isinstance(action, TakePile) and (hand_len + len(gained) - len(lost)
                                             - self.hand_len[p]) > 0:
            lost.extend(action.shown)  # (shown, and not kept in the hand)
        melds = self.melds[team]
        index = action.meld if isinstance(action, AddToMeld) else len(melds) - 1 \
            if isinstance(action, LayMeld | LayDown | TakePile) and len(melds) > melds_before \
            else -1
        meld = melds[index] if 0 <= index < len(melds) else None
        if undone is not None:
            return undone
        return Played(
            p, team, action, len(drawn), _net(gained, lost), taken, pile_top,
            index if meld is not None else -1, meld.describe() if meld else "",
            meld.kind if meld else -1, tuple(meld.cards) if meld else (), size_before,
            0 if isinstance(action, TakeBack) else max(len(melds) - melds_before, 0),
            points, len(laid_red), not had_opened and self.opened[team], had_opened,
            self.went_out == p and went_before != p,
            self.ended_by if self.phase == PHASE_OVER else "")

    def _undone(self, action: Action, team: int) -> Played | None:
        """A play of this turn to be taken back (``turn.take_back_turn``), as what the
        table will see of it: the meld, and the cards that go back (asked before)."""
        if not isinstance(action, TakeBack) or not 0 <= action.meld < len(self.melds[team]):
            return None
        was = self.melds[team][action.meld]
        size = self.turn_play(action.meld)
        return Played(self.actor, team, action, 0, (), (), self.pile[-1] if self.pile else None,
                      action.meld, was.describe(), was.kind, tuple(was.cards[max(size, 0):]),
                      size, 0, 0, 0, False, True, False, "")

    def _points_laid(self, action: Action, team: int, pile_top: Card | None) -> int:
        """What the cards ``action`` lays down are worth (asked before it is carried out:
        going down counts the melds laid out)."""
        values = self.rules.card_value
        if isinstance(action, LayDown):
            return sum(values[c] for m in action.melds for c in m)
        if isinstance(action, LayMeld | AddToMeld):
            return sum(values[c] for c in action.cards)
        if isinstance(action, GoDown):
            return sum(values[c] for m in self.melds[team] for c in m.cards)
        if isinstance(action, TakePile):
            return ((0 if pile_top is None else values[pile_top])
                    + sum(values[c] for c in action.shown)
                    + sum(values[c] for m in action.opening for c in m))
        return 0

    def _remove(self, seat: int, cards: tuple[Card, ...]) -> None:
        for c in cards:
            self._remove_one(seat, c)

    def _remove_one(self, seat: int, c: Card) -> None:
        """One card out of the seat's hand: its count, its bit (:attr:`held`), what the
        table knows it holds, its number of cards (a discard calls this directly,
        without a tuple made for its card)."""
        hand = self.hands[seat]
        n = hand[c] - 1
        hand[c] = n
        if not n:
            self.held[seat].bits &= ~card_bit(c)
        known = self.known[seat]
        if known[c]:
            known[c] = known[c] - 1
            self.known_version += 1
        self.hand_len[seat] = self.hand_len[seat] - 1

    def _meld_of(self, cards: list[Card]) -> Meld:
        """A new meld of ``cards`` (already checked)."""
        kind, rank, suit = classify(self.rules, cards, self.settings)
        if kind == SEQUENCE:
            suit = SUIT[cards[0]]
        return Meld(kind, rank, suit, cards)

    def _new_meld(self, team: int, cards: list[Card]) -> Meld:
        meld = self._meld_of(cards)
        meld.owner = self.owner
        self.melds[team].append(meld)
        self._meld_counted(team, meld, 1)
        return meld

    def _add_to(self, team: int, index: int, cards: tuple[Card, ...]) -> None:
        """Cards added to the team's meld ``index`` (already out of any hand)."""
        meld = self._own(team, index)
        size = self.settings.book_size
        was_book = meld.size >= size
        # (whether the team's books stay as they were, asked only where some are kept for
        # this version, to be carried: a book stays the book it was unless a wild made a
        # clean one dirty)
        kept = self.team_books[team]
        carry = kept is not None and kept.version == self.table_version[team]
        was = book_index(meld.kind, meld.size, meld.wilds, size) if carry else -1
        meld.add(cards)
        if was_book == (meld.size >= size):
            self._table_changed(team, True, carry and was == book_index(
                meld.kind, meld.size, meld.wilds, size))
        elif meld.kind == RANK_MELD:
            self._made_book(team, meld)
        else:
            self._table_changed(team)

    def _table_changed(self, team: int, counts_same: bool = False,
                       books_same: bool = True) -> None:
        """The team's table changed: its version moves on (the views' stamp). Where the
        change leaves its counts by rank as they were (:meth:`CheckedHand.table_counts`:
        a card added to a meld that neither was nor became a book, red 3s laid down, the
        team gone down with its laid-out melds), the counts made for the old version
        are kept for the new one, not counted again (a random player adds a card to a
        meld at every third move or so); so are its books, unless ``books_same`` is
        False."""
        if counts_same:
            self._counts_carried(team, books_same)
        else:
            self.table_version[team] = self.table_version[team] + 1

    def _counts_carried(self, team: int, books_same: bool) -> TableCounts | None:
        """The team's table version moves on, and the counts kept for the old one are
        carried to the new one (returned, for the caller to move by what changed), or
        None where none were kept for it; with ``books_same``, the books kept too."""
        version = self.table_version[team]
        self.table_version[team] = version + 1
        if books_same:
            books = self.team_books[team]
            if books is not None and books.version == version:
                books.version = version + 1
        kept = self.team_tables[team]
        if kept is None or kept.version != version:
            return None
        kept.version = version + 1
        return kept

    def _meld_counted(self, team: int, meld: Meld, by: int) -> None:
        """The team's table changed by ``meld`` alone, laid (``by`` 1) or taken back
        (``by`` -1): the counts made for the old version are moved by it for the new one,
        not counted again. A wild-card meld (which may close the wild-card meld open)
        has them counted again."""
        kind = meld.kind
        if kind == WILD_MELD:
            self._table_changed(team)
            return
        kept = self._counts_carried(team, meld.size < self.settings.book_size)
        if kept is not None and kind == RANK_MELD:
            counted = kept.book_ranks if meld.size >= self.settings.book_size \
                else kept.open_ranks
            counted[meld.rank] = counted[meld.rank] + by

    def _made_book(self, team: int, meld: Meld) -> None:
        """The team's meld ``meld`` of one rank has just become a book: moved from the
        open melds' counts to the books' (as :meth:`_meld_counted`)."""
        kept = self._counts_carried(team, False)
        if kept is not None:
            kept.open_ranks[meld.rank] = kept.open_ranks[meld.rank] - 1
            kept.book_ranks[meld.rank] = kept.book_ranks[meld.rank] + 1

    def _own(self, team: int, index: int) -> Meld:
        """The team's meld ``index``, to be changed: copied first if another state (a
        clone) may still share it."""
        meld = self.melds[team][index]
        if meld.owner is not self.owner:
            meld = meld.copy()
            meld.owner = self.owner
            self.melds[team][index] = meld
        return meld

    def _add(self, seat: int, index: int, cards: tuple[Card, ...]) -> None:
        team = self.team_of[seat]
        if self.settings.take_back_turn and self.opened[team]:
            self._note_added(self.melds[team][index].size, index)
        self._add_to(team, index, cards)
        self._remove(seat, cards)
        if self.opened[team]:
            self._after_play(seat)

    def _take_back(self, seat: int, index: int) -> None:
        """A laid-out meld goes back into the hand: the whole table saw its cards."""
        team = self.team_of[seat]
        meld = self.melds[team].pop(index)
        hand = self.hands[seat]
        known = self.known[seat]
        held = self.held[seat]
        for c in meld.cards:
            hand[c] = hand[c] + 1
            known[c] = known[c] + 1
            held.bits |= card_bit(c)
        self.known_version += 1
        self.hand_len[seat] = self.hand_len[seat] + meld.size
        self._meld_counted(team, meld, -1)
        # The team's melds after it moved up one place: the views' cache of them is stale.
        for m in self.melds[team][index:]:
            m.view = None

    def _note_added(self, size: int, index: int) -> None:
        """Cards about to be added to meld ``index`` of ``size`` cards: its size before
        the turn kept, the first time this turn (``turn.take_back_turn``)."""
        for at, _ in self.turn_plays:
            if at == index:
                return
        self.turn_plays = (*self.turn_plays, (index, size))

    def turn_play(self, index: int) -> int:
        """Meld ``index``'s size before this turn where this turn's plays on it may be
        taken back (0: laid this turn), or -1 where none may."""
        for at, size in self.turn_plays:
            if at == index:
                return size
        return -1

    def _take_back_play(self, seat: int, index: int) -> None:
        """This turn's plays on the team's meld ``index`` taken back into the hand: the
        meld itself if it was laid this turn (the melds after it move up one place), else
        the cards added to it this turn (``turn.take_back_turn``; the table saw them)."""
        team = self.team_of[seat]
        size = self.turn_play(index)
        plays = [(at - (at > index and size == 0), before)
                 for at, before in self.turn_plays if at != index]
        self.turn_plays = tuple(plays)
        if size == 0:
            self._take_back(seat, index)
            return
        meld = self.melds[team][index]
        back = meld.cards[size:]
        kept = Meld(meld.kind, meld.rank, meld.suit, meld.cards[:size])
        kept.owner = self.owner
        self.melds[team][index] = kept
        hand, known, held = self.hands[seat], self.known[seat], self.held[seat]
        for c in back:
            hand[c] = hand[c] + 1
            known[c] = known[c] + 1
            held.bits |= card_bit(c)
        self.known_version += 1
        self.hand_len[seat] = self.hand_len[seat] + len(back)
        self._table_changed(team)

    def laid_out(self, team: int) -> tuple[int, int, int, int]:
        """What the team's melds laid out for its opening hold, as :meth:`opening_met`
        counts it: their points, their clean and their dirty melds of a rank, and their
        complete books."""
        st = self.settings
        values = st.card_value
        size = st.book_size
        value = clean = dirty = books = 0
        for m in self.melds[team]:
            for c in m.cards:
                value += values[c]
            if m.kind == RANK_MELD:
                if m.wilds:
                    dirty += 1
                else:
                    clean += 1
            if m.size >= size:
                books += 1
        return value, clean, dirty, books

    def opening_met(self, team: int, value: int, clean: int, dirty: int,
                    books: int) -> bool:
        """Whether melds of these totals (their points, their clean and their dirty melds
        of a rank, their complete books) make an opening for ``team``: the minimum, and
        what the rules say an opening must hold."""
        st = self.settings
        return (value >= self.minimums[team] and clean >= st.opening_clean
                and dirty >= st.opening_dirty and books >= st.opening_books)

    def short_exposed(self, team: int) -> bool:
        """Whether taking back a meld now costs ``team`` the short opening's penalty
        (``opening.short_penalty``): melds are laid out for its opening, short of it,
        and the turn has not been charged nor shown an opening already."""
        if not self.settings.short_penalty or self.opened[team] or not self.melds[team] \
                or self.exposure_settled == self.turn_number:
            return False
        value, clean, dirty, books = self.laid_out(team)
        return not self.opening_met(team, value, clean, dirty, books)

    def short_warning(self, team: int) -> str | None:
        """The warning a player with melds laid out short of the opening reads before
        taking them back (:meth:`short_exposed`), or None."""
        if not self.short_exposed(team):
            return None
        return (f"Taking these melds back short of {self.minimums[team]} points costs your "
                f"team {self.settings.short_penalty} points: lay out more and go down.")

    def _settle_exposure(self, team: int) -> None:
        """A laid-out meld is taken back: the first time in a turn, the melds laid out
        are judged. Short of the opening, the team is charged the penalty once
        (:attr:`short_openings`); making one, the player showed the count, and taking
        melds back costs nothing for the rest of the turn."""
        if self.exposure_settled == self.turn_number:
            return
        if self.short_exposed(team):
            self.short_openings[team] = self.short_openings[team] + 1
        self.exposure_settled = self.turn_number

    def take_back_all(self) -> None:
        """Every meld laid out for an opening goes back to the hand of the player whose
        turn it is (time was called before that player went down): the player did not
        take them back, so no short opening is charged."""
        team = self.team_of[self.seat]
        while not self.opened[team] and self.melds[team]:
            self._take_back(self.seat, len(self.melds[team]) - 1)

    def _after_play(self, seat: int) -> None:
        if self.hand_len[seat] == 0 and self.in_foot[seat]:
            self._go_out(seat)

    def _draw(self, seat: int) -> None:
        hand = self.hands[seat]
        held = self.held[seat]
        board = self.settings.red_on_board
        for _ in range(self.draw_count):
            c = self._pop_stock()
            if c is None:
                break
            hand[c] = hand[c] + 1
            self.hand_len[seat] = self.hand_len[seat] + 1
            held.bits |= card_bit(c)
        if board:
            self._lay_red_threes(seat)
        self.phase = PHASE_PLAY

    def pile_target(self, team: int, rank: int) -> int | None:
        """The meld a pile's top card of ``rank`` joins: the team's last open meld of
        that rank (once the team has gone down), or None for a new meld."""
        return self._last_rank_meld(team, rank, True)

    def last_board_meld(self, team: int, rank: int) -> int | None:
        """The team's last meld of ``rank`` on the table, open or a book (once the team
        has gone down), or None: the one a pile taken with a meld on the board joins
        where no open meld of the rank is there."""
        return self._last_rank_meld(team, rank, False)

    def _last_rank_meld(self, team: int, rank: int, open_only: bool) -> int | None:
        if not self.opened[team]:
            return None
        size = self.settings.book_size
        last: int | None = None
        for i, m in enumerate(self.melds[team]):
            if m.kind == RANK_MELD and m.rank == rank and not (open_only and m.size >= size):
                last = i
        return last

    def _take_pile(self, seat: int, action: TakePile) -> None:
        team = self.team_of[seat]
        count = action.count or self.settings.take_span(self.rules, len(self.pile))[0]
        taken = self.pile[-count:]
        del self.pile[-count:]
        top = taken[-1]
        target = self.pile_target(team, RANK[top])
        if target is None and not action.shown and self.opened[team]:
            # Taken with a meld of that rank on the board: the top card joins the last one.
            target = self.last_board_meld(team, RANK[top])
            assert target is not None, "a pile taken with a meld on the board has one"
        if target is not None and self.rules.pile.shown_cards == "kept":
            # The shown cards were only shown: the top card alone joins the meld.
            self._add_to(team, target, (top,))
            known = self.known[seat]
            for c in action.shown:  # the whole table saw them
                known[c] = max(known[c], action.shown.count(c))
            self.known_version += 1
        elif target is not None:
            self._add_to(team, target, (top, *action.shown))
            self._remove(seat, action.shown)
        else:
            self._new_meld(team, [top, *action.shown])
            self._remove(seat, action.shown)
        # (one meld or none, the usual case, is not sorted: the key is called through Python)
        opening = action.opening
        for cards in (opening if len(opening) < 2 else sorted(opening, key=meld_order)):
            self._new_meld(team, list(cards))
            self._remove(seat, cards)
        self.opened[team] = True
        hand = self.hands[seat]
        known = self.known[seat]
        held = self.held[seat]
        for k in range(len(taken) - 1):  # (every card but the top, without a copy)
            c = taken[k]
            hand[c] = hand[c] + 1
            known[c] = known[c] + 1
            held.bits |= card_bit(c)
        self.known_version += 1
        self.hand_len[seat] = self.hand_len[seat] + (count - 1)
        self.pile_wilds = 0  # "After this happens, the deck is unfrozen" (samba)
        self.phase = PHASE_PLAY
        if self.hand_len[seat] == 0 and self.in_foot[seat]:
            self._go_out(seat)

    def _pick_up_foot(self, seat: int) -> None:
        foot = self.feet[seat]
        assert foot is not None
        hand = self.hands[seat]
        held = self.held[seat]
        for c in foot:
            hand[c] = hand[c] + 1
            held.bits |= card_bit(c)
        self.hand_len[seat] = len(foot)
        fk = self.foot_known[seat]
        if fk is not None:
            self.known[seat][fk] = self.known[seat][fk] + 1
            self.known_version += 1
            self.foot_known[seat] = None
        self.feet[seat] = None
        self._face_down_feet = None
        self.in_foot[seat] = True
        if self.settings.red_on_board:
            self._lay_red_threes(seat)

    def _discard(self, seat: int, c: Card) -> None:
        self._remove_one(seat, c)
        self.pile.append(c)
        if WILD[c]:
            self.pile_wilds += 1
        if self.hand_len[seat] == 0 and self.in_foot[seat]:
            self._go_out(seat)
            return
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        if self.turn_plays:
            self.turn_plays = ()
        if self.in_foot[seat]:
            self.foot_turns[seat] = self.foot_turns[seat] + 1
        self.seat = self.actor = (seat + 1) % self.seats
        self.turn_number += 1
        self.asked = False
        self.permission = None
        self.may_end_turn = False
        self.phase = PHASE_DRAW
        if not self._stock_available():
            self._end_hand("stock")

    def _go_out(self, seat: int) -> None:
        if self.rules.going_out.hand_ends == "stock-drawn":
            # Play goes on until the stock is drawn: the turn ends, and the player, now
            # without cards, draws again next turn. The first to go out is remembered.
            if self.went_out is None:
                self.went_out = seat
            if self.phase != PHASE_OVER:
                self._end_turn(seat)
            return
        self.went_out = seat
        self._end_hand("out")

    def _end_hand(self, how: str) -> None:
        self.phase = PHASE_OVER
        self.ended_by = how

    def call_time(self) -> None:
        """Time is called: the hand ends as it stands, with no going-out bonus. Melds laid
        out for an opening that has not gone down yet finish the turn's play in progress:
        where they make the opening (after the draw, and not the whole of a foot), the
        team goes down with them, as the player was doing; short of it, they go back to
        the hand (no short opening is charged: the player did not take them back)."""
        if self.phase == PHASE_OVER:
            return
        seat = self.seat
        team = self.team_of[seat]
        if (not self.opened[team] and self.melds[team] and self.phase == PHASE_PLAY
                and (self.hand_len[seat] or not self.in_foot[seat])):
            value, clean, dirty, books = self.laid_out(team)
            if self.opening_met(team, value, clean, dirty, books):
                self.opened[team] = True
                self._table_changed(team, True)
        self.take_back_all()
        self._end_hand("time")

    # ------------------------------------------------------------------ copies
    @classmethod
    def from_world(cls, rules: Rules, *, hands: Sequence[Sequence[int]],
                   feet: Sequence[Sequence[Card] | None], in_foot: Sequence[bool],
                   foot_turns: Sequence[int], known: Sequence[Sequence[int]],
                   melds: Sequence[Sequence[tuple[int, int, int, Sequence[Card]]]],
                   opened: Sequence[bool], red_threes: Sequence[Sequence[Card]],
                   pile: Sequence[Card], pile_wilds: int, stock: Sequence[Card],
                   seat: int, actor: int, phase: Phase, turn_number: int = 1,
                   asked: bool = False, permission: bool | None = None,
                   may_end_turn: bool = False, hand_number: int = 1,
                   minimums: Sequence[int] | None = None,
                   team_scores: Sequence[int] | None = None,
                   rng: random.Random | None = None) -> Self:
        """A hand in the middle of play, put together from its parts (for search over
        imagined deals). ``hands`` are count vectors; ``melds`` are per team
        (kind, rank, suit, cards); ``stock`` has its top card last. No history, no deal."""
        h = cls(rules, UNSET_DEAL)
        n = rules.players.seats
        h.rules = rules
        h.settings = settings_of(rules)
        h.hand_number = hand_number
        h.seats = n
        h.team_of = rules.team_of
        h.teams = rules.players.teams
        h.team_scores = list(team_scores) if team_scores else [0] * h.teams
        h.rng = rng if rng is not None else random.Random(0)
        h._replay_shuffles = []
        h.shuffles = []
        h.minimums = (list(minimums) if minimums is not None else
                      [rules.opening_minimum(hand_number, s) for s in h.team_scores])
        h.draw_count = rules.draw_count(hand_number)
        h.deal = Deal((), seat)
        h.stacks = []
        h.hands = [list(x) for x in hands]
        h.hand_len = [sum(x) for x in hands]
        h.held = [Held(bits_held(x)) for x in h.hands]
        h.feet = [None if f is None else list(f) for f in feet]
        h.in_foot = list(in_foot)
        h.foot_turns = list(foot_turns)
        h.known = [list(x) for x in known]
        h.known_version = 0
        h.foot_known = [None] * n
        h.melds = [[Meld(kind, rank, suit, list(cards)) for kind, rank, suit, cards in ms]
                   for ms in melds]
        h.opened = list(opened)
        h.red_threes = [list(x) for x in red_threes]
        h.pile = list(pile)
        h.pile_wilds = pile_wilds
        h.stock = list(stock)
        h.first_seat = seat
        h.seat = seat
        h.actor = actor
        h.turn_number = turn_number
        h.asked = asked
        h.permission = permission
        h.may_end_turn = may_end_turn
        h.went_out = None
        h.ended_by = ""
        h.history = []
        h.table_version = [0] * h.teams
        h.short_openings = [0] * h.teams
        h.exposure_settled = -1
        h.turn_plays = ()
        h._reset_view_caches()
        h.phase = phase
        return h

    def _blank(self) -> Self:
        """A state of this one's type with none of its parts set (its copier sets them)."""
        return type(self)(self.rules, UNSET_DEAL)

    def _shallow(self) -> Self:
        """A copy sharing every part of this state (the copies below replace some)."""
        # Interpreted, the attributes are in a __dict__, and one copy of it is cheapest;
        # compiled (mypyc) there is none, and asking for it would raise and catch an
        # AttributeError on every copy (a third of a seat copy's time), so the type is asked.
        attributes: dict[str, object] | None = (
            getattr(self, "__dict__", None) if type(self).__dictoffset__ else None)
        if attributes is not None:
            h = object.__new__(type(self))
            h.__dict__ = attributes.copy()
            h.owner = _Owner()
            return h
        h = self._blank()  # compiled (mypyc): no __dict__
        h.rules, h.deal, h.hand_number = self.rules, self.deal, self.hand_number
        h.settings = self.settings
        h.seats = self.seats
        h.team_of, h.teams, h.team_scores, h.rng = self.team_of, self.teams, self.team_scores, \
            self.rng
        h._replay_shuffles, h.shuffles = self._replay_shuffles, self.shuffles
        h.minimums, h.draw_count, h.stacks = self.minimums, self.draw_count, self.stacks
        h.hands, h.hand_len, h.feet, h.in_foot = self.hands, self.hand_len, self.feet, \
            self.in_foot
        h.held = self.held
        h.foot_turns, h.known, h.known_version = self.foot_turns, self.known, self.known_version
        h.foot_known, h.melds, h.opened = self.foot_known, self.melds, self.opened
        h.red_threes, h.pile, h.pile_wilds = self.red_threes, self.pile, self.pile_wilds
        h.stock, h.first_seat, h.seat, h.actor = self.stock, self.first_seat, self.seat, \
            self.actor
        h.turn_number, h.asked, h.permission = self.turn_number, self.asked, self.permission
        h.may_end_turn, h.went_out, h.ended_by = self.may_end_turn, self.went_out, \
            self.ended_by
        h.history, h.table_version, h.phase = self.history, self.table_version, self.phase
        h.short_openings, h.exposure_settled = self.short_openings, self.exposure_settled
        h.turn_plays = self.turn_plays
        h.player_views, h.player_views_known = self.player_views, self.player_views_known
        h.team_views, h._face_down_feet = self.team_views, self._face_down_feet
        h.team_tables, h.team_books = self.team_tables, self.team_books
        return h

    def seat_copy(self) -> Self:
        """This hand as the player to act may know it: its own cards, the table, every
        count, the pile's top card and the whole public history; every other card (the
        other hands, the feet, the stock, the pile below its top, the deal and the
        shuffles to come) face down. Whether an action of that player is legal depends
        on nothing else, so the copy answers exactly as the hand does (tested); it
        shares the history, so it knows when it has gone stale."""
        me = self.actor
        feet = self._face_down_feet
        if feet is None:  # made again only when a foot is dealt or picked up
            feet = self._face_down_feet = [None if f is None else _face_down(len(f))
                                           for f in self.feet]
        hands = [_BLANK] * self.seats
        hands[me] = self.hands[me]
        held = [_NO_HELD] * self.seats
        held[me] = self.held[me]
        h = self._shallow()
        h.hands, h.feet, h.held = hands, feet, held
        h.stock, h.pile = _face_down(len(self.stock)), _face_down_pile(self.pile)
        h.stacks = ([([a[0], *[FACE_DOWN] * (len(a) - 1)], [b[0], *[FACE_DOWN] * (len(b) - 1)])
                     for a, b in self.stacks] if self.phase == PHASE_CHOOSE else _NO_STACKS)
        h.deal, h.rng = _NO_DEAL, _NO_RNG  # never drawn on: a copy only answers what is legal
        # (shared empty lists: a seat copy is only read; a clone of it copies them)
        h._replay_shuffles, h.shuffles = _NO_SHUFFLES, _NO_SHUFFLES
        return h

    def clone(self) -> Self:
        """An independent copy (for search); the rules and the deal are shared."""
        return self._copy(True)

    def trial(self) -> Self:
        """A copy to carry out one action on and ask questions of, then drop (the
        emptying rule judges a play by the table after it): as :meth:`clone`, but its
        history starts empty, since no check reads it (copying a long one was a good part
        of the check)."""
        return self._copy(False)

    def _copy(self, history: bool) -> Self:
        h = self._shallow()
        h.hands = [x[:] for x in self.hands]
        h.hand_len = self.hand_len[:]
        h.held = [Held(x.bits) for x in self.held]
        h.feet = [None if f is None else f[:] for f in self.feet]
        h.in_foot = self.in_foot[:]
        h.foot_turns = self.foot_turns[:]
        h.known = [x[:] for x in self.known]
        h.foot_known = self.foot_known[:]
        # the melds are shared until one side changes one (:meth:`_own`): both get a new
        # mark, so neither changes a shared meld in place
        h.melds = [ms[:] for ms in self.melds]
        self.owner = _Owner()
        h.owner = _Owner()
        h.opened = self.opened[:]
        h.red_threes = [x[:] for x in self.red_threes]
        h.table_version = self.table_version[:]
        h.short_openings = self.short_openings[:]
        h._reset_view_caches()
        h.pile = self.pile[:]
        h.stock = self.stock[:]
        h.history = self.history[:] if history else []
        h.shuffles = self.shuffles[:]
        h._replay_shuffles = self._replay_shuffles[:]
        h.team_scores = self.team_scores[:]
        return h

    def recount(self, seat: int) -> None:
        """The seat's number of cards and its bits (:attr:`held`) made again from its
        counts, after a caller changed them directly (tests and tools that stack a hand;
        the engine keeps both as it changes the counts)."""
        self.hand_len[seat] = sum(self.hands[seat])
        self.held[seat].bits = bits_held(self.hands[seat])

    def card_census(self) -> list[int]:
        """How many of each card are anywhere (hands, feet, table, pile, stock)."""
        counts = [0] * NUM_CARDS
        for s in range(self.seats):
            if self.phase == PHASE_CHOOSE and self.feet[s] is None:
                for c in self.stacks[s][0] + self.stacks[s][1]:
                    counts[c] = counts[c] + 1
                continue
            for c in range(NUM_CARDS):
                counts[c] = counts[c] + self.hands[s][c]
            for c in self.feet[s] or ():
                counts[c] = counts[c] + 1
        for team in range(self.teams):
            for m in self.melds[team]:
                for c in m.cards:
                    counts[c] = counts[c] + 1
            for c in self.red_threes[team]:
                counts[c] = counts[c] + 1
        for c in self.pile:
            counts[c] = counts[c] + 1
        for c in self.stock:
            counts[c] = counts[c] + 1
        return counts
