"""One hand of Hand and Foot: the state, every action checked, and what is legal.

The engine does no I/O and reads no clock; its only randomness is a shuffle of
the pile when the stock runs out, taken from an injected ``random.Random`` and
kept in :attr:`Hand.shuffles` so that a record replays without it.

Every action goes through :meth:`Hand.verify` before anything changes, so a
refused action (an :class:`IllegalAction`, a ``ValueError``) leaves the state
exactly as it was. :meth:`Hand.apply` verifies and applies; :meth:`Hand.push`
applies an action already known to be legal (the fast path for simulations).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations_with_replacement
from operator import le
from typing import Protocol

from handfoot.actions import (
    ASK,
    DRAW,
    END_TURN,
    NO,
    PICK_UP_FOOT,
    TAKE_UPCARD,
    YES,
    Action,
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    ChooseHand,
    Discard,
    Draw,
    EndTurn,
    LayDown,
    PickUpFoot,
    TakePile,
    TakeUpcard,
)
from handfoot.cards import (
    JOKER,
    NATURAL,
    NO_CARDS,
    NUM_CARDS,
    RANK,
    RANK_WORDS,
    SUIT,
    SUIT_SYMBOLS,
    WILD,
    Card,
    format_card,
    format_cards,
    is_red_three,
    is_three,
)
from handfoot.rules import GoingOut, Rules, Words

RANK_MELD, SEQUENCE, WILD_MELD = 0, 1, 2
TWOS = (0, 1, 2, 3)


class Phase(IntEnum):
    CHOOSE = 0  #: players choose which dealt stack is their hand
    DRAW = 1  #: the player to act draws, or takes the pile or the upcard
    PLAY = 2  #: the player lays down, adds, asks to go out, and discards
    ASK = 3  #: the partner answers a request to go out
    OVER = 4  #: the hand is over


# The phases again as plain module names: the engine reads them on every action, and
# reading an enum's member goes through its class each time.
_CHOOSE, _DRAW, _PLAY = Phase.CHOOSE, Phase.DRAW, Phase.PLAY
_ASK, _OVER = Phase.ASK, Phase.OVER


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is for the player."""


class NotYourTurn(IllegalAction):
    pass


class WrongPhase(IllegalAction):
    pass


class CardsNotHeld(IllegalAction):
    pass


class BadMeld(IllegalAction):
    pass


class OpeningTooLow(IllegalAction):
    pass


class PileNotAvailable(IllegalAction):
    pass


class CannotGoOut(IllegalAction):
    pass


#: what a card the player cannot see is shown as in :meth:`Hand.seat_copy`
FACE_DOWN: Card = 0
_NO_RNG = random.Random(0)


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
        rng.shuffle(deck)
        seats = rules.players.seats
        target = rules.deal.hand_size + rules.deal.foot_size
        spread = rules.deal.grab_spread
        grabs = tuple(target + rng.randint(-spread, spread) for _ in range(seats))
        if first_seat is None:
            first_seat = high_card_cut(seats, rng)
        return Deal(tuple(deck), first_seat, grabs)


def full_deck(rules: Rules) -> list[Card]:
    """Every card of the rule set's decks, in card order."""
    deck: list[Card] = []
    for _ in range(rules.num_decks):
        deck.extend(range(52))
        deck.extend([JOKER] * rules.deck.jokers_per_deck)
    deck.extend([JOKER] * rules.deck.extra_jokers)
    return deck


def high_card_cut(seats: int, rng: random.Random) -> int:
    """Each player cuts for high card (2 low, ace high); ties cut again."""
    contenders = list(range(seats))
    while True:
        cuts = {s: rng.randint(2, 14) for s in contenders}
        best = max(cuts.values())
        contenders = [s for s in contenders if cuts[s] == best]
        if len(contenders) == 1:
            return contenders[0]


class Meld:
    """A meld on the table; it is a book once it holds ``book_size`` cards."""

    __slots__ = ("cards", "high", "kind", "low", "naturals", "rank", "size", "suit", "view",
                 "wilds")

    def __init__(self, kind: int, rank: int, suit: int, cards: list[Card]) -> None:
        #: what a view made of this meld, as (cards, index, view): a cache for
        #: :mod:`handfoot.views` (cards are only ever added to a meld)
        self.view: tuple[int, int, object] | None = None
        self.kind = kind
        self.rank = rank
        self.suit = suit
        self.cards = cards
        #: how many cards it holds (kept with ``cards``: read far more often than changed)
        self.size = len(cards)
        self.wilds = sum(1 for c in cards if WILD[c])
        self.naturals = self.size - self.wilds
        ranks = [RANK[c] for c in cards]
        self.low = min(ranks)
        self.high = max(ranks)

    def copy(self) -> Meld:
        m = Meld.__new__(Meld)
        m.kind, m.rank, m.suit, m.cards = self.kind, self.rank, self.suit, self.cards[:]
        m.size = self.size
        m.wilds, m.naturals, m.low, m.high = self.wilds, self.naturals, self.low, self.high
        m.view = self.view
        return m

    def describe(self) -> str:
        if self.kind == SEQUENCE:
            return f"{SUIT_SYMBOLS[self.suit]} sequence"
        if self.kind == WILD_MELD:
            return "wild cards"
        return RANK_WORDS[self.rank]

    def __repr__(self) -> str:
        return f"<Meld {self.describe()}: {format_cards(self.cards)}>"


@dataclass(slots=True)
class _Pending:
    """What one lay-down (or a pile pick-up with its opening) would put on the table."""

    value: int = 0
    clean: int = 0
    dirty: int = 0
    books: int = 0
    used: list[int] = field(default_factory=lambda: [0] * NUM_CARDS)


def _fits(m: Sequence[Card], used: list[int], hand: list[int],
          extra: Sequence[Card] = ()) -> bool:
    need = [0] * NUM_CARDS
    for c in (*m, *extra):
        need[c] += 1
    return all(used[c] + need[c] <= hand[c] for c in set(m) | set(extra))


def _meld_order(cards: Sequence[Card]) -> tuple[bool, int]:
    """Melds of one action are checked and laid wild-card melds first, then longest first."""
    return (not all(WILD[c] for c in cards), -len(cards))


def _plus(used: list[int], cards: Sequence[Card]) -> list[int]:
    out = used[:]
    for c in cards:
        out[c] += 1
    return out


_NO_DEAL = Deal((), 0)
# A seat copy is never played on, so its face-down cards are shared tuples, typed as the
# lists they stand in for (``typing.cast`` would cost a call on the hot path).
_FACE_DOWN: dict[int, list[Card]] = {}
_FACE_DOWN_PILES: dict[tuple[int, Card], list[Card]] = {}
_BLANK: list[int] = NO_CARDS  # type: ignore[assignment]


def _face_down(n: int) -> list[Card]:
    """``n`` face-down cards."""
    cards = _FACE_DOWN.get(n)
    if cards is not None:
        return cards
    made: list[Card] = (FACE_DOWN,) * n  # type: ignore[assignment]
    _FACE_DOWN[n] = made
    return made


def _face_down_pile(pile: list[Card]) -> list[Card]:
    """A discard pile with only its top card face up (at most some 6,000 of them: a
    pile's size times a top card)."""
    if not pile:
        return []
    key = (len(pile), pile[-1])
    cards = _FACE_DOWN_PILES.get(key)
    if cards is not None:
        return cards
    made: list[Card] = (FACE_DOWN,) * (len(pile) - 1) + (pile[-1],)  # type: ignore[assignment]
    _FACE_DOWN_PILES[key] = made
    return made


def _needs(counts: list[int], held: list[int]) -> str | None:
    """The cards in ``counts`` not held, as text, or None."""
    if all(map(le, counts, held)):
        return None
    missing = [c for c in range(NUM_CARDS) if counts[c] > held[c]]
    if not missing:
        return None
    return format_cards(missing)


@functools.lru_cache(maxsize=4096)
def _books_missing(go: GoingOut, words: Words, clean: int, dirty: int, wild: int,
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


class Hand:
    """The state of one hand: who holds what, what is on the table, whose turn it is.

    >>> from handfoot.rules import preset
    >>> rules = preset("texas-good-sam")
    >>> hand = Hand(rules, Deal.shuffled(rules, random.Random(7)))
    >>> hand.phase.name, hand.actor == hand.first_seat, len(hand.stock)
    ('DRAW', True, 182)
    >>> hand.apply(Draw()); hand.phase.name
    'PLAY'
    """

    def __init__(self, rules: Rules, deal: Deal, hand_number: int = 1,
                 team_scores: Sequence[int] | None = None,
                 rng: random.Random | None = None) -> None:
        self.rules = rules
        self.deal = deal
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
        if sorted(order) != sorted(full_deck(rules)):
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
        #: cards each team has on the table (melds and red 3s); they only ever grow,
        #: so this says whether a team's part of the table changed
        self.table_cards = [0] * self.teams
        self._reset_view_caches()
        if rules.deal.choose_hand == "seeing-tops":
            self.phase = _CHOOSE
        else:
            for s in range(n):
                self._set_hand(s, 0)
            self.phase = _DRAW
            self._lay_dealt_red_threes()

    def _reset_view_caches(self) -> None:
        #: what :mod:`handfoot.views` last made of each seat and each team, with what
        #: it was made from (a copy of the hand starts without them)
        self.player_views: object = None
        self.player_views_known = -1
        self.team_views: list[tuple[int, object] | None] = [None] * self.teams
        #: the feet as :meth:`seat_copy` shows them (face down); None when they changed
        self._face_down_feet: list[list[Card] | None] | None = None

    # ------------------------------------------------------------- small helpers
    def team_seats(self, team: int) -> list[int]:
        return [s for s in range(self.seats) if self.team_of[s] == team]

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
            if k:
                out.extend([c] * k)
        return out

    def foot_size(self, seat: int) -> int:
        foot = self.feet[seat]
        return 0 if foot is None else len(foot)

    def card_counts(self, seat: int) -> tuple[int, int]:
        """How many cards ``seat`` holds in its hand and in its foot, as the whole
        table sees them (while hands are chosen: the two stacks it has not chosen
        between yet)."""
        if self.phase == _CHOOSE and self.feet[seat] is None:
            hand, foot = self.stacks[seat]
            return len(hand), len(foot)
        return self.hand_len[seat], self.foot_size(seat)

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def over(self) -> bool:
        return self.phase == _OVER

    def _set_hand(self, seat: int, stack: int) -> None:
        a, b = self.stacks[seat]
        hand, foot = (a, b) if stack == 0 else (b, a)
        counts = self.hands[seat]
        for c in hand:
            counts[c] += 1
        self.hand_len[seat] = len(hand)
        self.feet[seat] = list(foot)
        self._face_down_feet = None
        if self.rules.deal.choose_hand == "seeing-tops":
            # Both top cards were face up for the whole table to see.
            self.known[seat][hand[0]] += 1
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
        team = self.team_of[seat]
        while hand[5] or hand[6]:
            for c in (5, 6):
                while hand[c]:
                    hand[c] -= 1
                    self.hand_len[seat] -= 1
                    if self.known[seat][c]:
                        self.known[seat][c] -= 1
                        self.known_version += 1
                    self.red_threes[team].append(c)
                    self.table_cards[team] += 1
                    got = self._pop_stock()
                    if got is not None:
                        hand[got] += 1
                        self.hand_len[seat] += 1

    def _pop_stock(self) -> Card | None:
        if not self.stock and not self._reshuffle():
            return None
        return self.stock.pop()

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
            self.rng.shuffle(new)
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
        """Complete books of a team: (clean, dirty, wild, sequence)."""
        return count_books(self.melds[team], self.rules.meld.book_size)

    def books_missing(self, team: int) -> str | None:
        """What the team still needs in books to go out, in words, or None."""
        return _books_missing(self.rules.going_out, self.rules.words, *self.books(team))

    def partners_missing(self, seat: int) -> str | None:
        """What the partners must still do before this player may go out, or None."""
        if self.rules.individuals:
            return None
        how = self.rules.going_out.partners
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
        missing = self.books_missing(self.team_of[seat])
        if missing:
            return f"your team needs {missing}"
        partners = self.partners_missing(seat)
        if partners:
            return partners
        if (self.rules.going_out.permission and not self.rules.individuals
                and self.permission is not True):
            if self.permission is False:
                return "your partner said no this turn"
            return "you must ask your partner first"
        return None

    def _check_emptying(self, seat: int, left: int, by_discard: bool) -> None:
        """A player in the foot may run out of cards only by going out, and must keep a
        card to discard (and one to hold) until going out is allowed."""
        if left > 1 or not self.in_foot[seat] or (left == 1 and by_discard):
            return
        why = self.go_out_blocker(seat)
        rule = self.rules.going_out.discard
        if left == 1:
            if why:
                raise CannotGoOut("Keep at least two cards, one to discard and one to hold, "
                                  f"until you can go out: {why}.")
            return
        if why:
            raise CannotGoOut(f"You cannot go out yet: {why}. Keep at least one card.")
        if by_discard and rule == "forbidden":
            raise CannotGoOut("You cannot go out with a discard: meld your last card.")
        if not by_discard and rule == "required":
            raise CannotGoOut("You must keep a card to discard when you go out.")

    def _stuck(self, seat: int) -> bool:
        """A player in the foot left with one card who may neither go out nor discard it
        (a rare corner when the stock ran dry) ends the turn without a discard."""
        return (self.in_foot[seat] and self.hand_len[seat] <= 1
                and not self._fits_emptying(seat, self.hand_len[seat], by_discard=True))

    # ------------------------------------------------------------ meld checks
    def _wild_meld_open(self, team: int) -> bool:
        size = self.rules.meld.book_size
        return any(m.kind == WILD_MELD and len(m.cards) < size for m in self.melds[team])

    def _classify(self, cards: Sequence[Card]) -> tuple[int, int, int]:
        """(kind, rank, suit) of a new meld's cards, or BadMeld saying why not."""
        rules = self.rules.meld
        naturals = [c for c in cards if NATURAL[c]]
        threes = [c for c in cards if is_three(c)]
        if threes:
            raise BadMeld(f"3s cannot be melded ({format_cards(threes)}).")
        if len(cards) < rules.min_size:
            raise BadMeld(f"A meld needs at least {rules.min_size} cards; "
                          f"{format_cards(cards)} is {len(cards)}.")
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
                    raise BadMeld(f"A {self.rules.words.name('sequence')} is complete at "
                                  f"{rules.book_size} cards.")
                return SEQUENCE, 0, SUIT[cards[0]]
            if len(suits) == 1 and len(naturals) == len(cards):
                raise BadMeld(f"{format_cards(cards)} is not an unbroken sequence in one suit.")
            if len(naturals) < len(cards) and len(suits - {-1}) == 1:
                raise BadMeld("A sequence cannot hold wild cards.")
        raise BadMeld(f"A meld is cards of one rank: {format_cards(cards)} mixes "
                      + ", ".join(RANK_WORDS[r] for r in sorted(ranks)) + ".")

    def _check_rank_counts(self, rank: int, naturals: int, wilds: int, complete_before: bool,
                           added_wilds: int) -> None:
        rules = self.rules.meld
        name = RANK_WORDS[rank]
        if complete_before and added_wilds and not rules.burn_wilds:
            raise BadMeld(f"Wild cards cannot be added to a complete {self.rules.words.book}.")
        if naturals < rules.min_naturals:
            raise BadMeld(f"A meld of {name} needs at least {rules.min_naturals} natural cards.")
        if wilds > rules.max_wilds:
            raise BadMeld(f"A meld may hold at most {rules.max_wilds} wild cards; "
                          f"this meld of {name} would hold {wilds}.")
        if rules.naturals_exceed_wilds and wilds >= naturals:
            raise BadMeld(f"A meld needs more natural cards than wild cards; this meld of {name} "
                          f"would have {naturals} natural and {wilds} wild.")

    def _check_new_meld(self, team: int, cards: Sequence[Card], open_ranks: dict[int, int],
                        book_ranks: dict[int, int], wild_open: bool) -> tuple[int, int, int]:
        """Check one new meld against the rules and the team's table (as it would be
        after the melds before it in the same action); update the bookkeeping."""
        rules = self.rules.meld
        kind, rank, suit = self._classify(cards)
        wilds = sum(1 for c in cards if WILD[c])
        if kind == RANK_MELD:
            self._check_rank_counts(rank, len(cards) - wilds, wilds, False, 0)
            if wilds and wild_open and rules.wild_meld_blocks_wilds:
                raise BadMeld("While your wild-card meld is open, no wild may go on another meld.")
            if rules.one_open_meld_per_rank and open_ranks.get(rank, 0):
                raise BadMeld(f"Your team already has a meld of {RANK_WORDS[rank]} "
                              "on the table: complete it before starting another.")
            complete = len(cards) >= rules.book_size
            if rules.books_per_rank and book_ranks.get(rank, 0) + open_ranks.get(rank, 0) \
                    >= rules.books_per_rank:
                raise BadMeld(f"Your team may have only {rules.books_per_rank} "
                              f"{self.rules.words.book}s of {RANK_WORDS[rank]}.")
            key = book_ranks if complete else open_ranks
            key[rank] = key.get(rank, 0) + 1
        elif kind == WILD_MELD:
            if wild_open:
                raise BadMeld("Your team already has a wild-card meld open: complete it first.")
            if len(cards) > rules.book_size:
                raise BadMeld(f"A {self.rules.words.name('wild')} is complete at "
                              f"{rules.book_size} cards.")
        return kind, rank, suit

    def _table_state(self, team: int) -> tuple[dict[int, int], dict[int, int], bool]:
        size = self.rules.meld.book_size
        open_ranks: dict[int, int] = {}
        book_ranks: dict[int, int] = {}
        wild_open = False
        for m in self.melds[team]:
            if m.kind == RANK_MELD:
                d = book_ranks if len(m.cards) >= size else open_ranks
                d[m.rank] = d.get(m.rank, 0) + 1
            elif m.kind == WILD_MELD and len(m.cards) < size:
                wild_open = True
        return open_ranks, book_ranks, wild_open

    def _check_melds(self, team: int, melds: Sequence[Sequence[Card]], pending: _Pending,
                     tables: tuple[dict[int, int], dict[int, int], bool] | None = None) -> None:
        open_ranks, book_ranks, wild_open = tables or self._table_state(team)
        size = self.rules.meld.book_size
        values = self.rules.card_value
        # Wild-card melds first (one started blocks wilds on the others laid with it), then
        # complete books, so that "complete before starting another" reads the same
        # whatever order the player listed the melds in.
        for cards in sorted(melds, key=_meld_order):
            kind, _, _ = self._check_new_meld(team, cards, open_ranks, book_ranks, wild_open)
            if kind == WILD_MELD and len(cards) < size:
                wild_open = True
            wilds = 0
            for c in cards:
                pending.used[c] += 1
                pending.value += values[c]
                wilds += WILD[c]
            if kind == RANK_MELD:
                if wilds:
                    pending.dirty += 1
                else:
                    pending.clean += 1
            if len(cards) >= size:
                pending.books += 1

    def _check_add(self, team: int, index: int, cards: Sequence[Card]) -> Meld:
        melds = self.melds[team]
        if not 0 <= index < len(melds):
            raise BadMeld(f"Your team has no meld number {index + 1}.")
        if not cards:
            raise BadMeld("Say which cards to add.")
        meld = melds[index]
        rules = self.rules.meld
        size = rules.book_size
        complete = len(meld.cards) >= size
        threes = [c for c in cards if is_three(c)]
        if threes:
            raise BadMeld(f"3s cannot be melded ({format_cards(threes)}).")
        added_wilds = sum(1 for c in cards if WILD[c])
        if meld.kind == WILD_MELD:
            if added_wilds != len(cards):
                raise BadMeld("Only wild cards go on a wild-card meld.")
            if len(meld.cards) + len(cards) > size:
                raise BadMeld(f"A {self.rules.words.name('wild')} is complete at {size} cards.")
            return meld
        if meld.kind == SEQUENCE:
            if complete:
                raise BadMeld(f"This {self.rules.words.name('sequence')} is complete at {size} "
                              "cards and takes no more.")
            if added_wilds or any(SUIT[c] != meld.suit for c in cards):
                raise BadMeld(f"Only {SUIT_SYMBOLS[meld.suit]} cards that extend the "
                              "sequence can be added to it.")
            ranks = sorted([RANK[c] for c in cards] + [RANK[c] for c in meld.cards])
            if (len(set(ranks)) != len(ranks) or ranks[-1] - ranks[0] != len(ranks) - 1):
                raise BadMeld(f"{format_cards(cards)} does not extend the sequence "
                              f"{format_cards(meld.cards)}.")
            if len(ranks) > size:
                raise BadMeld(f"A {self.rules.words.name('sequence')} is complete at {size} "
                              "cards.")
            return meld
        wrong = [c for c in cards if not WILD[c] and RANK[c] != meld.rank]
        if wrong:
            raise BadMeld(f"{format_cards(wrong)} cannot go on the meld of "
                          f"{RANK_WORDS[meld.rank]}.")
        if added_wilds and rules.wild_meld_blocks_wilds and self._wild_meld_open(team):
            raise BadMeld("While your wild-card meld is open, no wild may go on another meld.")
        self._check_rank_counts(meld.rank, meld.naturals + len(cards) - added_wilds,
                                meld.wilds + added_wilds, complete, added_wilds)
        return meld

    def _check_opening(self, team: int, pending: _Pending) -> None:
        o = self.rules.opening
        minimum = self.minimums[team]
        if pending.value < minimum:
            raise OpeningTooLow(f"Your team needs {minimum} points to go down; "
                                f"these melds make {pending.value}.")
        if pending.clean < o.clean_melds:
            raise OpeningTooLow(f"Your team's opening must hold {o.clean_melds} clean meld"
                                f"{'s' if o.clean_melds > 1 else ''} (no wild cards).")
        if pending.dirty < o.dirty_melds:
            raise OpeningTooLow(f"Your team's opening must hold {o.dirty_melds} dirty meld"
                                f"{'s' if o.dirty_melds > 1 else ''} (with a wild card).")
        if pending.books < o.books:
            raise OpeningTooLow(f"Your team's opening must hold {o.books} complete book"
                                f"{'s' if o.books > 1 else ''}.")

    # ------------------------------------------------------------- the pile
    def pile_blocker(self, seat: int) -> str | None:
        """Why the pile cannot be taken at all now, or None."""
        rules = self.rules.pile
        top = self.pile_top
        if top is None:
            return "The discard pile is empty."
        if is_three(top):
            return f"The pile is frozen: a 3 ({format_card(top)}) is on top."
        if WILD[top]:
            return f"The pile is frozen: a wild card ({format_card(top)}) is on top."
        if len(self.pile) < max(rules.min_size, 1):
            return (f"The pile can be taken only when it holds at least {rules.min_size} "
                    f"cards; it holds {len(self.pile)}.")
        if not self.opened[self.team_of[seat]] and rules.before_opening == "never":
            return "Your team must open before it can take the pile."
        return None

    def pile_counts(self) -> range:
        """How many cards a pick-up may take."""
        return self.rules.pile_take_counts(len(self.pile))

    def _check_take_pile(self, seat: int, action: TakePile) -> tuple[_Pending, int, int | None]:
        """Returns what goes to the table, the count taken, and the meld the top card joins."""
        why = self.pile_blocker(seat)
        if why:
            raise PileNotAvailable(why)
        top = self.pile[-1]
        rank = RANK[top]
        team = self.team_of[seat]
        rules = self.rules.pile
        counts = self.pile_counts()
        count = action.count or counts.start
        if count not in counts:
            raise PileNotAvailable(
                f"You may take {counts.start}" + (f" to {counts.stop - 1}" if len(counts) > 1
                                                    else "") + f" cards, not {count}.")
        shown = action.shown
        frozen = rules.wild_freezes_until_taken and self.pile_wilds > 0
        naturals = [c for c in shown if not WILD[c]]
        wilds = len(shown) - len(naturals)
        if any(RANK[c] != rank for c in naturals) or any(is_three(c) for c in shown):
            raise PileNotAvailable(f"To take the pile show cards that match the top card, "
                                   f"{format_card(top)}.")
        target: int | None = None
        for i, m in enumerate(self.melds[team]):
            if m.kind == RANK_MELD and m.rank == rank and len(m.cards) < self.rules.meld.book_size:
                target = i
        if len(shown) == 2 and wilds == 0:
            way = "natural-pair"
        elif len(shown) == 2 and wilds == 1:
            way = "natural-and-wild"
        elif not shown:
            way = "meld-on-board"
        else:
            way = "other"
        if way not in rules.show:
            needs = {"natural-pair": "two natural cards of that rank",
                     "natural-and-wild": "one natural card of that rank and a wild card",
                     "meld-on-board": "a meld of that rank already on the table"}
            allowed = " or ".join(needs[w] for w in rules.show)
            raise PileNotAvailable(f"To take the pile (top card {format_card(top)}) "
                                   f"you must show {allowed}.")
        if frozen and way != "natural-pair":
            raise PileNotAvailable("The pile is frozen by a wild card in it: only a natural "
                                   f"pair of {RANK_WORDS[rank]} takes it.")
        if way == "meld-on-board":
            has = [i for i, m in enumerate(self.melds[team])
                   if m.kind == RANK_MELD and m.rank == rank]
            if not has:
                raise PileNotAvailable(f"Your team has no meld of {RANK_WORDS[rank]} on "
                                       "the table to take the pile with.")
            if target is None:
                target = has[-1]
        opened = self.opened[team]
        if action.opening and opened:
            raise PileNotAvailable("Your team has already opened: lay further melds "
                                   "after taking the pile.")
        pending = _Pending()
        if target is not None:  # the team has this meld on the table, so it has opened
            meld = self.melds[team][target]
            complete = len(meld.cards) >= self.rules.meld.book_size
            self._check_rank_counts(rank, meld.naturals + len(naturals) + 1,
                                    meld.wilds + wilds, complete, wilds)
            if (wilds and self.rules.meld.wild_meld_blocks_wilds
                    and self._wild_meld_open(team)):
                raise BadMeld("While your wild-card meld is open, no wild may go on another meld.")
            used = [0] * NUM_CARDS
            for c in shown:
                used[c] += 1
        else:
            self._check_melds(team, [(top, *shown), *action.opening], pending)
            used = pending.used
            used[top] -= 1  # the top card comes from the pile, not the hand
        missing = _needs(used, self.hands[seat])
        if missing:
            raise CardsNotHeld(f"You do not hold {missing}.")
        if not opened:
            self._check_opening(team, pending)
        left = self.hand_len[seat] - sum(used) + count - 1
        self._check_emptying(seat, left, False)
        return pending, count, target

    # ----------------------------------------------------------------- verify
    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise an :class:`IllegalAction` saying why ``action`` is not legal now."""
        if self.phase == _OVER:
            raise WrongPhase("The hand is over.")
        if seat is not None and seat != self.actor:
            raise NotYourTurn(self._whose_turn_text())
        p = self.actor
        phase = self.phase
        if isinstance(action, ChooseHand):
            if phase != _CHOOSE:
                raise WrongPhase("The hands have already been chosen.")
            if action.stack not in (0, 1):
                raise IllegalAction("Choose stack 1 or stack 2.")
            return
        if phase == _CHOOSE:
            raise WrongPhase("First choose which of your two stacks is your hand.")
        if isinstance(action, AnswerGoOut):
            if phase != _ASK:
                raise WrongPhase("Nobody has asked to go out.")
            return
        if phase == _ASK:
            raise WrongPhase("Your partner has asked to go out: answer yes or no.")
        empty_hand = self.hand_len[p] == 0 and not self.in_foot[p]
        if isinstance(action, PickUpFoot):
            if self.in_foot[p]:
                raise IllegalAction("You have already picked up your foot.")
            if self.hand_len[p]:
                raise IllegalAction("Play every card of your hand before you pick up your foot.")
            return
        if empty_hand:
            raise IllegalAction("Your hand is empty: pick up your foot.")
        if isinstance(action, Draw | TakePile | TakeUpcard):
            if phase != _DRAW:
                raise WrongPhase("You have already drawn this turn.")
            if isinstance(action, TakeUpcard):
                if self.rules.turn.first_turn_upcard == "no":
                    raise IllegalAction("These rules do not let you take the upcard.")
                if self.turn_number != 0 or len(self.pile) != 1:
                    raise IllegalAction("The upcard may be taken only on the first turn.")
            elif isinstance(action, TakePile):
                self._check_take_pile(p, action)
            return
        if phase == _DRAW:
            raise WrongPhase("Draw first: from the stock, or take the pile.")
        # _PLAY
        team = self.team_of[p]
        if isinstance(action, LayDown):
            if not action.melds:
                raise BadMeld("Say which cards to lay down.")
            if self.opened[team] and len(action.melds) > 1:
                raise BadMeld("Lay down one meld at a time once your team has opened.")
            pending = _Pending()
            self._check_melds(team, action.melds, pending)
            missing = _needs(pending.used, self.hands[p])
            if missing:
                raise CardsNotHeld(f"You do not hold {missing}.")
            if not self.opened[team]:
                self._check_opening(team, pending)
            self._check_emptying(p, self.hand_len[p] - sum(pending.used), False)
            return
        if isinstance(action, AddToMeld):
            if not self.opened[team]:
                raise IllegalAction("Your team must open before adding to melds.")
            self._check_add(team, action.meld, action.cards)
            cards = action.cards
            held = self.hands[p]
            for c in cards:
                if held[c] < cards.count(c):
                    used = [0] * NUM_CARDS
                    for d in cards:
                        used[d] += 1
                    raise CardsNotHeld(f"You do not hold {_needs(used, held)}.")
            self._check_emptying(p, self.hand_len[p] - len(action.cards), False)
            return
        if isinstance(action, Discard):
            c = action.card
            if not 0 <= c < NUM_CARDS or not self.hands[p][c]:
                name = format_card(c) if 0 <= c < NUM_CARDS else str(c)
                raise CardsNotHeld(f"You do not hold {name}.")
            self._check_emptying(p, self.hand_len[p] - 1, True)
            return
        if isinstance(action, EndTurn):
            if not self.may_end_turn and not self._stuck(p):
                raise IllegalAction("End your turn with a discard.")
            return
        if isinstance(action, AskToGoOut):
            if not self.rules.going_out.permission or self.rules.individuals:
                raise IllegalAction("These rules do not ask a partner before going out.")
            if self.asked:
                raise IllegalAction("You have already asked this turn.")
            if not self.in_foot[p]:
                raise IllegalAction("You can ask to go out once you are in your foot.")
            why = self.books_missing(team)
            if why:
                raise CannotGoOut(f"Your team cannot go out yet: it needs {why}.")
            why = self.partners_missing(p)
            if why:
                raise CannotGoOut(f"You cannot go out yet: {why}.")
            return
        raise IllegalAction(f"{action!r} is not an action.")  # pragma: no cover

    def _whose_turn_text(self) -> str:
        if self.phase == _ASK:
            return f"It is seat {self.actor + 1}'s turn to answer."
        return f"It is not your turn: seat {self.actor + 1} is playing."

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        try:
            self.verify(action, seat)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check the action and carry it out; a refused action changes nothing."""
        self.verify(action, seat)
        self.push(action)

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
        elif isinstance(action, LayDown):
            team = self.team_of[p]
            for cards in sorted(action.melds, key=_meld_order):
                self._new_meld(team, list(cards))
                self._remove(p, cards)
            self.opened[team] = True
            self._after_play(p)
        elif isinstance(action, TakePile):
            self._take_pile(p, action)
        elif isinstance(action, PickUpFoot):
            self._pick_up_foot(p)
        elif isinstance(action, TakeUpcard):
            c = self.pile.pop()
            self.pile_wilds = 0
            self.hands[p][c] += 1
            self.hand_len[p] += 1
            self.known[p][c] += 1
            self.known_version += 1
            self.phase = _PLAY
            self.may_end_turn = self.rules.turn.first_turn_upcard == "take-no-discard"
            if self.rules.threes.red == "board":
                self._lay_red_threes(p)
        elif isinstance(action, EndTurn):
            self._end_turn(p)
        elif isinstance(action, AskToGoOut):
            self.asked = True
            self.phase = _ASK
            self.actor = self.partner_to_ask(p)
        elif isinstance(action, AnswerGoOut):
            self.permission = action.yes
            self.phase = _PLAY
            self.actor = self.seat
        elif isinstance(action, ChooseHand):
            self._set_hand(p, action.stack)
            nxt = (p + 1) % self.seats
            if nxt == self.first_seat:
                self.phase = _DRAW
                self.actor = self.first_seat
                self._lay_dealt_red_threes()
            else:
                self.actor = nxt

    def _remove(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.hands[seat]
        known = self.known[seat]
        for c in cards:
            hand[c] -= 1
            if known[c]:
                known[c] -= 1
                self.known_version += 1
        self.hand_len[seat] -= len(cards)

    def _new_meld(self, team: int, cards: list[Card]) -> Meld:
        kind, rank, suit = self._classify(cards)
        if kind == SEQUENCE:
            suit = SUIT[cards[0]]
        meld = Meld(kind, rank, suit, cards)
        self.melds[team].append(meld)
        self.table_cards[team] += len(cards)
        return meld

    def _add(self, seat: int, index: int, cards: Sequence[Card]) -> None:
        team = self.team_of[seat]
        meld = self.melds[team][index]
        meld.cards.extend(cards)
        meld.size += len(cards)
        self.table_cards[team] += len(cards)
        for c in cards:
            if WILD[c]:
                meld.wilds += 1
            else:
                meld.naturals += 1
                r = RANK[c]
                if r < meld.low:
                    meld.low = r
                if r > meld.high:
                    meld.high = r
        self._remove(seat, cards)
        self._after_play(seat)

    def _after_play(self, seat: int) -> None:
        if self.hand_len[seat] == 0 and self.in_foot[seat]:
            self._go_out(seat)

    def _draw(self, seat: int) -> None:
        hand = self.hands[seat]
        board = self.rules.threes.red == "board"
        for _ in range(self.draw_count):
            c = self._pop_stock()
            if c is None:
                break
            hand[c] += 1
            self.hand_len[seat] += 1
        if board:
            self._lay_red_threes(seat)
        self.phase = _PLAY

    def _take_pile(self, seat: int, action: TakePile) -> None:
        _, count, target = self._check_take_pile(seat, action)
        team = self.team_of[seat]
        taken = self.pile[-count:]
        del self.pile[-count:]
        top = taken[-1]
        if target is not None:
            meld = self.melds[team][target]
            self._add_cards_to_meld(meld, [top, *action.shown])
            self.table_cards[team] += 1 + len(action.shown)
            self._remove(seat, action.shown)
            for cards in sorted(action.opening, key=_meld_order):
                self._new_meld(team, list(cards))
                self._remove(seat, cards)
        else:
            self._new_meld(team, [top, *action.shown])
            self._remove(seat, action.shown)
            for cards in sorted(action.opening, key=_meld_order):
                self._new_meld(team, list(cards))
                self._remove(seat, cards)
        self.opened[team] = True
        hand = self.hands[seat]
        known = self.known[seat]
        for c in taken[:-1]:
            hand[c] += 1
            known[c] += 1
        self.known_version += 1
        self.hand_len[seat] += count - 1
        self.pile_wilds = 0  # "After this happens, the deck is unfrozen" (samba)
        self.phase = _PLAY
        if self.hand_len[seat] == 0 and self.in_foot[seat]:
            self._go_out(seat)

    @staticmethod
    def _add_cards_to_meld(meld: Meld, cards: Sequence[Card]) -> None:
        meld.cards.extend(cards)
        meld.size += len(cards)
        for c in cards:
            if WILD[c]:
                meld.wilds += 1
            else:
                meld.naturals += 1

    def _pick_up_foot(self, seat: int) -> None:
        foot = self.feet[seat]
        assert foot is not None
        hand = self.hands[seat]
        for c in foot:
            hand[c] += 1
        self.hand_len[seat] = len(foot)
        if self.foot_known[seat] is not None:
            self.known[seat][self.foot_known[seat]] += 1  # type: ignore[index]
            self.known_version += 1
            self.foot_known[seat] = None
        self.feet[seat] = None
        self._face_down_feet = None
        self.in_foot[seat] = True
        if self.rules.threes.red == "board":
            self._lay_red_threes(seat)

    def _discard(self, seat: int, c: Card) -> None:
        self._remove(seat, (c,))
        self.pile.append(c)
        if WILD[c]:
            self.pile_wilds += 1
        if self.hand_len[seat] == 0 and self.in_foot[seat]:
            self._go_out(seat)
            return
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        if self.in_foot[seat]:
            self.foot_turns[seat] += 1
        self.seat = self.actor = (seat + 1) % self.seats
        self.turn_number += 1
        self.asked = False
        self.permission = None
        self.may_end_turn = False
        self.phase = _DRAW
        if not self._stock_available():
            self._end_hand("stock")

    def _go_out(self, seat: int) -> None:
        self.went_out = seat
        self._end_hand("out")

    def _end_hand(self, how: str) -> None:
        self.phase = _OVER
        self.ended_by = how

    def call_time(self) -> None:
        """Time is called: the hand ends as it stands, with no going-out bonus."""
        if self.phase != _OVER:
            self._end_hand("time")

    # ------------------------------------------------------------ legal moves
    def legal_actions(self) -> list[Action]:
        """Every legal action now, with interchangeable cards listed once."""
        return list(self.iter_legal_actions())

    def legal(self) -> LegalActions:
        """The legal actions now, listed only when asked (see :class:`LegalActions`).
        They answer from this very state; a player is given :meth:`actor_legal`."""
        return LegalActions(self)

    def actor_legal(self) -> LegalActions:
        """The legal actions now, for the player to act: they answer from
        :meth:`seat_copy`, so nothing reachable from them shows a card that player
        cannot see."""
        return LegalActions(self.seat_copy(), self.rules, seat_copy=True)

    def seat_copy(self) -> Hand:
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
        d = self.__dict__.copy()
        d.update(
            hands=hands, feet=feet, stock=_face_down(len(self.stock)),
            pile=_face_down_pile(self.pile),
            stacks=([([a[0], *[FACE_DOWN] * (len(a) - 1)], [b[0], *[FACE_DOWN] * (len(b) - 1)])
                     for a, b in self.stacks] if self.phase == _CHOOSE else []),
            deal=_NO_DEAL, rng=_NO_RNG,  # never drawn on: a copy only answers what is legal
            _replay_shuffles=[], shuffles=[])
        h = Hand.__new__(Hand)
        h.__dict__ = d
        return h

    def iter_legal_actions(self) -> Iterator[Action]:
        phase = self.phase
        if phase == _OVER:
            return
        p = self.actor
        if phase == _CHOOSE:
            yield ChooseHand(0)
            yield ChooseHand(1)
            return
        if phase == _ASK:
            yield YES
            yield NO
            return
        if self.hand_len[p] == 0 and not self.in_foot[p]:
            yield PICK_UP_FOOT
            return
        if phase == _DRAW:
            yield DRAW
            if self.is_legal(TAKE_UPCARD):
                yield TAKE_UPCARD
            if self.pile_blocker(p) is None:
                yield from self._legal_take_pile(p)
            return
        team = self.team_of[p]
        if self.opened[team]:
            for cards in self._meld_options(p, self.hands[p], self._table_state(team)):
                action: Action = LayDown((cards,))
                if self._fits_emptying(p, len(cards)):
                    yield action
            yield from self._legal_adds(p)
        else:
            for melds in self._opening_options(p, self.hands[p], self._table_state(team)):
                if self._opening_ok(p, melds):
                    yield LayDown(melds)
        if self.is_legal(ASK):
            yield ASK
        if self.may_end_turn or self._stuck(p):
            yield END_TURN
        seen_discard = False
        hand = self.hands[p]
        for c in range(NUM_CARDS):
            if hand[c]:
                if not seen_discard and not self._fits_emptying(p, 1, by_discard=True):
                    return
                seen_discard = True
                if self._interchangeable_done(c, hand):
                    continue
                yield Discard(c)

    def _interchangeable_done(self, c: Card, hand: list[int]) -> bool:
        """Whether card ``c`` is interchangeable with a lower card already listed."""
        if self.rules.suits_matter:
            return False
        if WILD[c] and c != JOKER:
            return any(hand[t] for t in range(c & ~3, c) if WILD[t])
        if NATURAL[c]:
            base = c & ~3
            return any(hand[t] for t in range(base, c))
        return False

    def _fits_emptying(self, seat: int, used: int, by_discard: bool = False) -> bool:
        left = self.hand_len[seat] - used
        if left > 1 or not self.in_foot[seat] or (left == 1 and by_discard):
            return True
        try:
            self._check_emptying(seat, self.hand_len[seat] - used, by_discard)
        except IllegalAction:
            return False
        return True

    def _pick(self, hand: list[int], candidates: Sequence[Card], n: int) -> list[tuple[Card, ...]]:
        """Ways to take ``n`` cards among ``candidates`` from ``hand``, one per
        interchangeable choice."""
        avail = [(c, hand[c]) for c in candidates if hand[c]]
        total = sum(k for _, k in avail)
        if n > total:
            return []
        if n == 0:
            return [()]
        if not self.rules.suits_matter or len(avail) == 1:
            out: list[Card] = []
            for c, k in avail:
                take = min(k, n - len(out))
                out.extend([c] * take)
                if len(out) == n:
                    break
            return [tuple(out)]
        cards = [c for c, _ in avail]
        limit = dict(avail)
        ways = []
        for combo in combinations_with_replacement(cards, n):
            if all(combo.count(c) <= limit[c] for c in set(combo)):
                ways.append(combo)
        return ways

    def _wild_options(self, hand: list[int], max_w: int) -> list[tuple[Card, ...]]:
        """Choices of up to ``max_w`` wild cards (twos are interchangeable; jokers too)."""
        twos = sum(hand[c] for c in TWOS)
        jokers = hand[JOKER]
        out: list[tuple[Card, ...]] = []
        two_cards = [c for c in TWOS for _ in range(hand[c])]
        for j in range(min(jokers, max_w) + 1):
            for t in range(min(twos, max_w - j) + 1):
                out.append(tuple(two_cards[:t]) + (JOKER,) * j)
        return out

    def _rank_options(self, hand: list[int], rank: int,
                      wilds: list[tuple[Card, ...]]) -> Iterator[tuple[Card, ...]]:
        """New melds of one rank from ``hand``, with each of the ``wilds`` choices."""
        rules = self.rules.meld
        base = (rank - 2) * 4
        have = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
        suits = range(base, base + 4)
        for n in range(rules.min_naturals, have + 1):
            for w in wilds:
                k = len(w)
                if n + k < rules.min_size or k > rules.max_wilds:
                    continue
                if rules.naturals_exceed_wilds and k >= n:
                    continue
                if any(hand[c] < w.count(c) for c in set(w)):
                    continue
                for nat in self._pick(hand, suits, n):
                    yield tuple(sorted(nat + w))

    def _meld_options(self, seat: int, hand: list[int],
                      tables: tuple[dict[int, int], dict[int, int], bool]
                      ) -> Iterator[tuple[Card, ...]]:
        """Every single new meld the hand could lay on this team's table."""
        rules = self.rules.meld
        open_ranks, book_ranks, wild_open = tables
        wild_ok = not (wild_open and rules.wild_meld_blocks_wilds)
        no_wild: list[tuple[Card, ...]] = [()]
        wilds = self._wild_options(hand, rules.max_wilds) if wild_ok else no_wild
        for rank in range(4, 15):
            base = (rank - 2) * 4
            have = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
            if have < rules.min_naturals:
                continue
            if rules.one_open_meld_per_rank and open_ranks.get(rank, 0):
                continue
            if rules.books_per_rank and (book_ranks.get(rank, 0) + open_ranks.get(rank, 0)
                                         >= rules.books_per_rank):
                continue
            yield from self._rank_options(hand, rank, wilds)
        if rules.wild_melds and not wild_open:
            for w in self._wild_options(hand, rules.book_size):
                if len(w) >= rules.min_size:
                    yield tuple(sorted(w))
        if rules.sequences:
            for suit in range(4):
                run: list[Card] = []
                for rank in range(4, 16):
                    c = (rank - 2) * 4 + suit
                    if rank <= 14 and hand[c]:
                        run.append(c)
                        continue
                    for i in range(len(run)):
                        for j in range(i + rules.min_size, min(len(run), i + rules.book_size) + 1):
                            yield tuple(run[i:j])
                    run = []

    def _opening_options(self, seat: int, hand: list[int],
                         tables: tuple[dict[int, int], dict[int, int], bool]
                         ) -> Iterator[tuple[tuple[Card, ...], ...]]:
        """Every non-empty set of new melds the hand could lay at once: at most one meld
        of a rank unless the one before it is already a complete book."""
        size = self.rules.meld.book_size
        singles = list(dict.fromkeys(self._meld_options(seat, hand, tables)))
        groups: dict[int, list[tuple[Card, ...]]] = {}
        for m in singles:
            naturals = [c for c in m if NATURAL[c]]
            key = RANK[naturals[0]] if naturals and len({RANK[c] for c in naturals}) == 1 \
                else 100 + len(groups)
            groups.setdefault(key, []).append(m)
        slots = list(groups.items())
        wild_ok = not (tables[2] and self.rules.meld.wild_meld_blocks_wilds)
        seen: set[tuple[tuple[Card, ...], ...]] = set()

        def grow(i: int, chosen: list[tuple[Card, ...]], used: list[int]
                 ) -> Iterator[tuple[tuple[Card, ...], ...]]:
            if i == len(slots):
                if chosen:
                    melds = tuple(sorted(chosen))
                    if melds not in seen:
                        seen.add(melds)
                        yield melds
                return
            yield from grow(i + 1, chosen, used)
            rank, options = slots[i]
            for m in options:
                if not _fits(m, used, hand):
                    continue
                chosen.append(m)
                after = _plus(used, m)
                yield from grow(i + 1, chosen, after)
                if len(m) >= size and rank < 100:
                    # A complete book: another meld of its rank may be laid with it,
                    # from the cards the book leaves.
                    rest = [hand[c] - after[c] for c in range(NUM_CARDS)]
                    no_wild: list[tuple[Card, ...]] = [()]
                    wilds = (self._wild_options(rest, self.rules.meld.max_wilds)
                             if wild_ok else no_wild)
                    for m2 in self._rank_options(rest, rank, wilds):
                        chosen.append(m2)
                        yield from grow(i + 1, chosen, _plus(after, m2))
                        chosen.pop()
                chosen.pop()

        yield from grow(0, [], [0] * NUM_CARDS)

    def _opening_ok(self, seat: int, melds: tuple[tuple[Card, ...], ...]) -> bool:
        team = self.team_of[seat]
        pending = _Pending()
        try:
            self._check_melds(team, melds, pending)
            self._check_opening(team, pending)
            self._check_emptying(seat, self.hand_len[seat] - sum(pending.used), False)
        except IllegalAction:
            return False
        return True

    def _legal_adds(self, seat: int) -> Iterator[Action]:
        team = self.team_of[seat]
        hand = self.hands[seat]
        rules = self.rules.meld
        size = rules.book_size
        wild_ok = not (rules.wild_meld_blocks_wilds and self._wild_meld_open(team))
        wild_cache: dict[int, list[tuple[Card, ...]]] = {}
        for i, m in enumerate(self.melds[team]):
            complete = len(m.cards) >= size
            options: list[tuple[Card, ...]] = []
            if m.kind == WILD_MELD:
                if complete:
                    continue
                options = [w for w in self._wild_options(hand, size - len(m.cards)) if w]
            elif m.kind == SEQUENCE:
                if complete:
                    continue
                below: list[Card] = []
                r = m.low - 1
                while r >= 4 and hand[(r - 2) * 4 + m.suit]:
                    below.append((r - 2) * 4 + m.suit)
                    r -= 1
                above: list[Card] = []
                r = m.high + 1
                while r <= 14 and hand[(r - 2) * 4 + m.suit]:
                    above.append((r - 2) * 4 + m.suit)
                    r += 1
                room = size - len(m.cards)
                for a in range(len(below) + 1):
                    for b in range(len(above) + 1):
                        if 0 < a + b <= room:
                            options.append(tuple(sorted(below[:a] + above[:b])))
            else:
                base = (m.rank - 2) * 4
                have = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
                max_w = 0 if (complete and not rules.burn_wilds) or not wild_ok \
                    else rules.max_wilds - m.wilds
                max_w = max(max_w, 0)
                wilds = wild_cache.get(max_w) or wild_cache.setdefault(
                    max_w, self._wild_options(hand, max_w))
                for n in range(have + 1):
                    for w in wilds:
                        if n + len(w) == 0:
                            continue
                        nat_total = m.naturals + n
                        w_total = m.wilds + len(w)
                        if w_total > rules.max_wilds:
                            continue
                        if rules.naturals_exceed_wilds and w_total >= nat_total:
                            continue
                        for nat in self._pick(hand, range(base, base + 4), n):
                            options.append(tuple(sorted(nat + w)))
            for cards in options:
                if self._fits_emptying(seat, len(cards)):
                    yield AddToMeld(i, cards)

    def _legal_take_pile(self, seat: int) -> Iterator[Action]:
        top = self.pile[-1]
        rank = RANK[top]
        base = (rank - 2) * 4
        hand = self.hands[seat]
        team = self.team_of[seat]
        rules = self.rules.pile
        shows: list[tuple[Card, ...]] = []
        if "natural-pair" in rules.show:
            shows.extend(self._pick(hand, range(base, base + 4), 2))
        if "natural-and-wild" in rules.show:
            for nat in self._pick(hand, range(base, base + 4), 1):
                for w in self._wild_options(hand, 1):
                    if w:
                        shows.append(tuple(sorted(nat + w)))
        if "meld-on-board" in rules.show:
            shows.append(())
        opened = self.opened[team]
        for shown in shows:
            for count in self.pile_counts():
                if opened:
                    action = TakePile(shown, count)
                    if self.is_legal(action):
                        yield action
                    continue
                # Opening with the pile: the top card and the shown cards make the first meld.
                rest = hand[:]
                for c in shown:
                    rest[c] -= 1
                    if rest[c] < 0:
                        break
                else:
                    if self.is_legal(TakePile(shown, count)):
                        yield TakePile(shown, count)
                    for melds in self._opening_options_after(seat, rest, shown, top):
                        action = TakePile(shown, count, melds)
                        if self.is_legal(action):
                            yield action

    def _opening_options_after(self, seat: int, hand: list[int], shown: tuple[Card, ...],
                               top: Card) -> Iterator[tuple[tuple[Card, ...], ...]]:
        """Openings laid with a pile pick-up: the rank of the top card is taken."""
        team = self.team_of[seat]
        open_ranks, book_ranks, wild_open = self._table_state(team)
        open_ranks = dict(open_ranks)
        open_ranks[RANK[top]] = open_ranks.get(RANK[top], 0) + 1
        yield from self._opening_options(seat, hand, (open_ranks, book_ranks, wild_open))

    # ------------------------------------------------------------------ misc
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
                   rng: random.Random | None = None) -> Hand:
        """A hand in the middle of play, put together from its parts (for search over
        imagined deals). ``hands`` are count vectors; ``melds`` are per team
        (kind, rank, suit, cards); ``stock`` has its top card last. No history, no deal."""
        h = cls.__new__(cls)
        n = rules.players.seats
        h.rules = rules
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
        h.table_cards = [sum(len(m.cards) for m in ms) + len(r)
                         for ms, r in zip(h.melds, h.red_threes, strict=True)]
        h._reset_view_caches()
        h.phase = phase
        return h

    def clone(self) -> Hand:
        """An independent copy (for search); the rules and the deal are shared."""
        h = Hand.__new__(Hand)
        h.__dict__.update(self.__dict__)
        h.hands = [x[:] for x in self.hands]
        h.hand_len = self.hand_len[:]
        h.feet = [None if f is None else f[:] for f in self.feet]
        h.in_foot = self.in_foot[:]
        h.foot_turns = self.foot_turns[:]
        h.known = [x[:] for x in self.known]
        h.foot_known = self.foot_known[:]
        h.melds = [[m.copy() for m in ms] for ms in self.melds]
        h.opened = self.opened[:]
        h.red_threes = [x[:] for x in self.red_threes]
        h.table_cards = self.table_cards[:]
        h._reset_view_caches()
        h.pile = self.pile[:]
        h.stock = self.stock[:]
        h.history = self.history[:]
        h.shuffles = self.shuffles[:]
        h._replay_shuffles = self._replay_shuffles[:]
        h.team_scores = self.team_scores[:]
        h.stacks = self.stacks
        return h

    def card_census(self) -> list[int]:
        """How many of each card are anywhere (hands, feet, table, pile, stock)."""
        counts = [0] * NUM_CARDS
        for s in range(self.seats):
            if self.phase == _CHOOSE and self.feet[s] is None:
                for c in self.stacks[s][0] + self.stacks[s][1]:
                    counts[c] += 1
                continue
            for c in range(NUM_CARDS):
                counts[c] += self.hands[s][c]
            for c in self.feet[s] or ():
                counts[c] += 1
        for team in range(self.teams):
            for m in self.melds[team]:
                for c in m.cards:
                    counts[c] += 1
            for c in self.red_threes[team]:
                counts[c] += 1
        for c in self.pile:
            counts[c] += 1
        for c in self.stock:
            counts[c] += 1
        return counts


_ACTION_TYPES = (ChooseHand, Draw, TakeUpcard, TakePile, LayDown, AddToMeld, PickUpFoot,
                 Discard, EndTurn, AskToGoOut, AnswerGoOut)


class LegalActions(Sequence[Action]):
    """The legal actions of a hand as it stands, as a lazy sequence.

    Listing every legal action (every lay-down, every way to add, every opening) is the
    costly part of a decision; a player who knows what it wants only asks whether that is
    legal. So the list is built the first time it is indexed, measured or iterated, and
    ``action in legal`` asks the engine directly: it is true when the engine accepts the
    action now (an action that differs from a listed one only by interchangeable cards,
    say another suit where suits do not matter, is accepted too). The sequence belongs to
    the state it was made for: once an action has been carried out it refuses to answer.

    ``rules`` is the rule set being played (public). :attr:`seat_state` is the state
    as the player to act knows it, when the actions were made for that player.
    """

    __slots__ = ("__hand", "_accepted", "_list", "_seat", "_stamp", "rules")

    def __init__(self, hand: Hand | None, rules: Rules | None = None,
                 seat_copy: bool = False) -> None:
        self.__hand = hand
        self._seat = seat_copy and hand is not None
        self._accepted: object = None
        self._list: list[Action] | None = None if hand is not None else []
        self._stamp = len(hand.history) if hand is not None else 0
        self.rules = rules if rules is not None or hand is None else hand.rules

    @property
    def seat_state(self) -> Hand | None:
        """The hand as the player to act knows it (:meth:`Hand.seat_copy`: every card that
        player cannot see is face down), for players that read the state in the engine's
        own form rather than a :class:`~handfoot.views.View`; None when these actions
        answer from a full state (inside a search, say). It shares its lists with the
        game, so it is for reading only, and only until an action is carried out."""
        return self.__hand if self._seat else None

    def _state(self) -> Hand:
        hand = self.__hand
        assert hand is not None
        if len(hand.history) != self._stamp:
            raise RuntimeError("these legal actions were listed for an earlier state")
        return hand

    def _all(self) -> list[Action]:
        if self._list is None:
            self._list = self._state().legal_actions()
        elif self.__hand is not None:
            self._state()
        return self._list

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: int) -> Action:  # type: ignore[override]
        return self._all()[i]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._all())

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, _ACTION_TYPES):
            return False
        if self._list is not None and action in self._list:
            self._accepted = action
            return True
        if self.__hand is None:
            return False
        if self._state().is_legal(action):
            self._accepted = action
            return True
        return False

    def confirms(self, action: Action) -> bool:
        """Whether the engine accepted this very action object (``action in self``) as
        the last one it was asked about, in the state these actions belong to; a
        player that carries it out need not have it checked a second time."""
        return (action is self._accepted and self.__hand is not None
                and len(self.__hand.history) == self._stamp)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({self._all()!r})"


class _MeldShape(Protocol):
    @property
    def kind(self) -> int: ...
    @property
    def wilds(self) -> int: ...
    @property
    def size(self) -> int: ...


def count_books(melds: Iterable[_MeldShape], book_size: int) -> tuple[int, int, int, int]:
    """Complete books among ``melds``: (clean, dirty, wild-card, sequence)."""
    clean = dirty = wild = seq = 0
    for m in melds:
        if m.size >= book_size:
            if m.kind == RANK_MELD:
                if m.wilds:
                    dirty += 1
                else:
                    clean += 1
            elif m.kind == WILD_MELD:
                wild += 1
            else:
                seq += 1
    return clean, dirty, wild, seq


def check_table_meld(rules: Rules, cards: Sequence[Card]) -> int:
    """The kind of a meld as it lies on a table at the end of a hand (RANK_MELD,
    SEQUENCE or WILD_MELD), checked with the same rules as in play; raises
    :class:`BadMeld` if the cards could not be a meld or book under ``rules``."""
    probe = Hand.__new__(Hand)
    probe.rules = rules
    kind, rank, _ = probe._classify(list(cards))
    if kind == RANK_MELD:
        wilds = sum(1 for c in cards if WILD[c])
        # Naturals burned on a complete book do not change its wilds, so check the book.
        probe._check_rank_counts(rank, len(cards) - wilds, wilds, False, 0)
    return kind
