"""Rule sets as data: one immutable, validated value per set of house rules.

A rule set is a :class:`Rules` made of small frozen sections (players, deck,
deal, game, opening, turn, pile, meld, threes, going_out, scores). It loads
from and saves to TOML; an unknown key, a wrong type or an inconsistent
combination is refused with a :class:`RulesError` that names it. The five
sheets in ``shared/seeds`` are built-in presets (``presets/*.toml``).

>>> rules = preset("texas-good-sam")
>>> rules.opening.minimums, rules.pile.take_max, rules.going_out.dirty_books
((120,), 5, 3)
>>> Rules.from_toml(rules.to_toml()) == rules
True
"""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar, Final, get_type_hints

import tomli_w

from handfoot.cards import JOKER, NUM_CARDS, is_black_three, is_red, is_red_three, rank_of

PRESET_NAMES: Final = ("texas-good-sam", "alabama-samboree", "classic", "samba", "six-deck")
#: Other names people use for the presets.
PRESET_ALIASES: Final = {
    "canasta": "samba", "good-sam": "texas-good-sam", "samboree": "alabama-samboree",
}

#: The largest rule sets the engine serves fast: every legal-move question answers in
#: under 5 ms for any hand these allow, even grown to 60 cards by play (measured by
#: ``handfoot bench --legal``; docs/house-rules.md gives the figures).
MAX_SEATS: Final = 8
MAX_HAND_SIZE: Final = 30
MAX_FOOT_SIZE: Final = 30
MAX_DECKS: Final = 12

VALUE_KEYS: Final = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "Joker")


class RulesError(ValueError):
    """A rule set is malformed or inconsistent; the message names the setting."""


#: The settings that take one of a few words, and the words (a list setting: each item).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "deal.choose_hand": ("blind", "seeing-tops"),
    "deal.first_player": ("high-card", "rotate"),
    "deal.upcard_turn_back": ("red-three", "wild"),
    "game.when_time_is_called": ("end-hand", "finish-hand"),
    "game.tie_break": ("none", "playoff-hand", "high-card"),
    "turn.first_turn_upcard": ("no", "take", "take-no-discard"),
    "pile.before_opening": ("never", "with-opening"),
    "pile.shown_cards": ("melded", "kept"),
    "pile.show": ("natural-pair", "natural-and-wild", "meld-on-board"),
    "threes.red": ("discard", "board"),
    "threes.black_melded": ("never", "to-go-out", "any-time"),
    "going_out.discard": ("optional", "required", "forbidden"),
    "going_out.partners": ("none", "in-foot", "played-from-foot"),
    "going_out.stock_out": ("end-hand", "reshuffle-pile"),
    "going_out.hand_ends": ("going-out", "stock-drawn"),
}


def _choice(name: str, value: str, allowed: tuple[str, ...] | None = None) -> None:
    allowed = CHOICES[name] if allowed is None else allowed
    if value not in allowed:
        raise RulesError(f"{name} = {value!r} is not one of {', '.join(map(repr, allowed))}")


@dataclass(frozen=True, slots=True)
class Players:
    """Seats and teams. Seats alternate between teams: with 2 teams of 2, seats 0 and 2
    are partners (they sit across the table, "kitty-corner")."""

    seats: int = 4
    teams: int = 2  #: equal to ``seats`` for individual play

    def check(self) -> None:
        if not 2 <= self.seats <= MAX_SEATS:
            raise RulesError(f"players.seats = {self.seats}: the game is for 2 to "
                             f"{MAX_SEATS} players")
        if self.teams < 2 or self.seats % self.teams:
            raise RulesError(
                f"players.teams = {self.teams}: {self.seats} seats cannot be split "
                "into that many equal teams"
            )


@dataclass(frozen=True, slots=True)
class Deck:
    """How many decks: ``decks + decks_per_player * seats``."""

    decks: int = 5
    decks_per_player: int = 0
    jokers_per_deck: int = 2
    extra_jokers: int = 0


@dataclass(frozen=True, slots=True)
class Deal:
    hand_size: int = 11
    foot_size: int = 11
    #: points to the team of a player who grabs exactly hand + foot cards from the stock
    exact_grab_bonus: int = 0
    #: a simulated grab is the target plus a uniform whole number in [-spread, spread]
    grab_spread: int = 5
    #: "blind": the hand is one stack, unseen; "seeing-tops": each stack's top card is
    #: face up and the player chooses which stack is the hand
    choose_hand: str = "blind"
    #: a card turned up to start the discard pile
    upcard: bool = False
    #: kinds of upcard turned back (under the stock) and replaced: "red-three", "wild"
    upcard_turn_back: tuple[str, ...] = ()
    #: who plays first: "high-card" (a cut for high card before every hand) or
    #: "rotate" (a cut before the first hand, then the next player to the left)
    first_player: str = "high-card"


@dataclass(frozen=True, slots=True)
class GameSettings:
    hands: int = 4  #: hands in a game (a game also ends when a team reaches target_score)
    target_score: int = 0  #: 0: play the fixed number of hands
    time_limit_minutes: int = 0  #: 0: no clock
    time_warning_minutes: int = 0
    #: when time is called during a hand: "end-hand" scores it as it stands, with no
    #: going-out bonus; "finish-hand" lets it be played out and starts no new hand
    when_time_is_called: str = "end-hand"
    #: a tied game: "none" (shared win), "playoff-hand" (one more hand, then a high-card
    #: draw if still tied) or "high-card"
    tie_break: str = "none"


@dataclass(frozen=True, slots=True)
class Opening:
    """What a team's first lay-down (its "meld") needs."""

    #: point minimum per hand; the last one holds for any further hand
    minimums: tuple[int, ...] = (50, 90, 120, 150)
    #: house rule: the minimum set by the team's running score, as [score, minimum] pairs
    by_score: tuple[tuple[int, int], ...] = ()
    clean_melds: int = 0  #: melds without wilds the opening must hold
    dirty_melds: int = 0  #: melds with at least one wild the opening must hold
    books: int = 0  #: complete books the opening must hold
    #: a short opening exposed at a real table costs this (score-keeping mode only)
    short_penalty: int = 0


@dataclass(frozen=True, slots=True)
class Turn:
    draw: int = 2  #: cards drawn from the stock
    #: house rule: cards drawn in each hand (overrides ``draw``; the last holds after)
    draw_by_hand: tuple[int, ...] = ()
    #: on the first turn of a hand the first player may take the upcard alone:
    #: "no", "take" (then play and discard as usual), "take-no-discard" (and need not discard)
    first_turn_upcard: str = "no"
    #: house rule: the cards a player added and the melds they laid this turn (once the
    #: team is down) may be taken back into the hand until the discard
    take_back_turn: bool = False


@dataclass(frozen=True, slots=True)
class Pile:
    """Taking the discard pile."""

    take_min: int = 5  #: cards taken (all of them if the pile holds fewer); 0 with take_max 0: all
    take_max: int = 5  #: 0: up to the whole pile
    min_size: int = 1  #: the pile must hold at least this many cards to be taken
    #: before the team has opened: "never", or "with-opening" (the top card and the
    #: shown cards go into the opening; the rest of the pile counts for nothing in it)
    before_opening: str = "never"
    #: what a player may show to take it: "natural-pair" (two naturals of the top card's
    #: rank), "natural-and-wild", "meld-on-board" (a meld of that rank already down)
    show: tuple[str, ...] = ("natural-pair",)
    #: a wild discarded into the pile freezes it until it is taken: while a wild lies in
    #: it, only a natural pair takes it
    wild_freezes_until_taken: bool = False
    #: the cards shown to take it: "melded" (they go to the table with the top card), or
    #: "kept" (only shown: when the team has an open meld of the top card's rank, the top
    #: card alone goes onto it and the shown cards stay in the hand; with none, the top
    #: card starts a new meld with them)
    shown_cards: str = "melded"


@dataclass(frozen=True, slots=True)
class MeldRules:
    min_size: int = 3
    min_naturals: int = 2
    max_wilds: int = 3
    naturals_exceed_wilds: bool = True  #: at every moment, not only when complete
    one_open_meld_per_rank: bool = True  #: complete a meld before starting another of its rank
    books_per_rank: int = 0  #: 0: no limit
    burn_wilds: bool = False  #: may wilds be added to a complete book
    book_size: int = 7
    sequences: bool = False  #: same-suit sequences ("sambas"), 4 to ace, no wilds
    wild_melds: bool = False  #: melds of wild cards only ("wild-card canastas")
    #: while a team's wild-card meld is open, no wild may go on any other meld
    wild_meld_blocks_wilds: bool = False


@dataclass(frozen=True, slots=True)
class Threes:
    #: "discard": red 3s are held or discarded like black 3s; "board": laid on the
    #: team's board at once and replaced by a card from the stock
    red: str = "discard"
    #: black 3s melded (3♣ 3♠ only, never with wilds or red 3s): "never", "to-go-out" (only
    #: in the play that goes out: after it the player holds no card, or one to discard
    #: or meld to go out; the team must have gone down), or "any-time"; melded, a black
    #: 3 counts what it would cost held (``scores.black_three_held``), as a plus
    black_melded: str = "never"


@dataclass(frozen=True, slots=True)
class GoingOut:
    clean_books: int = 2
    dirty_books: int = 2
    wild_books: int = 0
    sequence_books: int = 0
    #: may a clean book stand in for a dirty one when counting what going out needs
    clean_counts_as_dirty: bool = False
    permission: bool = True  #: must ask a partner (skipped when playing as individuals)
    #: the last card: "optional", "required" (must go out with a discard), "forbidden"
    discard: str = "optional"
    #: what the partners must have done: "none", "in-foot" (picked up their foot),
    #: "played-from-foot" (and played at least one turn from it)
    partners: str = "none"
    #: when a player must draw and the stock is empty: "end-hand", or "reshuffle-pile"
    #: (all of the pile but its top card is shuffled into a new stock)
    stock_out: str = "end-hand"
    #: how many times the pile may be reshuffled into a new stock in one hand (0: as often
    #: as needed; with two or more cards drawn a turn, a hand always ends anyway)
    reshuffles: int = 0
    #: what ends a hand: "going-out" (a player going out ends it), or "stock-drawn" (only
    #: the stock: a player who goes out keeps taking turns, drawing and melding, with the
    #: same books needed to play a last card, until the stock has been drawn)
    hand_ends: str = "going-out"
    #: asking to go out says "I can go out now": it is refused unless the player can play
    #: every card this turn (keeping one to discard where wished), and after a yes the
    #: player must go out (no discard but the last card, while going out is still possible)
    ask_when_able: bool = False


@dataclass(frozen=True, slots=True)
class Scores:
    """Points. ``values`` is what each card counts on the table (and against a team when
    held at the end); 3s held at the end count as the two ``*_three_held`` values."""

    values: tuple[tuple[str, int], ...] = (
        ("4", 5), ("5", 5), ("6", 5), ("7", 5), ("8", 10), ("9", 10), ("10", 10),
        ("J", 10), ("Q", 10), ("K", 10), ("A", 20), ("2", 20), ("Joker", 50),
    )
    red_three_held: int = -500
    black_three_held: int = -100
    clean_book: int = 500
    dirty_book: int = 300
    wild_book: int = 1500
    sequence_book: int = 1500
    red_sevens_book: int = 0  #: 0: off; else a clean book of red 7s only scores this instead
    going_out: int = 100
    red_three_on_board: int = 100
    red_threes_set: int = 0  #: 0: off; else this many red 3s on the board together score...
    red_threes_set_bonus: int = 0  #: ...this instead, each further one ``red_three_on_board``


def card_classes(sequences: bool, red_sevens: bool) -> tuple[int, ...]:
    """Each card's class under rules with or without sequences and the red-sevens book:
    cards of one class are interchangeable for every rule (a 2's suit never matters;
    3s count by colour; a natural's suit matters only in sequences, a 7's colour only
    for the red-sevens book).

    >>> classes = card_classes(False, False)
    >>> classes[3], classes[6], classes[7], classes[23]
    (0, 5, 4, 20)
    """
    out = []
    for c in range(NUM_CARDS):
        if c == JOKER:
            out.append(c)
        elif c < 4:
            out.append(0)
        elif c < 8:
            out.append(5 if is_red(c) else 4)
        elif sequences:
            out.append(c)
        elif red_sevens and rank_of(c) == 7:
            out.append(21 if is_red(c) else 20)
        else:
            out.append(c & ~3)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Words:
    """What the rule set's own sheet calls its books, used wherever a player reads about
    them: refusals, the table page, the terminal game and the score sheet. "Red and
    black canastas" (texas, samba), "red and black books" (alabama, six-deck), "clean
    and dirty books" (classic)."""

    book: str = "book"  #: "book" or "canasta"
    clean: str = "clean"  #: a book without wild cards: "clean" or "red"
    dirty: str = "dirty"  #: a book with wild cards: "dirty" or "black"
    sequence: str = "sequence book"  #: a same-suit sequence book ("samba")

    def name(self, kind: str, count: int = 1) -> str:
        """A book of ``kind`` ("clean", "dirty", "wild", "sequence", "red-sevens") in
        these words, plural unless ``count`` is 1: "red canasta", "dirty books"."""
        noun = {"clean": f"{self.clean} {self.book}", "dirty": f"{self.dirty} {self.book}",
                "wild": f"wild-card {self.book}", "sequence": self.sequence,
                "red-sevens": f"red 7s {self.book}"}[kind]
        return noun if count == 1 else noun + "s"

    def title(self, kind: str) -> str:
        """The heading of a score sheet's line: "Red canastas", "Clean books"."""
        text = self.name(kind, 2)
        return text[:1].upper() + text[1:]


#: each section of a rule set by its name in TOML, and its class
SECTIONS: Final[dict[str, type[Any]]] = {
    "players": Players, "deck": Deck, "deal": Deal, "game": GameSettings,
    "opening": Opening, "turn": Turn, "pile": Pile, "meld": MeldRules,
    "threes": Threes, "going_out": GoingOut, "scores": Scores, "words": Words,
}


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set. Build one with :func:`preset`, :meth:`from_toml` or
    ``dataclasses.replace`` on a section; construction validates it."""

    name: str = "custom"
    title: str = ""
    source: str = ""
    players: Players = field(default_factory=Players)
    deck: Deck = field(default_factory=Deck)
    deal: Deal = field(default_factory=Deal)
    game: GameSettings = field(default_factory=GameSettings)
    opening: Opening = field(default_factory=Opening)
    turn: Turn = field(default_factory=Turn)
    pile: Pile = field(default_factory=Pile)
    meld: MeldRules = field(default_factory=MeldRules)
    threes: Threes = field(default_factory=Threes)
    going_out: GoingOut = field(default_factory=GoingOut)
    scores: Scores = field(default_factory=Scores)
    words: Words = field(default_factory=Words)

    # Tables derived once for the hot path; not part of the value.
    card_value: tuple[int, ...] = field(init=False, repr=False, compare=False)
    held_value: tuple[int, ...] = field(init=False, repr=False, compare=False)
    team_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    suits_matter: bool = field(init=False, repr=False, compare=False)
    #: each card's class: the lowest card it is interchangeable with under these rules
    #: (all 2s; red 3s and black 3s; the naturals of a rank unless sequences, or the
    #: red-sevens book, make their suit or colour matter)
    card_class: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: the cards of each class, lowest first, by class
    class_members: dict[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    #: tables the engine derives from these rules as it meets them (the smallest melds a
    #: rank's cards make, by what is held, under keys of 0 and more; what a pick-up may
    #: take, by the pile's size n, under -1 - n); not part of the value
    memo: dict[Any, Any] = field(init=False, repr=False, compare=False)
    #: the classes of each rank's naturals, as their cards, by rank (2 to ace; none for
    #: 3s and jokers)
    rank_classes: tuple[tuple[tuple[int, ...], ...], ...] = field(
        init=False, repr=False, compare=False)

    TOP_KEYS: ClassVar[tuple[str, ...]] = ("name", "title", "source")

    def __post_init__(self) -> None:
        self._check()
        values = dict(self.scores.values)
        by_rank = {r: values[k] for r, k in zip(
            (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2), VALUE_KEYS, strict=False)}
        table = [0] * NUM_CARDS
        held = [0] * NUM_CARDS
        for c in range(NUM_CARDS):
            if c == JOKER:
                table[c] = values["Joker"]
                held[c] = -values["Joker"]
            elif is_red_three(c):
                held[c] = self.scores.red_three_held
            elif is_black_three(c):
                held[c] = self.scores.black_three_held
                if self.threes.black_melded != "never":
                    table[c] = abs(self.scores.black_three_held)
            else:
                table[c] = by_rank[rank_of(c)]
                held[c] = -table[c]
        object.__setattr__(self, "card_value", tuple(table))
        object.__setattr__(self, "held_value", tuple(held))
        n_teams = self.players.teams
        object.__setattr__(self, "team_of", tuple(s % n_teams for s in range(self.players.seats)))
        object.__setattr__(
            self, "suits_matter", self.meld.sequences or self.scores.red_sevens_book != 0)
        classes = card_classes(self.meld.sequences, self.scores.red_sevens_book != 0)
        object.__setattr__(self, "card_class", classes)
        members: dict[int, list[int]] = {}
        for c in range(NUM_CARDS):
            members.setdefault(classes[c], []).append(c)
        object.__setattr__(self, "class_members", {k: tuple(v) for k, v in members.items()})
        object.__setattr__(self, "memo", {})
        object.__setattr__(self, "rank_classes", tuple(
            tuple(tuple(members[k]) for k in sorted({classes[c] for c in range(
                (r - 2) * 4, (r - 2) * 4 + 4)})) if 2 <= r <= 14 else ()
            for r in range(16)))

    # ------------------------------------------------------------------ derived
    @property
    def num_decks(self) -> int:
        return self.deck.decks + self.deck.decks_per_player * self.players.seats

    @property
    def num_cards(self) -> int:
        return self.num_decks * (52 + self.deck.jokers_per_deck) + self.deck.extra_jokers

    @property
    def team_size(self) -> int:
        return self.players.seats // self.players.teams

    @property
    def individuals(self) -> bool:
        return self.players.teams == self.players.seats

    def opening_minimum(self, hand_number: int, team_score: int = 0) -> int:
        """The points a team needs to open in this hand (1-based), given its running score."""
        if self.opening.by_score:
            minimum = 0
            for threshold, points in self.opening.by_score:
                if team_score >= threshold:
                    minimum = points
            return minimum
        mins = self.opening.minimums
        return mins[min(hand_number, len(mins)) - 1] if mins else 0

    def pile_take_counts(self, size: int) -> range:
        """How many cards a pick-up may take from a pile of ``size`` cards (a count of 0
        in a :class:`~handfoot.actions.TakePile` means the first of them)."""
        pile = self.pile
        if pile.take_max == 0:
            low = min(pile.take_min, size) if pile.take_min else size
            return range(max(low, 1), size + 1)
        return range(min(pile.take_min, size), min(pile.take_max, size) + 1)

    def draw_count(self, hand_number: int) -> int:
        by_hand = self.turn.draw_by_hand
        return by_hand[min(hand_number, len(by_hand)) - 1] if by_hand else self.turn.draw

    # --------------------------------------------------------------- validation
    def _check(self) -> None:
        p, d, g, o, t, pile, m, go, s = (
            self.players, self.deal, self.game, self.opening, self.turn, self.pile,
            self.meld, self.going_out, self.scores)
        p.check()
        if self.num_decks < 1:
            raise RulesError("deck: a rule set needs at least one deck "
                             "(deck.decks + deck.decks_per_player * seats)")
        if self.deck.jokers_per_deck < 0 or self.deck.extra_jokers < 0:
            raise RulesError("deck.jokers_per_deck and deck.extra_jokers cannot be negative")
        if d.hand_size < 1 or d.foot_size < 1:
            raise RulesError("deal.hand_size and deal.foot_size must be at least 1")
        if d.hand_size > MAX_HAND_SIZE or d.foot_size > MAX_FOOT_SIZE:
            raise RulesError(
                f"deal.hand_size = {d.hand_size}, deal.foot_size = {d.foot_size}: a hand or "
                f"foot holds at most {MAX_HAND_SIZE} cards (the largest the engine serves "
                "fast)")
        if self.num_decks > MAX_DECKS:
            raise RulesError(f"deck: {self.num_decks} decks; a rule set may use at most "
                             f"{MAX_DECKS} (the most the engine serves fast)")
        needed = p.seats * (d.hand_size + d.foot_size) + 10
        if self.num_cards < needed:
            raise RulesError(
                f"deck: {self.num_decks} deck(s) make {self.num_cards} cards, too few to deal "
                f"{p.seats} players {d.hand_size} + {d.foot_size} cards and keep a stock")
        _choice("deal.choose_hand", d.choose_hand)
        _choice("deal.first_player", d.first_player)
        for kind in d.upcard_turn_back:
            _choice("deal.upcard_turn_back", kind)
        if d.upcard_turn_back and not d.upcard:
            raise RulesError("deal.upcard_turn_back needs deal.upcard = true")
        if d.grab_spread < 0 or d.exact_grab_bonus < 0:
            raise RulesError("deal.grab_spread and deal.exact_grab_bonus cannot be negative")
        if g.hands < 1:
            raise RulesError("game.hands must be at least 1")
        _choice("game.when_time_is_called", g.when_time_is_called)
        _choice("game.tie_break", g.tie_break)
        if g.time_warning_minutes and g.time_warning_minutes >= max(g.time_limit_minutes, 1):
            raise RulesError("game.time_warning_minutes must be less than game.time_limit_minutes")
        if any(x < 0 for x in o.minimums):
            raise RulesError("opening.minimums cannot be negative")
        if o.by_score and list(o.by_score) != sorted(o.by_score):
            raise RulesError("opening.by_score must list [score, minimum] pairs by rising score")
        if min(o.clean_melds, o.dirty_melds, o.books) < 0:
            raise RulesError("opening: the number of melds or books cannot be negative")
        _choice("turn.first_turn_upcard", t.first_turn_upcard)
        if t.first_turn_upcard != "no" and not d.upcard:
            raise RulesError("turn.first_turn_upcard needs deal.upcard = true")
        if t.draw < 1 or any(x < 1 for x in t.draw_by_hand):
            raise RulesError("turn.draw: a player draws at least one card")
        if pile.take_min < 0 or pile.take_max < 0:
            raise RulesError("pile.take_min and pile.take_max cannot be negative")
        if pile.take_max and pile.take_min > pile.take_max:
            raise RulesError(
                f"pile.take_min = {pile.take_min} is more than pile.take_max = {pile.take_max}")
        _choice("pile.before_opening", pile.before_opening)
        _choice("pile.shown_cards", pile.shown_cards)
        if not pile.show:
            raise RulesError("pile.show: list at least one way to take the pile")
        for way in pile.show:
            _choice("pile.show", way)
        if m.min_size < 2 or m.book_size < m.min_size:
            raise RulesError(f"meld.min_size = {m.min_size} must be at least 2 and at most "
                             f"meld.book_size = {m.book_size}")
        if not 1 <= m.min_naturals <= m.min_size:
            raise RulesError(f"meld.min_naturals = {m.min_naturals} must be between 1 and "
                             f"meld.min_size = {m.min_size}")
        if m.max_wilds < 0 or m.max_wilds >= m.book_size:
            raise RulesError(f"meld.max_wilds = {m.max_wilds} must be less than meld.book_size")
        if m.sequences and m.book_size > 11:
            raise RulesError("meld.sequences: a sequence runs 4 to ace, so meld.book_size "
                             "cannot exceed 11")
        if m.wild_meld_blocks_wilds and not m.wild_melds:
            raise RulesError("meld.wild_meld_blocks_wilds needs meld.wild_melds = true")
        _choice("threes.red", self.threes.red)
        _choice("threes.black_melded", self.threes.black_melded)
        if go.wild_books and not m.wild_melds:
            raise RulesError("going_out.wild_books needs meld.wild_melds = true")
        if go.sequence_books and not m.sequences:
            raise RulesError("going_out.sequence_books needs meld.sequences = true")
        if min(go.clean_books, go.dirty_books, go.wild_books, go.sequence_books) < 0:
            raise RulesError("going_out: the number of books cannot be negative")
        _choice("going_out.discard", go.discard)
        _choice("going_out.partners", go.partners)
        _choice("going_out.stock_out", go.stock_out)
        _choice("going_out.hand_ends", go.hand_ends)
        if go.ask_when_able and not go.permission:
            raise RulesError("going_out.ask_when_able needs going_out.permission = true")
        if go.reshuffles < 0:
            raise RulesError("going_out.reshuffles cannot be negative")
        min_draw = min((t.draw, *t.draw_by_hand))
        if go.stock_out == "reshuffle-pile" and go.reshuffles == 0 and min_draw < 2:
            # Each turn must take at least one card out of stock and pile together, or
            # a hand where nobody can meld goes round for ever.
            raise RulesError(
                "going_out.reshuffles: with one card drawn a turn and the pile reshuffled "
                "without limit, a hand could go on for ever; set a limit, such as 2")
        keys = [k for k, _ in s.values]
        if sorted(keys) != sorted(VALUE_KEYS):
            missing = [k for k in VALUE_KEYS if k not in keys]
            extra = [k for k in keys if k not in VALUE_KEYS]
            raise RulesError(
                "scores.values must give each of " + ", ".join(VALUE_KEYS)
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(extra)}" if extra else ""))
        for f in dataclasses.fields(Words):
            if not str(getattr(self.words, f.name)).strip():
                raise RulesError(f"words.{f.name} cannot be empty")
        if s.red_threes_set and self.threes.red != "board":
            raise RulesError("scores.red_threes_set needs threes.red = \"board\"")

    # ---------------------------------------------------------------- TOML, dict
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in self.TOP_KEYS}
        for name in SECTIONS:
            section = getattr(self, name)
            values: dict[str, Any] = {}
            for f in dataclasses.fields(section):
                v = getattr(section, f.name)
                if name == "scores" and f.name == "values":
                    values[f.name] = dict(v)
                elif isinstance(v, tuple):
                    values[f.name] = [list(x) if isinstance(x, tuple) else x for x in v]
                else:
                    values[f.name] = v
            out[name] = values
        return out

    def to_toml(self) -> str:
        text: str = tomli_w.dumps(self.to_dict())
        return text

    @classmethod
    def from_dict(cls, data: dict[str, Any], base: Rules | None = None) -> Rules:
        """Build a rule set from a dict (as read from TOML or JSON). Sections and keys
        that are absent take their value from ``base`` (the defaults if none)."""
        if not isinstance(data, dict):
            raise RulesError("a rule set must be a table of settings")
        base = base or Rules()
        top: dict[str, Any] = {}
        for key, value in data.items():
            if key in cls.TOP_KEYS:
                if not isinstance(value, str):
                    raise RulesError(f"{key} must be text")
                top[key] = value
            elif key in SECTIONS:
                if not isinstance(value, dict):
                    raise RulesError(f"[{key}] is a section of settings, not a setting "
                                     f"itself ({key} = {value!r}){_belongs(key, value)}")
                top[key] = _section_from_dict(key, SECTIONS[key], value, getattr(base, key))
            else:
                raise RulesError(f"unknown setting {key!r}{_belongs(key, value)}; the "
                                 f"sections are {', '.join(SECTIONS)}")
        return dataclasses.replace(base, **top)

    @classmethod
    def from_toml(cls, text: str, base: Rules | None = None) -> Rules:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RulesError(f"this is not valid TOML: {e}") from e
        if "extends" in data:
            parent = data.pop("extends")
            if not isinstance(parent, str):
                raise RulesError("extends must name a preset")
            base = preset(parent)
        return cls.from_dict(data, base)

    def changes_from(self, other: Rules) -> list[tuple[str, Any, Any]]:
        """The settings that differ from ``other``: (``section.key``, theirs, ours)."""
        mine, theirs = self.to_dict(), other.to_dict()
        out: list[tuple[str, Any, Any]] = []
        for name in SECTIONS:
            for key, value in mine[name].items():
                if theirs[name][key] != value:
                    out.append((f"{name}.{key}", theirs[name][key], value))
        return out


def _belongs(key: str, value: Any) -> str:
    """Where a setting written outside its section belongs, in words ("" if nowhere):
    ``going_out = 500`` at the top is the points for going out, ``[scores]``."""
    homes = [name for name, cls in SECTIONS.items()
             if key in {f.name for f in dataclasses.fields(cls)}]
    if not homes:
        return ""
    shown = tomli_w.dumps({"v": value})[4:].strip() if value is not None else "..."
    where = " or ".join(f"[{h}]" for h in homes)
    return (f"; the setting {key} belongs in {where}: write [{homes[0]}] on one line and "
            f"{key} = {shown} on the next")


def _section_from_dict(name: str, cls: type[Any], data: dict[str, Any], base: Any) -> Any:
    hints = get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise RulesError(
                f"unknown setting {name}.{key}; [{name}] has {', '.join(sorted(known))}"
                + _belongs(key, value))
        changes[key] = _coerce(f"{name}.{key}", hints[key], value)
    return dataclasses.replace(base, **changes)


def _coerce(where: str, hint: Any, value: Any) -> Any:
    if where == "scores.values":
        if not isinstance(value, dict):
            raise RulesError(f"{where} must be a table of card values, like {{ \"4\" = 5 }}")
        pairs = []
        for k, v in value.items():
            if not isinstance(v, int) or isinstance(v, bool):
                raise RulesError(f"{where}.{k} must be a whole number")
            pairs.append((str(k), v))
        order = {k: i for i, k in enumerate(VALUE_KEYS)}
        return tuple(sorted(pairs, key=lambda kv: order.get(kv[0], 99)))
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{where} must be true or false, not {value!r}")
        return value
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{where} must be a whole number, not {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise RulesError(f"{where} must be text, not {value!r}")
        return value
    origin = typing.get_origin(hint)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise RulesError(f"{where} must be a list, not {value!r}")
        inner = typing.get_args(hint)[0]
        return tuple(_coerce(where, inner, v) for v in value)
    raise RulesError(f"{where}: cannot read {value!r}")  # pragma: no cover


def preset(name: str) -> Rules:
    """A built-in rule set by name (or alias): one of :data:`PRESET_NAMES`."""
    key = PRESET_ALIASES.get(name, name)
    if key not in PRESET_NAMES:
        raise RulesError(
            f"there is no preset called {name!r}; the presets are {', '.join(PRESET_NAMES)}")
    return _load_preset(key)


_PRESET_CACHE: dict[str, Rules] = {}


def _load_preset(key: str) -> Rules:
    if key not in _PRESET_CACHE:
        folder = resources.files("handfoot.rules").joinpath("presets")
        text = folder.joinpath(f"{key}.toml").read_text("utf-8")
        _PRESET_CACHE[key] = Rules.from_toml(text)
    return _PRESET_CACHE[key]


def load_rules(text_or_name: str) -> Rules:
    """A preset name, or TOML text (which may say ``extends = "preset"``)."""
    stripped = text_or_name.strip()
    if "\n" not in stripped and "=" not in stripped:
        return preset(stripped)
    return Rules.from_toml(text_or_name)
