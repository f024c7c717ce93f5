"""The legal moves: listed one meld and one card at a time, never as whole openings.

A team opens by laying its melds out one at a time (:class:`LayMeld`, each checked
as it is laid out; :class:`TakeBack` returns one to the hand) and then going down
(:class:`GoDown`, checked against the opening minimum and the rule set's other
opening conditions), or by taking the pile with them. After that each new meld and
each card added is its own move. The list offers, for each new meld, only its
smallest form (as many cards as a meld needs) and, for each meld on the table,
one card of each kind that can go on it: every larger meld, every opening and
every multi-card addition is reached from these a card at a time, so the number
of moves grows with the hand only polynomially (never with its combinations).

The engine also accepts the larger moves a person plays at once (a meld of five
cards, several cards added together, :class:`LayDown` of a whole opening, a pile
taken with its opening melds); they are legal, so ``action in legal`` is true for
them, but they are not listed.

Cards that no rule tells apart (any 2, the naturals of a rank where suits do not
matter; see :attr:`Rules.card_class`) are listed once, as the lowest one held.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, Self, cast

from mypy_extensions import i64, mypyc_attr

from handfoot.actions import (
    ASK,
    DISCARDS,
    DRAW,
    END_TURN,
    GO_DOWN,
    NO,
    PICK_UP_FOOT,
    TAKE_UPCARD,
    YES,
    Action,
    ActionBase,
    AddToMeld,
    ChooseHand,
    LayMeld,
    TakeBack,
    TakePile,
)
from handfoot.cards import (
    BB_BLACK_THREES,
    BB_JOKER,
    BB_NATURAL_CLUBS,
    BB_NATURALS,
    BB_RANK_SUITS,
    BB_RED_THREES,
    BB_TWOS,
    FIRST_NATURAL,
    JOKER,
    NUM_CARDS,
    WILD,
    Card,
    cards_of,
    is_three,
    lowest_card,
    lowest_of_each_rank,
    lowest_suit,
    popcount,
)
from handfoot.engine.checks import CheckedHand
from handfoot.engine.melds import RANK_MELD, SEQUENCE, WILD_MELD, Meld, most_wilds
from handfoot.engine.settings import Settings
from handfoot.engine.state import (
    PHASE_ASK,
    PHASE_CHOOSE,
    PHASE_DRAW,
    PHASE_OVER,
    UNSET_DEAL,
    TableCounts,
)
from handfoot.rules import Rules

_CHOICES: Final = (ChooseHand(0), ChooseHand(1))
_ANSWERS: Final = (YES, NO)
_DISCARDS: Final = DISCARDS
#: one bit for each card class (Python numbers: fast path, docs/design.md#card-sets)
_BITS: Final = tuple(1 << k for k in range(NUM_CARDS))
#: no cards (read only)
_NO_CARDS: Final[list[Card]] = []
#: no smallest melds kept (read only; see :meth:`Hand._meld_moves`)
_NO_CORES: Final[list[list[Action] | None]] = []
_NO_KEYS: Final[dict[int, list[Action]]] = {}
#: n jokers, by n
_JOKERS: Final = tuple((JOKER,) * n for n in range(NUM_CARDS))

# Moves are small frozen values; the listed ones are made once and shared.
_MELDS: Final[dict[tuple[Card, ...], LayMeld]] = {}
_RUNS: Final[list[LayMeld | None]] = []  #: by length, lowest rank and suit (see :func:`_run`)
_ADDS: Final[list[AddToMeld | None]] = []  #: by meld * NUM_CARDS + card
_BACKS: Final[list[TakeBack]] = []
#: by the cards shown (one number: see :func:`_take`), then by the count: in a list for
#: none, one or two cards shown (every way the listing offers), else in a dict
_PILES: Final[dict[int, list[TakePile | None]]] = {}
_PILES_SHOWN: Final[list[list[TakePile | None] | None]] = \
    [None] * ((NUM_CARDS + 1) * (NUM_CARDS + 1))


def _lay(cards: tuple[Card, ...]) -> LayMeld:
    move = _MELDS.get(cards)
    if move is None:
        move = _MELDS[cards] = LayMeld(cards)
    return move


def _run(suit: int, low: int, k: int) -> LayMeld:
    """The sequence of ``k`` cards of ``suit`` from rank ``low`` up."""
    key = (k * 16 + low) * 4 + suit
    if key >= len(_RUNS):
        _RUNS.extend([None] * (key + 1 - len(_RUNS)))
    move = _RUNS[key]
    if move is None:
        move = _RUNS[key] = _lay(tuple((rank - 2) * 4 + suit for rank in range(low, low + k)))
    return move


def _add(meld: i64, card: i64) -> AddToMeld:
    # (in machine integers: asked for each card that may go on each meld of a listing)
    i: i64 = meld * NUM_CARDS + card
    if i < len(_ADDS):
        move = _ADDS[i]
        if move is not None:
            return move
    else:
        _ADDS.extend([None] * (i + 1 - len(_ADDS)))
    move = _ADDS[i] = AddToMeld(int(meld), (int(card),))
    return move


def _back(meld: int) -> TakeBack:
    while len(_BACKS) <= meld:
        _BACKS.append(TakeBack(len(_BACKS)))
    return _BACKS[meld]


def _backs(laid: int, out: list[Action]) -> None:
    """Each of ``laid`` melds laid out taken back, the last laid first (appended: a
    generator extended from went through Python)."""
    for i in range(laid - 1, -1, -1):
        out.append(_back(i))


def _take(shown: tuple[Card, ...], count: int) -> TakePile:
    # (fast path: docs/design.md#the-listing)
    if len(shown) <= 2:
        small: i64 = 0
        for c in shown:
            small = small * (NUM_CARDS + 1) + c + 1
        found = _PILES_SHOWN[small]
        if found is None:
            found = _PILES_SHOWN[small] = []
        by_count = found
    else:
        key = 0
        for c in shown:
            key = key * (NUM_CARDS + 1) + c + 1
        kept = _PILES.get(key)
        if kept is None:
            kept = _PILES[key] = []
        by_count = kept
    if count >= len(by_count):
        by_count.extend([None] * (count + 1 - len(by_count)))
    move = by_count[count]
    if move is None:
        move = by_count[count] = TakePile(shown, count)
    return move


def _discards(hand: list[int], cls: tuple[int, ...], out: list[Action]) -> None:
    """A discard of each class of card held (the lowest card of each)."""
    # (fast path: docs/design.md#the-listing)
    seen = 0
    for c in range(NUM_CARDS):
        if hand[c]:
            bit = _BITS[cls[c]]
            if not seen & bit:
                seen |= bit
                out.append(_DISCARDS[c])


def _discards_of(cards: i64, out: list[Action]) -> None:
    """A discard of each card whose bit is set in ``cards`` (bit c for card c), lowest
    card first (as :meth:`Hand._meld_moves` gathers them)."""
    c: i64 = 0
    while cards:
        if cards & BB_RANK_SUITS:  # (a rank at a time: most are held in one suit or none)
            if cards & 1:
                out.append(_DISCARDS[c])
            if cards & 2:
                out.append(_DISCARDS[c + 1])
            if cards & 4:
                out.append(_DISCARDS[c + 2])
            if cards & 8:
                out.append(_DISCARDS[c + 3])
        cards >>= 4
        c += 4


def add_discards(out: list[Action], cards: i64, at: i64) -> None:
    """Put the discards of :meth:`Hand.moves_and_discards` (``cards``, as bits) into its
    list ``out`` where they stand (``at``)."""
    if at == len(out):
        _discards_of(cards, out)
    else:
        before: list[Action] = []
        _discards_of(cards, before)
        out[at:at] = before


def count_discards(cards: i64) -> i64:
    """How many discards the bits ``cards`` stand for (one a bit set)."""
    return popcount(cards)


def nth_discard(cards: i64, n: i64) -> Action:
    """The ``n``-th discard (from 0) of those the bits ``cards`` stand for, in the order
    they are listed: lowest card first."""
    c: i64 = 0
    while cards:
        if cards & BB_RANK_SUITS:  # (a rank at a time, as :func:`_discards_of`)
            if cards & 1:
                if n == 0:
                    return _DISCARDS[c]
                n -= 1
            if cards & 2:
                if n == 0:
                    return _DISCARDS[c + 1]
                n -= 1
            if cards & 4:
                if n == 0:
                    return _DISCARDS[c + 2]
                n -= 1
            if cards & 8:
                if n == 0:
                    return _DISCARDS[c + 3]
                n -= 1
        cards >>= 4
        c += 4
    raise IndexError("fewer discards than that")


def naturals_by_class(classes: tuple[tuple[Card, ...], ...], hand: list[int]
                      ) -> list[list[Card]]:
    """The naturals of a rank held, one list per class (``classes``: the rank's, from
    :attr:`Rules.rank_classes`), each lowest card first."""
    out: list[list[Card]] = []
    for members in classes:
        held: list[Card] = []
        for d in members:
            n = hand[d]
            while n > 0:
                held.append(d)
                n -= 1
        if held:
            out.append(held)
    return out


def picks(groups: list[list[Card]], n: int) -> list[tuple[Card, ...]]:
    """Every way to take ``n`` cards from ``groups`` (classes of interchangeable cards,
    each lowest first), one per choice of how many from each class: the most from the
    first class first.

    >>> picks([[8, 8], [9], [10]], 2)  # two 4♣, a 4♦, a 4♥ (where suits matter)
    [(8, 8), (8, 9), (8, 10), (9, 10)]
    """
    # One or two cards (a pile's shown cards, the naturals of most smallest melds) are
    # counted out by loops; more by :func:`all_picks` (the same ways, in the same order).
    if n == 1:
        return [(g[0],) for g in groups if g]
    if n == 2:
        out: list[tuple[Card, ...]] = []
        for i in range(len(groups)):
            g = groups[i]
            if not g:
                continue
            if len(g) >= 2:
                out.append((g[0], g[1]))
            for j in range(i + 1, len(groups)):
                if groups[j]:
                    out.append((g[0], groups[j][0]))
        return out
    out = []
    _picks_into(groups, 0, n, [], out)
    return out


def _natural_shows(st: Settings, hand: list[int], rank: int, with_wild: bool,
                   shows: list[tuple[Card, ...]]) -> list[Card]:
    """The naturals of ``rank`` that may be shown to take the pile: each pair (a pair,
    one of each class and each two classes: :func:`picks` of the classes held) put into
    ``shows`` where the rules show a pair, and the naturals shown one at a time with a
    wild (one of each class) returned where ``with_wild``. Under the usual classes, and
    where each natural is its own class, they are read from the rank's four counts;
    under other classes, picked from the classes."""
    pair_shown: bool = st.show_pair
    base = (rank - 2) * 4
    ones: list[Card] = _NO_CARDS
    if st.plain_classes:  # the rank's lowest card held, and its second
        first = -1
        for c in range(base, base + 4):
            if hand[c]:
                if first < 0:
                    first = c
                    if with_wild:
                        ones = [c]
                    if hand[c] >= 2:
                        if pair_shown:
                            shows.append((c, c))
                        break
                else:
                    if pair_shown:
                        shows.append((first, c))
                    break
    elif st.suit_classes:
        for c in range(base, base + 4):
            if hand[c]:
                if pair_shown:
                    if hand[c] >= 2:
                        shows.append((c, c))
                    for d in range(c + 1, base + 4):
                        if hand[d]:
                            shows.append((c, d))
                if with_wild:
                    if ones is _NO_CARDS:
                        ones = []
                    ones.append(c)
    else:
        groups = naturals_by_class(st.rank_classes[rank], hand)
        if pair_shown:
            shows.extend(picks(groups, 2))
        if with_wild:
            ones = [g[0] for g in groups]
    return ones


def _picks_into(groups: list[list[Card]], start: int, n: int, prefix: list[Card],
                out: list[tuple[Card, ...]]) -> None:
    """:func:`all_picks` from ``groups[start:]``, each way after ``prefix``, put in
    ``out`` (plain calls and lists: fast path, docs/design.md#the-listing)."""
    if n == 0:
        out.append(tuple(prefix))
        return
    if start >= len(groups):
        return
    first = groups[start]
    room = 0
    for i in range(start + 1, len(groups)):
        room += len(groups[i])
    most = n if n < len(first) else len(first)
    for k in range(most, -1, -1):
        if n - k > room:
            break
        for i in range(k):
            prefix.append(first[i])
        _picks_into(groups, start + 1, n - k, prefix, out)
        for _ in range(k):
            prefix.pop()


def all_picks(groups: list[list[Card]], n: int) -> Iterator[tuple[Card, ...]]:
    """The ways of :func:`picks`, made one by one for any ``n``."""
    if n == 0:
        yield ()
        return
    if not groups:
        return
    first, rest = groups[0], groups[1:]
    room = sum(len(g) for g in rest)
    for k in range(min(n, len(first)), -1, -1):
        if n - k > room:
            break
        for tail in all_picks(rest, n - k):
            yield (*first[:k], *tail)


def wild_sets(two_cards: list[Card], jokers: int, w: int) -> list[tuple[Card, ...]]:
    """The ways to make up ``w`` wild cards from the 2s held (``two_cards``, lowest first)
    and ``jokers`` jokers, most 2s first."""
    return [(*two_cards[:t], *(JOKER,) * (w - t))
            for t in range(min(w, len(two_cards)), -1, -1) if w - t <= jokers]


def _with_wilds(nat: tuple[Card, ...], two_cards: list[Card], jokers: int, w: int,
                ordered: bool, out: list[Action]) -> None:
    """The melds of the naturals ``nat`` with ``w`` wild cards, in each way of
    :func:`wild_sets` (most 2s first), put in ``out``: their cards the 2s, the naturals,
    then the jokers (sorted unless ``ordered``, where no two classes interleave)."""
    for t in range(w if w < len(two_cards) else len(two_cards), -1, -1):
        if w - t > jokers:
            break
        cards = nat if t == 0 else tuple(two_cards[:t]) + nat
        if w > t:
            cards = cards + _JOKERS[w - t]
        out.append(_lay(cards if ordered else tuple(sorted(cards))))


def _wilds_key(hand: list[int], a_two: i64, jokers: int, usable: int, b: i64) -> i64:
    """The wilds a smallest meld may take, as one number: the lowest 2s held (up to
    ``usable``), then the jokers (each count below ``b``)."""
    key: i64 = 0
    taken = 0
    for c in range(a_two if a_two >= 0 else 4, 4):
        held = hand[c]
        while held > 0 and taken < usable:
            key = key * 5 + c + 1
            taken += 1
            held -= 1
    return key * b + (jokers if jokers < usable else usable)


def _holding_key(h0: i64, h1: i64, h2: i64, h3: i64, k: i64, plain: bool) -> i64:
    """How many of each suit of a rank are held, each up to a meld's size ``k``, as
    one number (below ``(k + 1) ** 4``). Under the usual classes a smallest meld takes
    the rank's lowest cards, so only the first ``k`` count: (3, 1, 0, 0) and
    (3, 0, 0, 2) of a meld of three make the same melds, and share a key."""
    b = k + 1
    h0 = h0 if h0 < k else k
    if plain:
        h1 = h1 if h1 < k - h0 else k - h0
        h2 = h2 if h2 < k - h0 - h1 else k - h0 - h1
        h3 = h3 if h3 < k - h0 - h1 - h2 else k - h0 - h1 - h2
    else:
        h1 = h1 if h1 < k else k
        h2 = h2 if h2 < k else k
        h3 = h3 if h3 < k else k
    return ((h0 * b + h1) * b + h2) * b + h3


def sequence_melds(bits: i64, k: i64, out: list[Action]) -> None:
    """The smallest sequences held: ``k`` ranks in a row of one suit, lowest first."""
    for suit in range(4):
        in_suit: i64 = (bits >> suit) & BB_NATURAL_CLUBS  # a bit a rank, four apart
        lows: i64 = in_suit  # the lowest ranks of the runs of k
        j: i64
        for j in range(1, k):
            lows &= in_suit >> (4 * j)
        base: i64 = 0
        while lows:
            if lows & 1:
                out.append(_run(suit, int(base // 4 + 2), int(k)))
            lows >>= 4
            base += 4


def _each_card_added(i: int, base: i64, suits: i64, out: list[Action]) -> None:
    """Each card of a rank held (its ``suits``; ``base``: its clubs card), added to meld
    ``i``: where each natural is its own class."""
    if suits & 1:
        out.append(_add(i, base))
    if suits & 2:
        out.append(_add(i, base + 1))
    if suits & 4:
        out.append(_add(i, base + 2))
    if suits & 8:
        out.append(_add(i, base + 3))


def _sequence_additions(i: int, m: Meld, bits: i64, out: list[Action]) -> None:
    """The card below the sequence ``m`` (meld ``i``) and the card above, where held
    (``card(m.low - 1, m.suit)`` and ``card(m.high + 1, m.suit)``, worked out here)."""
    below: i64 = (m.low - 3) * 4 + m.suit
    above: i64 = (m.high - 1) * 4 + m.suit
    if m.low > 4 and (bits >> below) & 1:
        out.append(_add(i, below))
    if m.high < 14 and (bits >> above) & 1:
        out.append(_add(i, above))


def _wild_additions(i: int, a_two: i64, jokers: int, out: list[Action]) -> None:
    """A 2 and a joker added to meld ``i``, where held (any 2 is the lowest held)."""
    if a_two >= 0:
        out.append(_add(i, a_two))
    if jokers:
        out.append(_add(i, JOKER))


def discard_bits(bits: i64, each_natural: bool) -> i64:
    """The discards of :func:`_discards` under the usual classes (``each_natural``: or
    every natural its own) as bits: the lowest 2, black 3 and red 3 held, the lowest
    natural of each rank held (or every natural held), a joker."""
    low = lowest_of_each_rank(bits)
    naturals = bits if each_natural else low
    return ((low & (BB_TWOS | BB_JOKER)) | lowest_card(bits & BB_BLACK_THREES)
            | lowest_card(bits & BB_RED_THREES) | (naturals & BB_NATURALS))


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Hand(CheckedHand):
    """One hand of Hand and Foot: the state, every action checked, and the legal moves.

    >>> import random
    >>> from handfoot.actions import Draw
    >>> from handfoot.engine.deal import Deal
    >>> from handfoot.rules import preset
    >>> rules = preset("texas-good-sam")
    >>> hand = Hand(rules, Deal.shuffled(rules, random.Random(7)))
    >>> hand.phase.name, hand.actor == hand.first_seat, len(hand.stock)
    ('DRAW', True, 182)
    >>> played = hand.apply(Draw()); hand.phase.name
    'PLAY'
    """

    def _blank(self) -> Self:
        # (fast path: docs/design.md#the-listing)
        if type(self) is Hand:
            return cast(Self, Hand(self.rules, UNSET_DEAL))
        return type(self)(self.rules, UNSET_DEAL)

    def only_move(self) -> Action | None:
        """The one legal move when there is nothing to choose, else None: drawing, when
        the pile cannot be taken (and there is no upcard to take). Cheaper than listing."""
        if self.phase != PHASE_DRAW:
            return None
        p = self.actor
        team = self.team_of[p]
        if (self.hand_len[p] == 0 and not self.in_foot[p]) or (
                not self.opened[team] and self.melds[team]):
            return None
        if self.turn_number == 0 and self.settings.upcard:
            return None
        return None if self.pile_open(p) else DRAW

    def _turn_backs(self, out: list[Action]) -> None:
        """This turn's plays taken back, meld by meld, the last first
        (``turn.take_back_turn``)."""
        for i in range(len(self.turn_plays) - 1, -1, -1):
            out.append(_back(self.turn_plays[i][0]))

    def legal_actions(self) -> list[Action]:
        """Every legal move now (one meld or one card at a time), with interchangeable
        cards listed once."""
        out: list[Action] = []
        disc, at = self.moves_and_discards(out)
        if disc:
            add_discards(out, disc, at)
        return out

    def moves_and_discards(self, out: list[Action]) -> tuple[i64, i64]:
        """:meth:`legal_actions` put into ``out``, but for the discards where the cards'
        classes are the usual ones (or every natural its own): those are returned as
        bits, bit c for a discard of card c (0 for none), with the place in ``out`` where
        they stand in the list, lowest card first (:func:`add_discards` puts them there).
        For a caller that takes one move of the list by its place (the random player):
        the discards need not be made to be counted (:func:`count_discards`) or taken
        (:func:`nth_discard`)."""
        phase = self.phase
        if phase == PHASE_OVER:
            return 0, 0
        if phase == PHASE_CHOOSE:
            out.extend(_CHOICES)
            return 0, 0
        if phase == PHASE_ASK:
            out.extend(_ANSWERS)
            return 0, 0
        p = self.actor
        team = self.team_of[p]
        opened = self.opened[team]
        staging = not opened and bool(self.melds[team])
        if self.hand_len[p] == 0 and not self.in_foot[p] and not staging:
            out.append(PICK_UP_FOOT)
            if self.turn_plays:
                self._turn_backs(out)
            return 0, 0
        # The first move always moves the turn on (so a player that takes the first
        # never lays out and takes back for ever): drawing, going down or taking the
        # last meld laid out back, melding once the team is down, else a discard.
        if phase == PHASE_DRAW:
            if staging:
                _backs(len(self.melds[team]), out)
            else:
                out.append(DRAW)
                if (self.settings.upcard and self.turn_number == 0
                        and len(self.pile) == 1 and not is_three(self.pile[0])
                        and not WILD[self.pile[0]]):
                    out.append(TAKE_UPCARD)
            if self.pile_open(p):
                self._pile_moves(p, out)
                if not opened and self.settings.pile_with_opening:
                    self._meld_moves(p, team, False, out)
            return 0, 0
        if staging:
            if self.may_go_down():
                out.append(GO_DOWN)
            _backs(len(self.melds[team]), out)
            self._meld_moves(p, team, False, out)
            return 0, 0
        # Where the cards' classes are the usual ones (or every natural its own), the
        # discards are gathered by the melds' own pass over the hand (see
        # :meth:`_meld_moves`), not by a pass of their own.
        st = self.settings
        gather = st.plain_classes or st.suit_classes
        disc: i64 = 0
        if opened:
            disc = self._meld_moves(p, team, True, out, gather)
            if self.turn_plays:
                self._turn_backs(out)
        # (where the team lacks books, asked only by a player who can make them this
        # turn: worked out without the refusal's words, which the listing never shows)
        if st.ask_partner and not self.asked and self.in_foot[p] and (
                self.may_ask_to_finish_books(p) if self.books_missing(team)
                else self.is_legal(ASK)):
            out.append(ASK)
        go_out = self.must_go_out(p)
        if (self.may_end_turn or self._stuck(p)) and not go_out:
            out.append(END_TURN)
        if self.in_foot[p] and self.hand_len[p] == 1 \
                and not self._fits_emptying(p, 1, by_discard=True):
            if not opened:
                self._meld_moves(p, team, False, out)
            return 0, 0
        if not gather:
            if not go_out:
                _discards(self.hands[p], st.card_class, out)
            if not opened:
                self._meld_moves(p, team, False, out)
            return 0, 0
        # (fast path: docs/design.md#the-listing)
        at: i64 = len(out)
        if not opened:  # the discards before the melds, as above
            disc = self._meld_moves(p, team, False, out, True)
        if go_out:
            disc = 0
        return disc, at

    def _meld_moves(self, p: int, team: int, opened: bool, out: list[Action],
                    gather: bool = False) -> i64:
        """New melds in their smallest form, then one card added to a meld: melds of a
        rank, sequences, wild-card melds, black 3s, additions. With ``gather`` (where
        the cards' classes are the usual ones, :attr:`Settings.plain_classes`, or every
        natural its own, :attr:`Settings.suit_classes`) the discards too, as
        :func:`_discards` lists them: returned as bits (:func:`_discards_of`), else 0."""
        mr = self.settings
        hand = self.hands[p]
        k = mr.min_size
        tables = self.table_counts(team)
        bits: i64 = self.held[p].bits
        a_two: i64 = lowest_suit(bits & BB_TWOS) if bits & BB_TWOS else -1
        jokers = hand[JOKER] if bits & BB_JOKER else 0
        # The emptying rule matters only for a play that leaves a player in the foot with
        # one card or none; such moves are checked one by one.
        check = opened and self.in_foot[p]
        left = self.hand_len[p]
        start = len(out)
        self._rank_melds(p, bits, tables, a_two, jokers, out)
        if mr.sequences:
            sequence_melds(bits, k, out)
        if mr.wild_melds and self._may_meld_wilds(team, opened, tables.wild_open):
            self._wild_card_melds(hand, jokers, out)
        if check and left - k <= 1:
            out[start:] = [m for m in out[start:] if self._fits_emptying(p, k, action=m)]
        black = cards_of(hand, 4, 8, 3) if mr.black_melded else _NO_CARDS
        if len(black) >= k and not (mr.one_open_meld_per_rank and tables.open_ranks[3]):
            self._black_three_melds(black, left, out)
        start = len(out)
        # (black 3s added to their meld are checked in full, so go after the filter below)
        checked = self._additions(team, bits, a_two, jokers, black, left,
                                  tables.wild_open, out)
        if check and left - 1 <= 1:
            out[start:] = [m for m in out[start:] if self._fits_emptying(p, 1, action=m)]
        if checked is not None:
            out.extend(checked)
        return discard_bits(bits, mr.suit_classes) if gather else 0

    def _rank_melds(self, p: int, bits: i64, tables: TableCounts, a_two: i64, jokers: int,
                    out: list[Action]) -> None:
        """The smallest new melds of each rank held (:meth:`_cores`), looked up in the
        tables kept by the wilds held (:meth:`_cores_table`) by how many of each of the
        rank's cards are held (:func:`_holding_key`)."""
        mr = self.settings
        hand = self.hands[p]
        k: i64 = mr.min_size
        wild_ok = not (tables.wild_open and mr.wild_meld_blocks_wilds)
        usable = min(mr.max_wilds, mr.min_size - mr.min_naturals) if wild_ok else 0
        wild_key = _wilds_key(hand, a_two, jokers, usable, k + 1)
        by_index = self._cores_table(wild_key) if k <= 4 else _NO_CORES
        by_key = _NO_KEYS if k <= 4 else self._cores_dict(wild_key)
        open_ranks, book_ranks = tables.open_ranks, tables.book_ranks
        one_per_rank: bool = mr.one_open_meld_per_rank
        plain: bool = mr.plain_classes
        books_per_rank: i64 = mr.books_per_rank
        need: i64 = mr.min_naturals
        # (only the ranks held are looked at: fast path, docs/design.md#the-listing)
        rest: i64 = (bits & BB_NATURALS) >> FIRST_NATURAL
        rank: i64 = 3
        while rest:
            rank += 1
            suits: i64 = rest & BB_RANK_SUITS
            rest >>= 4
            if not suits:
                continue
            base: i64 = (rank - 2) * 4
            h0: i64 = hand[base] if suits & 1 else 0
            h1: i64 = hand[base + 1] if suits & 2 else 0
            h2: i64 = hand[base + 2] if suits & 4 else 0
            h3: i64 = hand[base + 3] if suits & 8 else 0
            if h0 + h1 + h2 + h3 < need:
                continue
            if one_per_rank and open_ranks[rank]:
                continue
            if books_per_rank and book_ranks[rank] + open_ranks[rank] >= books_per_rank:
                continue
            key = _holding_key(h0, h1, h2, h3, k, plain) * 16 + rank
            if by_index:
                found = by_index[key]
                if found is None:
                    found = by_index[key] = self._cores(rank, cards_of(hand, 0, 4), jokers,
                                                        usable)
            else:
                found = by_key.get(key)
                if found is None:
                    found = by_key[key] = self._cores(rank, cards_of(hand, 0, 4), jokers,
                                                      usable)
            for move in found:  # (appended: fast path, docs/design.md#the-listing)
                out.append(move)

    def _cores_table(self, wild_key: i64) -> list[list[Action] | None]:
        """The smallest melds kept for the wilds ``wild_key`` (:func:`_wilds_key`), as a
        list indexed by :func:`_holding_key` and the rank, where a meld is of four cards
        or fewer (every preset); the last table asked is kept at hand."""
        mr = self.settings
        last_key, last = mr.cores_last
        if wild_key == last_key:
            return last
        by_wilds = mr.cores_by_index
        if wild_key >= len(by_wilds):
            by_wilds.extend([None] * (wild_key + 1 - len(by_wilds)))
        table = by_wilds[wild_key]
        if table is None:
            b = mr.min_size + 1
            table = by_wilds[wild_key] = [None] * (b * b * b * b * 16)
        mr.cores_last = (wild_key, table)
        return table

    def _cores_dict(self, wild_key: i64) -> dict[int, list[Action]]:
        """:meth:`_cores_table` where melds are larger, as a dict by the same key."""
        mr = self.settings
        by_key = mr.cores_by_key.get(wild_key, _NO_KEYS)
        if by_key is _NO_KEYS:
            by_key = mr.cores_by_key[wild_key] = {}
        return by_key

    def _may_meld_wilds(self, team: int, opened: bool, wild_open: bool) -> bool:
        """Whether the team may lay a new meld of wild cards now: the rules have them and
        none is open (melds laid out before it with wilds do not keep it back: it blocks
        only wilds laid after it)."""
        return self.settings.wild_melds and not wild_open

    def _wild_card_melds(self, hand: list[int], jokers: int, out: list[Action]) -> None:
        """The smallest melds of wild cards, kept by the wilds held (each count up to a
        meld's size)."""
        mr = self.settings
        kk: i64 = mr.min_size
        wk: i64 = 0
        room: i64 = kk
        c: i64
        for c in range(4):
            n: i64 = hand[c]
            n = n if n < room else room
            room -= n
            wk = wk * (kk + 1) + n
        held_jokers: i64 = jokers
        wk = wk * (kk + 1) + (held_jokers if held_jokers < kk else kk)
        made_by = mr.wild_melds_by
        if wk >= len(made_by):
            made_by.extend([None] * (wk + 1 - len(made_by)))
        made = made_by[wk]
        if made is None:
            made = made_by[wk] = [_lay(tuple(sorted(ws)))
                                  for ws in wild_sets(cards_of(hand, 0, 4), jokers, mr.min_size)]
        for move in made:
            out.append(move)

    def _black_three_melds(self, black: list[Card], left: int, out: list[Action]) -> None:
        """A meld of the black 3s held (where the rules meld them): each checked in full.
        Where they go down only to go out, that takes all of them, or all but one."""
        k = self.settings.min_size
        to_go_out = self.settings.black_to_go_out
        for n in sorted({k, left - 1, left}):
            if k <= n <= len(black) and (n == k or to_go_out):
                move = _lay(tuple(black[:n]))
                if self.is_legal(move):
                    out.append(move)

    def _additions(self, team: int, bits: i64, a_two: i64, jokers: int, black: list[Card],
                   left: int, wild_open: bool, out: list[Action]) -> list[Action] | None:
        """One card added to each meld of the team's it may go on: a natural of its rank
        (the lowest held, :func:`_each_card_added` or :meth:`_class_additions`), a wild
        (:func:`_wild_additions`), a card extending a sequence. The black 3s for their
        meld are returned apart (checked in full), None where there are none."""
        mr = self.settings
        size = mr.book_size
        plain: bool = mr.plain_classes
        suit_classes: bool = mr.suit_classes
        burn: bool = mr.burn_wilds
        wilds_held = a_two >= 0 or jokers > 0
        # (a wild goes on a meld of a rank unless an open wild-card meld blocks it)
        wilds_on_ranks = wilds_held and not (mr.wild_meld_blocks_wilds and wild_open)
        checked: list[Action] | None = None
        for i, m in enumerate(self.melds[team]):
            kind = m.kind
            if kind == RANK_MELD and m.rank == 3:
                if black:
                    checked = self._black_three_additions(i, black, left, checked)
            elif kind == RANK_MELD:
                r: i64 = m.rank
                if plain:  # the rank's lowest card held (fast path: docs/design.md#the-listing)
                    suits: i64 = (bits >> ((r - 2) * 4)) & BB_RANK_SUITS
                    if suits:
                        out.append(_add(i, (r - 2) * 4 + lowest_suit(suits)))
                elif suit_classes:  # each natural its own class: each card held
                    suits = (bits >> ((r - 2) * 4)) & BB_RANK_SUITS
                    if suits:
                        _each_card_added(i, (r - 2) * 4, suits, out)
                else:
                    self._class_additions(i, m.rank, out)
                if wilds_on_ranks and (m.size < size or burn) and m.wilds < most_wilds(
                        m.naturals, mr.max_wilds, mr.naturals_exceed_wilds):
                    _wild_additions(i, a_two, jokers, out)
            elif m.size < size:
                if kind == SEQUENCE:
                    _sequence_additions(i, m, bits, out)
                elif kind == WILD_MELD and wilds_held:
                    _wild_additions(i, a_two, jokers, out)
        return checked

    def _class_additions(self, i: int, rank: int, out: list[Action]) -> None:
        """A natural of each class of ``rank`` held, added to meld ``i`` (where the
        classes are neither the usual ones nor each natural its own)."""
        hand = self.hands[self.actor]
        for members in self.settings.rank_classes[rank]:
            for c in members:
                if hand[c]:
                    out.append(_add(i, c))
                    break

    def _black_three_additions(self, i: int, black: list[Card], left: int,
                               checked: list[Action] | None) -> list[Action] | None:
        """Black 3s added to their meld ``i``: one, or (where they go down only to go
        out) all held or all but one; each checked in full, put in ``checked``."""
        to_go_out = self.settings.black_to_go_out
        for n in sorted({1, left - 1, left}):
            if 1 <= n <= len(black) and (n == 1 or to_go_out):
                added = _add(i, black[0]) if n == 1 else AddToMeld(i, tuple(black[:n]))
                if self.is_legal(added):
                    if checked is None:
                        checked = []
                    checked.append(added)
        return checked

    def _cores(self, rank: int, two_cards: list[Card], jokers: int,
               usable: int) -> list[Action]:
        """The smallest new melds of ``rank`` the hand makes, with up to ``usable`` wilds."""
        if self.settings.plain_classes:
            return self._plain_cores(rank, two_cards, jokers, usable)
        if self.settings.suit_classes:
            return self._suit_cores(rank, two_cards, jokers, usable)
        return self._class_cores(rank, two_cards, jokers, usable)

    def _suit_cores(self, rank: int, two_cards: list[Card], jokers: int,
                    usable: int) -> list[Action]:
        """:meth:`_class_cores` where each natural is its own class (samba): the same
        melds, in the same order. The ways to pick the naturals depend only on how many
        of each suit are held (each up to a meld's size), the same for every rank: they
        are worked out once for each such holding, as suits (0 to 3), and kept
        (:attr:`Settings.suit_picks`); the rank's cards are its lowest plus the suit."""
        mr = self.settings
        k = mr.min_size
        hand = self.hands[self.actor]
        base = (rank - 2) * 4
        b = k + 1
        key = 0
        have = 0
        for s in range(4):
            n = hand[base + s]
            n = n if n < k else k
            key = key * b + n
            have += n
        by_count = mr.suit_picks.get(key)
        if by_count is None:
            groups: list[list[Card]] = []
            for s in range(4):
                n = hand[base + s]
                if n:
                    groups.append([s] * (n if n < k else k))
            by_count = mr.suit_picks[key] = [picks(groups, n) for n in range(k + 1)]
        out: list[Action] = []
        for n in range(k if k < have else have, mr.min_naturals - 1, -1):
            w = k - n
            if w > usable or w > most_wilds(n, mr.max_wilds, mr.naturals_exceed_wilds):
                break
            for suits in by_count[n]:
                _with_wilds(tuple([base + s for s in suits]), two_cards, jokers, w, True, out)
        return out

    def _class_cores(self, rank: int, two_cards: list[Card], jokers: int,
                     usable: int) -> list[Action]:
        """:meth:`_cores` for any classes of cards: the naturals picked one per choice
        of how many from each class."""
        mr = self.settings  # (compiled fields: the rule set's are read by name)
        k = mr.min_size
        groups = naturals_by_class(mr.rank_classes[rank], self.hands[self.actor])
        have = 0
        for g in groups:
            have += len(g)
        out: list[Action] = []
        # Where each class is a run of cards (no two classes of the rank interleave), a
        # pick of naturals is in card order, and the meld's cards are its 2s, the
        # naturals, then its jokers: made in that order, not sorted.
        ordered = mr.plain_classes or mr.suit_classes
        for n in range(k if k < have else have, mr.min_naturals - 1, -1):
            w = k - n
            if w > usable or w > most_wilds(n, mr.max_wilds, mr.naturals_exceed_wilds):
                break
            for nat in picks(groups, n):
                _with_wilds(nat, two_cards, jokers, w, ordered, out)
        return out

    def _plain_cores(self, rank: int, two_cards: list[Card], jokers: int,
                     usable: int) -> list[Action]:
        """:meth:`_cores` under the usual classes, where the naturals of a meld are the
        rank's lowest held: the same melds, in the same order, made directly."""
        mr = self.settings
        k = mr.min_size
        hand = self.hands[self.actor]
        naturals: list[Card] = []  # the rank's first k cards held, lowest first
        base = (rank - 2) * 4
        for c in range(base, base + 4):
            held = hand[c]
            while held > 0 and len(naturals) < k:
                naturals.append(c)
                held -= 1
        out: list[Action] = []
        have = len(naturals)
        for n in range(have, mr.min_naturals - 1, -1):
            w = k - n
            if w > usable or w > most_wilds(n, mr.max_wilds, mr.naturals_exceed_wilds):
                break
            _with_wilds(tuple(naturals[:n]), two_cards, jokers, w, True, out)
        return out

    def _pile_moves(self, p: int, out: list[Action]) -> None:
        """The ways to take the pile: what is shown, and how many cards."""
        rank = (self.pile[-1] >> 2) + 2
        st = self.settings
        if (not (self.held[p].bits >> ((rank - 2) * 4)) & BB_RANK_SUITS
                and (st.plain_classes or st.suit_classes)
                and not (st.show_meld_on_board and self.opened[self.team_of[p]])):
            # No natural of the rank held (the player's bits, :class:`Held`): nothing can
            # be shown, and no meld of it on the table could be shown instead (the usual
            # draw: nothing more is asked or made).
            return
        shows = self._pile_shows(p, rank)
        if shows:
            self._pile_takes(p, shows, out)

    def _pile_shows(self, p: int, rank: int) -> list[tuple[Card, ...]]:
        """What may be shown to take the pile: naturals of the top card's rank (a pair,
        or one with a wild), or nothing for a meld on the table. Only the ways the check
        may accept now are listed (it is asked of each): none but a natural pair while
        the pile is frozen, a meld on the table if there is one."""
        st = self.settings
        hand = self.hands[p]
        frozen = self.pile_frozen()
        shows: list[tuple[Card, ...]] = []
        ones = _natural_shows(st, hand, rank, st.show_natural_and_wild and not frozen,
                              shows)
        if ones:
            a_two = -1
            for c in range(4):
                if hand[c]:
                    a_two = c
                    break
            for nat in ones:
                if a_two >= 0:
                    shows.append((a_two, nat))  # (a 2 is the lower card)
                if hand[JOKER]:
                    shows.append((nat, JOKER))
        if st.show_meld_on_board and not frozen and self.has_board_meld(self.team_of[p], rank):
            shows.append(())
        return shows

    def _pile_takes(self, p: int, shows: list[tuple[Card, ...]], out: list[Action]) -> None:
        """Each of ``shows`` that the check accepts, with each count of cards taken."""
        st = self.settings
        top = self.pile[-1]
        first, stop = st.take_span(self.rules, len(self.pile))
        in_foot = self.in_foot[p]
        # Before the team has opened, taking the pile is its opening: where the melds
        # laid out and the top card's meld do not make one (their points, their clean
        # and dirty melds and their books: :meth:`opening_met`, which the check asks of
        # them too), nothing more need be asked.
        team = self.team_of[p]
        opening = not self.opened[team]
        value = clean = dirty = books = 0
        size = st.book_size
        values = st.card_value
        if opening:
            value, clean, dirty, books = self.laid_out(team)
            value += values[top]
        for shown in shows:
            if opening:  # the top card's meld: of its rank, clean unless a wild is shown
                given = 0
                wild = 0
                for c in shown:
                    given += values[c]
                    wild |= WILD[c]
                if not self.opening_met(team, value + given, clean + (1 - wild),
                                        dirty + wild, books + (len(shown) + 1 >= size)):
                    continue
            # The count matters only to the emptying rule: a larger count keeps more cards.
            if not self.is_legal(_take(shown, stop - 1)):
                continue
            for count in range(first, stop):
                move = _take(shown, count)
                if in_foot and self.hand_len[p] - len(shown) + count - 1 <= 1 \
                        and not self.is_legal(move):
                    continue
                out.append(move)

    def laying_out(self) -> bool:
        """Whether the team of the player to act has melds laid out for its opening that
        it has not gone down with yet (on the table, for everyone to see)."""
        team = self.team_of[self.actor]
        return not self.opened[team] and bool(self.melds[team])

    def iter_legal_actions(self) -> Iterator[Action]:
        return iter(self.legal_actions())

    def legal(self) -> LegalActions:
        """The legal actions now, listed only when asked (see :class:`LegalActions`).
        They answer from this very state; a player is given :meth:`actor_legal`."""
        return LegalActions(self)

    def actor_legal(self, copy: bool = True) -> LegalActions:
        """The legal actions now, for the player to act: they answer from
        :meth:`seat_copy`, so nothing reachable from them shows a card that player
        cannot see. Without ``copy`` (for a player that reads only the moves and the
        turn: the random player), they answer from this very state, which they do not
        show (:attr:`LegalActions.seat_state` is None): the same moves, in the same order,
        without the cost of a copy. They are listed at once and keep no reference to this
        state: nothing reachable from them shows a card the player cannot see, either."""
        if copy:
            return LegalActions(self.seat_copy(), self.rules, seat_copy=True)
        return _listed(self)



@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class LegalActions(Sequence[Action]):
    """The legal actions of a hand as it stands, as a lazy sequence.

    The list (one meld or one card at a time, see :mod:`handfoot.engine.moves`) is
    built the first time it is indexed, measured or iterated, and ``action in legal``
    asks the engine directly: it is true when the engine accepts the action now, so
    a whole opening laid down at once, a meld of more cards than the listed smallest
    one, several cards added together, or a listed move with other interchangeable
    cards are accepted too. The sequence belongs to the state it was made for: once
    an action has been carried out it refuses to answer.

    ``rules`` is the rule set being played (public). :attr:`seat_state` is the state
    as the player to act knows it, when the actions were made for that player from a
    seat copy; :attr:`for_actor` says they were made for the player to act, whose turn
    they then tell (:meth:`turn`, :meth:`laying_out`). Made for a player that reads only
    the moves and the turn (:meth:`Hand.actor_legal` without a copy), they are listed at
    once, hold no state, and ``action in legal`` is then true only of the listed moves.
    """

    __slots__ = ("__hand", "_accepted", "_history", "_laying_out", "_list", "_seat",
                 "_stamp", "_turn", "rules")

    def __init__(self, hand: Hand | None, rules: Rules | None = None,
                 seat_copy: bool = False) -> None:
        self.__hand = hand
        self._seat = seat_copy and hand is not None
        self._accepted: object = None
        self._list: list[Action] | None = None if hand is not None else []
        self._stamp = len(hand.history) if hand is not None else 0
        self.rules = rules if rules is not None or hand is None else hand.rules
        # (the listed form's: the played actions, to tell when they are stale, and the turn)
        self._history: list[tuple[int, Action]] | None = None
        self._turn = (0, 0)
        self._laying_out = False

    @property
    def seat_state(self) -> Hand | None:
        """The hand as the player to act knows it (:meth:`Hand.seat_copy`: every card that
        player cannot see is face down), for players that read the state in the engine's
        own form rather than a :class:`~handfoot.game.views.View`; None when these actions
        answer from a full state (inside a search, say). It shares its lists with the
        game, so it is for reading only, and only until an action is carried out."""
        return self.__hand if self._seat else None

    @property
    def for_actor(self) -> bool:
        """Whether these actions were listed for the player to act (who may ask
        :meth:`turn` and :meth:`laying_out`): from a seat copy, or listed without one."""
        return self._seat or self._history is not None

    def turn(self) -> tuple[int, int]:
        """The hand's number and the turn's, as everyone at the table knows them."""
        if self.__hand is None:
            self._fresh()
            return self._turn
        return _turn(self._state())

    def laying_out(self) -> bool:
        """Whether the team of the player to act has melds laid out for its opening that
        it has not gone down with yet (on the table, for everyone to see)."""
        if self.__hand is None:
            self._fresh()
            return self._laying_out
        return self._state().laying_out()

    def _fresh(self) -> None:
        """(the listed form) Refuse to answer once another action has been played."""
        history = self._history
        if history is not None and len(history) != self._stamp:
            raise RuntimeError("these legal actions were listed for an earlier state")

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
        else:
            self._fresh()
        return self._list

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: int) -> Action:  # type: ignore[override]
        # A listed move is legal (the property tests check every one): taken from the list,
        # it is as good as accepted.
        move = self._all()[i]
        self._accepted = move
        return move

    def __iter__(self) -> Iterator[Action]:
        return iter(self._all())

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, ActionBase):  # (one check: every action's class)
            return False
        if self.__hand is None:
            self._fresh()
        if self._list is not None and action in self._list:
            self._accepted = action
            return True
        if self.__hand is None:
            return False
        if self._state().is_legal(cast(Action, action)):  # (checked as one above)
            self._accepted = action
            return True
        return False

    def confirms(self, action: Action) -> bool:
        """Whether the engine accepted this very action object (``action in self``, or
        taken from the list, or one of the listed objects themselves, for a player that
        went through the list) in the state these actions belong to; a player that
        carries it out need not have it checked a second time."""
        hand = self.__hand
        history = hand.history if hand is not None else self._history
        if history is None or len(history) != self._stamp:
            return False
        if action is self._accepted:
            return True
        listed = self._list
        if listed is not None:
            for move in listed:  # (by identity: a listed move is legal, tested)
                if move is action:
                    return True
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({self._all()!r})"


def _listed(hand: Hand) -> LegalActions:
    """The legal actions of the player to act in ``hand``, listed now, keeping of the hand
    only its list of played actions (to refuse to answer once another is played: no card
    is in it) and the turn."""
    legal = LegalActions(None, hand.rules)
    legal._list = hand.legal_actions()
    legal._history = hand.history
    legal._stamp = len(hand.history)
    legal._turn = _turn(hand)
    legal._laying_out = hand.laying_out()
    return legal


def _turn(hand: Hand) -> tuple[int, int]:
    return hand.hand_number, hand.turn_number
