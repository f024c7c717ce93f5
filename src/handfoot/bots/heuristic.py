"""``heuristic``: a fast rule-based player that knows the rule set it plays.

It decides from what its seat may see (an :class:`Obs`, built from the seat's
:class:`~handfoot.game.views.View`) and never re-implements legality: it builds the
actions it would like, best first, and plays the first one the engine accepts
(``action in legal``). The strategy is written out in ``docs/bots.md``; in short:

- **draw**: pick up the foot when the hand is empty; take the pile whenever the rules
  let it (with a natural pair first, then a natural and a wild, then a meld on the
  board, taking as many cards as allowed), opening with it where the rules allow;
  otherwise draw.
- **open**: lay every rank held three or more times (clean), then, while the opening
  is short of the minimum or of the clean/dirty melds it must hold, pairs with a wild,
  then wilds on the clean melds; the whole hand if it all fits.
- **play**: add naturals to the team's melds (burning them on books), extend
  sequences and wild-card melds, lay new clean melds, sequences and a wild-card meld;
  put wilds only on melds that are not needed as clean books, first where they
  complete a book; lay a pair with a wild once the team needs dirty books.
- **go out**: ask (where a partner must agree) once two cards or fewer are left;
  answer a partner yes when our side gains by the hand ending.
- **discard**: red 3s where they count against the holder, then black 3s (they
  freeze the pile), then singletons the next player (always an opponent) cannot use:
  never a wild, never a rank the team is building, not a rank the next player's team
  has on the table or the next player is known to hold.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, cast

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
    AddToMeld,
    ChooseHand,
    Discard,
    LayDown,
    LayMeld,
    TakeBack,
    TakePile,
    TakeUpcard,
)
from handfoot.cards import JOKER, NATURAL, NUM_CARDS, RANK, SUIT, WILD, Card, cards_of
from handfoot.engine import (
    RANK_MELD,
    SEQUENCE,
    WILD_MELD,
    Hand,
    LegalActions,
    Meld,
    Phase,
    count_books,
)
from handfoot.engine.melds import most_wilds
from handfoot.engine.settings import Settings, settings_of
from handfoot.engine.state import bits_held
from handfoot.game.views import MeldView, TeamView, View
from handfoot.rules import Rules, preset

_KINDS = {"rank": RANK_MELD, "sequence": SEQUENCE, "wild": WILD_MELD}
_PHASES: Final = ("choose", "draw", "play", "ask", "over")  # by Phase
assert all(_PHASES[p] == p.name.lower() for p in Phase)
_CHOOSE: Final = Phase.CHOOSE  # read on every decision (compiled: a Final name is a C static)
_ASK: Final = Phase.ASK
_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class MeldInfo:
    """A meld on the table, as a player sees it."""

    __slots__ = ("high", "kind", "low", "naturals", "rank", "size", "suit", "wilds")

    def __init__(self, kind: int, rank: int, suit: int, size: int, naturals: int,
                 wilds: int, low: int, high: int) -> None:
        self.kind, self.rank, self.suit, self.size = kind, rank, suit, size
        self.naturals, self.wilds, self.low, self.high = naturals, wilds, low, high


#: what the heuristic reads of a meld: a :class:`MeldInfo` (read from a view), or the
#: engine's own meld (read from a state). A union of the two classes, not a protocol:
#: compiled, each field is then read directly (about 7 ns, where a protocol's field is
#: looked up by name: about 45)
MeldLike = Meld | MeldInfo


#: what an :class:`Obs` holds (its slots; a compiled class has no ``__slots__`` to read)
OBS_FIELDS = ("asked", "books", "foot_left", "hand", "hand_len", "held_bits", "in_foot",
              "known_next", "melds", "minimum", "next_hand_len",
              "opened", "partner_foot_left", "partner_hand", "permission", "phase",
              "history", "pile_size", "pile_top", "pile_wild", "rules", "seat", "settings",
              "stack_tops", "stock_size", "team", "turn")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class Obs:
    """What the heuristic reads: one seat's knowledge, in count vectors."""

    __slots__ = OBS_FIELDS

    rules: Rules
    #: the rule set's compiled settings (the meld rules read at every decision)
    settings: Settings
    seat: int
    team: int
    phase: str
    turn: int
    hand: list[int]
    hand_len: int
    #: the cards held as bits (:class:`~handfoot.engine.state.Held`: the ranks held)
    held_bits: i64
    in_foot: bool
    foot_left: int
    opened: list[bool]
    minimum: int
    #: each team's melds (lists, which compiled code indexes and walks directly)
    melds: list[list[MeldLike]]
    #: the team's complete books: (clean, dirty, wild-card, sequence)
    books: tuple[int, int, int, int]
    pile_top: Card | None
    #: the public history (read for what lies in the pile)
    history: list[tuple[int, Action]]  # (a list: compiled code indexes it directly)
    pile_size: int
    pile_wild: bool
    stock_size: int
    known_next: list[int]
    #: how many cards the next player holds in hand
    next_hand_len: int
    partner_hand: int
    partner_foot_left: int
    permission: bool | None
    asked: bool
    stack_tops: tuple[tuple[Card, Card], ...]


#: each team's melds as last read: (the team's view, the reading)
_LAST_TEAM: Final[dict[int, tuple[TeamView, list[MeldInfo]]]] = {}


def _meld_info(m: MeldView) -> MeldInfo:
    kind = _KINDS[m.kind]
    cards = m.cards  # sorted by rank, wild cards last
    first = cards[0]
    if kind == SEQUENCE:
        ranks = [RANK[c] for c in cards]
        return MeldInfo(kind, 0, SUIT[first], len(cards), m.naturals, m.wilds, min(ranks),
                        max(ranks))
    # The lowest and highest ranks matter only for sequences. A meld of one rank is of
    # its first card's (its naturals come first: black 3s too, which are not naturals).
    rank = RANK[first] if kind == RANK_MELD and not WILD[first] else 0
    return MeldInfo(kind, rank, -1, len(cards), m.naturals, m.wilds, 0, 0)


def obs_from_view(view: View, rules: Rules) -> Obs:
    """The heuristic's reading of a seat's view."""
    assert view.seat is not None
    o = Obs()
    seat = view.seat
    n = len(view.players)
    o.rules, o.seat, o.team = rules, seat, view.players[seat].team
    o.settings = settings_of(rules)
    o.phase, o.turn = view.phase, view.turn
    hand = list(view.hand_counts)
    o.hand, o.hand_len = hand, sum(hand)
    o.held_bits = bits_held(hand)
    me = view.players[seat]
    o.in_foot, o.foot_left = me.in_foot, me.foot_count
    o.opened = [t.opened for t in view.teams]
    o.minimum = view.teams[o.team].minimum
    melds = []
    for t in view.teams:
        # A team's view is the same object while its table is unchanged, and so is each
        # meld's view while the meld is: only what changed is read again.
        last = _LAST_TEAM.get(t.team)
        if last is not None and last[0] is t:
            melds.append(last[1])
            continue
        if last is None:
            infos = [_meld_info(m) for m in t.melds]
        else:
            last_views, last_infos = last[0].melds, last[1]
            k = len(last_views)
            infos = [last_infos[i] if i < k and last_views[i] is m else _meld_info(m)
                     for i, m in enumerate(t.melds)]
        _LAST_TEAM[t.team] = (t, infos)
        melds.append(infos)
    o.melds = cast(list[list[MeldLike]], melds)
    o.books = count_books(o.melds[o.team], o.settings.book_size)
    o.pile_top, o.pile_size = view.pile_top, view.pile_size
    o.history = list(view.history)
    o.pile_wild = view.pile_has_wild
    o.stock_size = view.stock_size
    known = [0] * NUM_CARDS
    for c in view.players[(seat + 1) % n].known:
        known[c] = known[c] + 1
    o.known_next = known
    o.next_hand_len = view.players[(seat + 1) % n].hand_count
    partner_hand = partner_foot = 0
    for p in view.players:
        if p.team == o.team and p.seat != seat:
            partner_hand += p.hand_count
            partner_foot += p.foot_count
    o.partner_hand, o.partner_foot_left = partner_hand, partner_foot
    o.permission, o.asked = view.permission, view.asked_to_go_out
    o.stack_tops = view.stack_tops
    return o


def obs_from_hand(hand: Hand, seat: int, into: Obs | None = None) -> Obs:
    """The same reading taken straight from a state: the seat's own state carried by
    its legal actions (:attr:`~handfoot.engine.LegalActions.seat_state`), or an
    imagined deal inside a search, where building a view for every decision would
    cost too much. ``obs_from_view`` of the seat's view reads the same (tested).
    ``into``: a reading to overwrite (every field is set) instead of a new one."""
    o = into if into is not None else Obs()
    rules = hand.rules
    o.settings = hand.settings
    n = hand.seats
    team_of = hand.team_of
    team = team_of[seat]
    phase = hand.phase
    o.rules = rules
    o.seat = seat
    o.team = team
    # (the usual two by identity: compiled, the tuple indexed by the enum went through
    # Python's generic item lookup, a fifth of this reading)
    o.phase = "draw" if phase is _DRAW else "play" if phase is _PLAY else _PHASES[phase]
    o.turn = hand.seat
    o.hand = hand.hands[seat]
    o.held_bits = hand.held[seat].bits
    o.hand_len = hand.hand_len[seat]
    o.in_foot = hand.in_foot[seat]
    # (the counts read directly outside the choice of hands: compiled, the pair of
    # counts was made and boxed for each seat read)
    choosing = phase == _CHOOSE
    o.foot_left = hand.card_counts(seat)[1] if choosing else hand.foot_size(seat)
    o.opened = hand.opened
    o.minimum = hand.minimums[team]
    o.melds = cast(list[list[MeldLike]], hand.melds)  # read only
    # (the engine's, kept for the table's version: counted again only where they changed)
    o.books = hand.books(team)
    pile = hand.pile
    o.pile_top = pile[-1] if pile else None
    o.history = hand.history  # read only
    o.pile_size = len(pile)
    o.pile_wild = hand.pile_wilds > 0
    o.stock_size = len(hand.stock)
    after = (seat + 1) % n
    o.known_next = hand.known[after]
    o.next_hand_len = hand.card_counts(after)[0] if choosing else hand.hand_len[after]
    partner_hand = partner_foot = 0
    for s in range(n):
        if s != seat and team_of[s] == team:
            if choosing:
                h, f = hand.card_counts(s)
                partner_hand += h
                partner_foot += f
            else:
                partner_hand += hand.hand_len[s]
                partner_foot += hand.foot_size(s)
    o.partner_hand = partner_hand
    o.partner_foot_left = partner_foot
    o.permission = hand.permission
    o.asked = phase == _ASK
    # While hands are chosen, the two stacks' top cards lie face up.
    o.stack_tops = tuple([(a[0], b[0]) for a, b in hand.stacks]) if phase == _CHOOSE else ()
    return o


# ------------------------------------------------------------------ helpers

#: no cards, no wishes: the one empty list given where there is nothing (never changed;
#: compiled, a list made and freed at each decision costs some 230 machine instructions)
_NO_CARDS: Final[list[Card]] = []
_NO_WISHES: Final[list[Action]] = []
_NO_INDEXES: Final[list[int]] = []


def naturals_of(hand: list[int], rank: int) -> list[Card]:
    """The cards of ``rank`` held, by suit (as :func:`cards_of` lists them, here in
    machine integers: asked for at nearly every decision)."""
    out: list[Card] = []
    base: i64 = (rank - 2) * 4
    c: i64
    for c in range(base, base + 4):
        n: i64 = hand[c]
        while n > 0:
            out.append(c)
            n -= 1
    return out


def rank_held(counts: list[int], rank: i64) -> i64:
    """How many cards of ``rank`` a count vector holds (a hand, or what a player is known
    to hold), its four suits summed in machine integers."""
    base: i64 = (rank - 2) * 4
    held: i64 = counts[base]
    held += counts[base + 1]
    held += counts[base + 2]
    held += counts[base + 3]
    return held


def wilds_of(hand: list[int]) -> list[Card]:
    """Wild cards held, twos first (they are worth less than jokers)."""
    out = cards_of(hand, 0, 4)
    for _ in range(hand[JOKER]):  # (appended: no second list made and extended)
        out.append(JOKER)
    return out


def _holds_wilds(hand: list[int]) -> bool:
    """Whether a wild card is held (asked before the list of them is made)."""
    return bool(hand[0] or hand[1] or hand[2] or hand[3] or hand[JOKER])


def held_points(rules: Rules, hand: list[int]) -> int:
    held = rules.held_value
    return -sum(held[c] * k for c, k in enumerate(hand) if k)


def _runs(hand: list[int], suit: int) -> list[list[Card]]:
    runs: list[list[Card]] = []
    run: list[Card] = []
    for rank in range(4, 16):
        c = (rank - 2) * 4 + suit
        if rank <= 14 and hand[c]:
            run.append(c)
            continue
        if run:
            runs.append(run)
        run = []
    return runs


def table_points(o: Obs, team: int) -> int:
    """A rough score of a team's table: books at their bonus, open melds at 8 a card."""
    s = o.rules.scores
    size = o.settings.book_size
    total = 0
    for m in o.melds[team]:
        total += 8 * m.size + 20 * m.wilds
        if m.size >= size:
            if m.kind == WILD_MELD:
                total += s.wild_book
            elif m.kind == SEQUENCE:
                total += s.sequence_book
            else:
                total += s.dirty_book if m.wilds else s.clean_book
    return total


# ------------------------------------------------------------------ the player

Ok = Callable[[Action], bool]


def decide(o: Obs, ok: Ok, legal: Sequence[Action] = ()) -> Action:
    """The heuristic's action: the first of its wishes that ``ok`` accepts."""
    action = first_wish(o, ok)
    return action if action is not None else fallback(o, legal)


def first_wish(o: Obs, ok: Ok) -> Action | None:
    """The first of the heuristic's wishes that ``ok`` accepts, or None."""
    for action in wishes(o, ok):
        if ok(action):
            return action
    return None


def fallback(o: Obs, legal: Sequence[Action]) -> Action:
    """When none of its wishes is legal (a corner the strategy does not cover)."""
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        return max(discards, key=lambda a: discard_score(o, a.card))
    for a in legal:
        if a in (DRAW, END_TURN, YES):
            return a
    return legal[0]


def wishes(o: Obs, ok: Ok) -> Iterable[Action]:
    """The actions the heuristic would like, best first (lazily)."""
    if o.phase == "choose":
        return [ChooseHand(choose_stack(o))]
    if o.phase == "ask":
        return [YES if answer_yes(o) else NO]
    team = o.team
    if not o.opened[team] and o.melds[team]:
        return laid_out_options(o, ok)
    if o.hand_len == 0 and not o.in_foot:
        return [PICK_UP_FOOT]
    if o.phase == "draw":
        return draw_options(o, ok)
    return play_options(o, ok)


def laid_out_options(o: Obs, ok: Ok) -> list[Action]:
    """Melds laid out for the team's opening, not gone down (a position the heuristic is
    handed: it lays its own opening down at once): go down with them, or with more
    melds; else lay out the naturals that go on them; take them back last (where the
    rules penalise an opening shown short, that costs the team, so everything that may
    still make the opening comes first). Before the draw, the pile taken with them."""
    out: list[Action] = []
    back = TakeBack(len(o.melds[o.team]) - 1)
    history = o.history
    if history and isinstance(history[-1][1], TakeBack):
        return [back]  # once it has begun to take them back, it takes them all back
    if o.phase == "draw":
        for a in draw_options(o, ok):
            if isinstance(a, TakePile):
                out.append(a)
    else:
        out.append(GO_DOWN)
        plan = plan_opening(o, o.hand, o.minimum)
        if plan is not None:
            out.append(LayDown(tuple(tuple(m) for m in plan)))
        more = plan_opening(o, o.hand, 0)
        if more is not None:
            out.append(LayDown(tuple(tuple(m) for m in more)))
            for cards in more:
                out.append(LayMeld(tuple(cards)))
        melds = o.melds[o.team]
        for i in range(len(melds)):
            laid = melds[i]
            if laid.kind == RANK_MELD and laid.rank:
                nats = naturals_of(o.hand, laid.rank)
                if nats:
                    out.append(AddToMeld(i, tuple(nats)))
    out.append(back)
    return out


def choose_stack(o: Obs) -> int:
    if not o.stack_tops:
        return 0
    a, b = o.stack_tops[o.seat]

    def worth(c: Card) -> int:
        return 100 if WILD[c] else (-100 if 4 <= c < 8 else o.rules.card_value[c])

    return 0 if worth(a) >= worth(b) else 1


def answer_yes(o: Obs) -> bool:
    """A partner asks to go out: yes when our side gains by the hand ending now."""
    rules = o.rules
    mine = held_points(rules, o.hand) + 9 * o.foot_left
    bonus = rules.scores.going_out
    if o.stock_size <= 2 * rules.players.seats * max(rules.turn.draw, 1):
        return True
    lead = table_points(o, o.team) - max(
        table_points(o, t) for t in range(len(o.melds)) if t != o.team)
    return mine <= bonus + 150 or (lead > 0 and mine <= bonus + lead // 2)


#: what a 3 in the pile costs, in cards, whatever it counts held: a discard to shed it
#: (heavier weights, a red 3 costing its penalty as risk, lost in every preset but samba)
PILE_THREE: Final = 0.2


@mypyc_attr(allow_interpreted_subclasses=True)
class _PileFollowed:
    """The pile as the table saw it go down, followed along one hand's history as it
    grows: each discard put on it, the cards taken off it (:func:`seen_pile` reads its
    top instead of reading the history back at every decision)."""

    __slots__ = ("cards", "history", "last", "read")

    def __init__(self) -> None:
        #: the history followed (a list, which the engine only ever appends to), once it
        #: has been asked of twice running; how much of it is read, and the action last
        #: read (a check that it is still the same history; the action, not its entry:
        #: compiled, an entry is a pair unboxed, made anew each time it is boxed)
        self.history: list[tuple[int, Action]] | None = None
        self.read = -1  # -1: asked of once, not followed yet
        self.last: Action | None = None
        #: the cards seen going onto the pile and still on it, bottom first
        self.cards: list[Card] = []

    def follow(self, history: list[tuple[int, Action]]) -> list[Card] | None:
        """The cards seen on the pile after ``history``, or None where it is not
        followed (a history asked of for the first time, or not the one last asked of)."""
        read = self.read
        if self.history is not history or read > len(history) or (
                read > 0 and history[read - 1][1] is not self.last):
            self.history, self.read, self.last, self.cards = history, -1, None, []
            return None  # (another history each time, as a view's is: read back instead)
        cards = self.cards if read > 0 else []
        # Not followed while the cards are brought up to date: a player stopped here (by
        # the server's alarm, past its time) starts again at its next decision.
        self.history = None
        for i in range(read if read > 0 else 0, len(history)):
            a = history[i][1]
            kind = type(a)  # (by the exact class, as below)
            if kind is Discard:
                cards.append(cast(Discard, a).card)
            elif kind is TakePile:
                count = cast(TakePile, a).count
                if not count:
                    cards.clear()  # the whole pile went
                else:
                    del cards[max(len(cards) - count, 0):]
            elif kind is TakeUpcard and cards:
                cards.pop()
        self.cards, self.read = cards, len(history)
        self.last = history[-1][1] if history else None
        self.history = history
        return cards


#: each thread's own (its seats read the history of the hand it is playing)
_LOCAL: Final = threading.local()


def _followed() -> _PileFollowed:
    """This thread's :class:`_PileFollowed`."""
    followed = getattr(_LOCAL, "pile", None)
    if followed is None:
        followed = _LOCAL.pile = _PileFollowed()
    return cast(_PileFollowed, followed)


def seen_pile(o: Obs, n: int) -> list[Card | None]:
    """The pile's top ``n`` cards, bottom first, as the table saw them go down (None: a
    card not worked out): the discards since it was last taken, read back from the end of
    the history (the heuristic may not look through the pile, but remembers); where the
    same history is asked of again, followed forward as it grows (the same cards,
    tested)."""
    n = min(n, o.pile_size)
    followed = _followed().follow(o.history)
    if followed is not None:
        top = cast(list[Card | None], followed[max(len(followed) - n, 0):])
        if len(top) < n:
            unknown: list[Card | None] = [None] * (n - len(top))
            return unknown + top
        return top
    return _read_back(o.history, n)


def _read_back(history: list[tuple[int, Action]], n: int) -> list[Card | None]:
    """:func:`seen_pile` read back from the end of the history."""
    out: list[Card | None] = []
    skip = 0
    for i in range(len(history) - 1, -1, -1):
        if len(out) >= n:
            break
        a = history[i][1]
        # (by the exact class: an isinstance that fails looks the action's __class__ up
        # by name, and most of the history is draws; the actions have no subclasses)
        kind = type(a)
        if kind is Discard:
            if skip:
                skip -= 1
            else:
                out.append(cast(Discard, a).card)
        elif kind is TakePile:
            count = cast(TakePile, a).count
            if not count:
                break  # the whole pile, or as many as the rules said: what stayed is not read
            skip += count  # the top cards went; the ones beneath stayed
        elif kind is TakeUpcard:
            skip += 1
    out.extend([None] * (n - len(out)))
    out.reverse()
    return out


def pile_worth(o: Obs) -> float:
    """What taking the whole pile is worth, in cards, as the table has seen it: a wild
    or a natural the team's melds or the hand can use counts one, another natural a
    little, and a 3 that counts against its holder costs a discard to shed it and the
    risk of being caught with it."""
    hand = o.hand
    st = o.settings  # (compiled: the rule set's fields and a range's are read by name)
    size = st.book_size
    # (the ranks of the team's open melds as bits, and a rank held counted, in machine
    # integers: compiled, a set was made and asked, and each sum a call)
    open_ranks: i64 = 0
    for m in o.melds[o.team]:
        if m.kind == RANK_MELD and m.size < size:
            open_ranks |= i64(1) << m.rank
    worth = 0.0
    first, stop = st.take_span(o.rules, o.pile_size)
    for c in seen_pile(o, stop - 1 if stop > first else 0):
        if c is None:
            worth += 0.3
        elif WILD[c]:
            worth += 1.0
        elif 4 <= c < 8:
            worth -= PILE_THREE
        else:
            rank: i64 = RANK[c]
            have = rank_held(hand, rank)
            worth += 1.0 if (open_ranks >> rank) & 1 or have >= 2 else (0.6 if have else 0.1)
    return worth


def draw_options(o: Obs, ok: Ok) -> list[Action]:
    out: list[Action] = []
    rules = o.rules
    st = o.settings  # (compiled fields: the rule set's are read by name)
    top = o.pile_top
    late = o.stock_size <= st.seats * st.draw and o.in_foot
    shows: list[tuple[Card, ...]] = []
    if top is not None and NATURAL[top] and not late:
        rank = RANK[top]
        nats = naturals_of(o.hand, rank)
        # Only the ways and counts the rules allow (the engine would refuse the others).
        if len(nats) >= 2 and st.show_pair:
            shows.append(tuple(nats[:2]))
        if nats and o.pile_size >= 4 and st.show_natural_and_wild and _holds_wilds(o.hand):
            shows.append((nats[0], wilds_of(o.hand)[0]))
        if st.show_meld_on_board:
            shows.append(())
    # What the pile is worth is asked only where it could be taken (with no way to show,
    # most draws: it read the pile's cards, a twentieth of a hand).
    if shows and (o.pile_size < 3 or pile_worth(o) >= 0):
        assert top is not None
        rank = RANK[top]
        # the whole pile, then as many as the rules say (0); only 0 where the whole
        # pile may not be taken
        first, stop = st.take_span(rules, o.pile_size)
        counts = [o.pile_size, 0] if o.pile_size and first <= o.pile_size < stop else [0]
        opened = o.opened[o.team]
        for shown in shows:
            for count in counts:
                if opened:
                    out.append(TakePile(shown, count))
                elif st.pile_before_opening != "never":
                    rest = o.hand[:]
                    for c in shown:
                        rest[c] = rest[c] - 1
                    value = rules.card_value[top] + sum(rules.card_value[c] for c in shown)
                    clean = 1 if not any(WILD[c] for c in shown) else 0
                    plan = plan_opening(o, rest, o.minimum - value, skip_rank=rank,
                                        have_clean=clean, have_dirty=1 - clean)
                    if plan is not None:
                        out.append(TakePile(shown, count, tuple(tuple(m) for m in plan)))
                    out.append(TakePile(shown, count))
    if (top is not None and not late and (WILD[top] or o.hand[top] or NATURAL[top])
            and st.upcard):
        out.append(TAKE_UPCARD)
    out.append(DRAW)
    return out


def plan_opening(o: Obs, hand: list[int], minimum: int, skip_rank: int = 0,
                 have_clean: int = 0, have_dirty: int = 0) -> list[list[Card]] | None:
    """Melds to open with: clean ones first, then pairs with a wild and wilds on clean
    melds while the value or the clean/dirty melds the opening needs fall short."""
    rules = o.rules
    mr = o.settings  # (compiled fields; the rule set's parts are read by name)
    values = rules.card_value
    melds: list[list[Card]] = []
    pairs: list[list[Card]] = []
    least = max(mr.min_size, mr.min_naturals)
    pair_least = max(mr.min_naturals, 2)
    for rank in range(4, 15):
        if rank == skip_rank:
            continue
        # (counted first: the cards listed only of a rank held twice or more)
        if rank_held(hand, rank) < 2:
            continue
        nats = naturals_of(hand, rank)
        if len(nats) >= least:
            melds.append(nats[:mr.book_size] if len(nats) > mr.book_size else nats)
        elif len(nats) >= pair_least:
            pairs.append(nats)
    wilds = wilds_of(hand)
    value = sum(values[c] for m in melds for c in m)
    clean = len(melds) + have_clean
    dirty = have_dirty
    need_clean, need_dirty = rules.opening.clean_melds, rules.opening.dirty_melds
    if clean < need_clean:
        return None
    pairs.sort(key=lambda m: -sum(values[c] for c in m))
    for nats in pairs:
        if value >= minimum and dirty >= need_dirty:
            break
        if not wilds:
            break
        w = wilds.pop()  # jokers first here: they carry the most points
        melds.append([*nats, w])
        value += values[w] + sum(values[c] for c in nats)
        dirty += 1
    # Wilds on clean melds (keeping the clean ones the opening must hold).
    spare_clean = clean - need_clean
    i = 0
    while (value < minimum or dirty < need_dirty) and wilds and i < len(melds):
        m = melds[i]
        i += 1
        if any(WILD[c] for c in m):
            continue
        if spare_clean <= 0:
            continue
        nat = len(m)
        k = 0
        while wilds and k < most_wilds(nat, mr.max_wilds, mr.naturals_exceed_wilds) \
                and (value < minimum or dirty < need_dirty) and len(m) < mr.book_size:
            w = wilds.pop()
            m.append(w)
            value += values[w]
            k += 1
        if k:
            spare_clean -= 1
            dirty += 1
    if mr.sequences and value < minimum:
        used = [0] * NUM_CARDS
        for m in melds:
            for c in m:
                used[c] = used[c] + 1
        rest = [hand[c] - used[c] for c in range(NUM_CARDS)]
        for suit in range(4):
            for run in _runs(rest, suit):
                if len(run) >= mr.min_size:
                    run = run[:mr.book_size]
                    melds.append(run)
                    value += sum(values[c] for c in run)
    if value < minimum or dirty < need_dirty or not melds:
        return None
    return melds


def play_options(o: Obs, ok: Ok) -> Iterator[Action]:
    """Wishes for the play phase, best first (one action each time; the player is
    asked again after each)."""
    mr = o.settings  # (compiled fields; the rule set's parts are read by name)
    hand = o.hand
    team = o.team
    if not o.opened[team]:
        plan = plan_opening(o, hand, o.minimum)
        if plan is not None:
            yield (LayDown(tuple(tuple(m) for m in plan)))
            if len(plan) > 1:
                # In the foot the last cards may have to stay: try without the smallest.
                smaller = sorted(plan, key=len)[1:]
                yield (LayDown(tuple(tuple(m) for m in smaller)))
    else:
        size = mr.book_size
        melds = o.melds[team]
        wilds = wilds_of(hand) if _holds_wilds(hand) else _NO_CARDS
        # 1. Naturals onto the team's melds of their rank (open ones first, then books), and
        # the sequences and the wild-card meld extended: only melds something held can go on.
        order = _add_order(o.held_bits, melds, size, bool(wilds))
        # Naturals enough for a new meld of a rank whose book is finished make a second
        # book rather than burn on the first (where the rules let a new meld of it start).
        open_ranks: set[int] | None = None
        later = _NO_WISHES  # (a list of its own once one is put off)
        for i in order:
            m = melds[i]
            # (each field read where it is used: compiled, a meld's field is read directly,
            # where a generator's own variable is kept in an object of its own)
            kind = m.kind
            m_size = m.size
            if kind == RANK_MELD:
                m_rank = m.rank
                nats = naturals_of(hand, m_rank)
                burn = False
                if m_size >= size and len(nats) >= mr.min_size:
                    if open_ranks is None:
                        open_ranks = {x.rank for x in melds
                                      if x.kind == RANK_MELD and x.size < size}
                    burn = m_rank not in open_ranks
                for k in range(len(nats), 0, -1):
                    # (all of them without a slice: the first, usually the one played)
                    add = AddToMeld(i, tuple(nats) if k == len(nats) else tuple(nats[:k]))
                    if burn:
                        if later is _NO_WISHES:
                            later = []
                        later.append(add)
                    else:
                        yield add
            elif kind == SEQUENCE and m_size < size:
                for c in _sequence_extension(hand, m, size):
                    yield (AddToMeld(i, (c,)))
            elif kind == WILD_MELD and m_size < size and wilds:
                k = min(len(wilds), size - m_size)
                yield (AddToMeld(i, tuple(wilds[:k])))
                if k > 1:
                    yield (AddToMeld(i, (wilds[0],)))
        # 2. New clean melds.
        # (each list gone through by a loop: compiled, ``yield from`` a list made an
        # iterator and sent into it for each item)
        for a in _new_clean_melds(hand, mr, o.held_bits):
            yield a
        for a in later:
            yield a
        # 3. Sequences.
        if mr.sequences:
            for a in _new_sequences(hand, mr):
                yield a
        # 4. A wild-card meld.
        clean_b, dirty_b, wild_b, _ = o.books
        if mr.wild_melds and len(wilds) >= mr.min_size and (
                wild_b < mr.out_wild_books or len(wilds) >= mr.min_size + 1):
            yield LayMeld(tuple(wilds[:size]))
        # 5. Wilds on melds not needed as clean books.
        if wilds:
            for a in _wild_adds(o, melds, wilds, clean_b, dirty_b):
                yield a
    for a in going_out_options(o):
        yield a
    # The discards, the best first (as :func:`discard_options`, here without a second
    # generator: compiled, one made, driven and freed at each discard cost more).
    ranks = _rank_penalties(o)
    best = _best_discard(o, ranks)
    if best >= 0:
        yield DISCARDS[best]
        for a in _discards_left(o, ranks, best):
            yield a


def _new_clean_melds(hand: list[int], mr: Settings, bits: i64) -> list[Action]:
    """New clean melds of the ranks held enough: each of as many naturals as a book
    takes, then of as few as a meld takes (a plain function, its list made only where
    there is one: see :func:`_add_order`)."""
    out = _NO_WISHES
    size = mr.book_size
    least: i64 = mr.min_size
    for rank in range(4, 15):
        # (a rank not held passed over by its bits, without its counts read)
        if not (bits >> ((rank - 2) * 4)) & 15 or rank_held(hand, rank) < least:
            continue
        nats = naturals_of(hand, rank)
        if out is _NO_WISHES:
            out = []
        out.append(LayMeld(tuple(nats[:size])))
        if len(nats) > least:
            out.append(LayMeld(tuple(nats[:least])))
    return out


def _new_sequences(hand: list[int], mr: Settings) -> list[Action]:
    """New sequences: each run held long enough, up to a book's length."""
    out: list[Action] = []
    for suit in range(4):
        for run in _runs(hand, suit):
            if len(run) >= mr.min_size:
                out.append(LayMeld(tuple(run[:mr.book_size])))
    return out


def _add_order(bits: i64, melds: list[MeldLike], size: int, wilds: bool) -> list[int]:
    """The team's melds something held may go on, in the order the heuristic tries them:
    the rank melds of a rank held, the sequences and the wild-card melds (with wilds
    held) not finished, each in the order laid, then the books of a rank held. (A plain
    function, not in the generator: compiled, each of a generator's variables is kept
    in an object of its own, and pairs made and sorted cost more again. Each list is
    made only once something is put in it: most often there is nothing. Whether a rank
    is held is read from the hand's bits, ``bits``: :attr:`Obs.held_bits`.)"""
    order = _NO_INDEXES
    books = _NO_INDEXES
    base: i64
    for i, m in enumerate(melds):
        # (each field read where it is used: compiled, a field of either kind of meld is
        # read directly, cheaper than a call returning the three)
        kind = m.kind
        if kind == RANK_MELD:
            base = (m.rank - 2) * 4
            if (bits >> base) & 15:
                if m.size >= size:
                    if books is _NO_INDEXES:
                        books = []
                    books.append(i)
                else:
                    if order is _NO_INDEXES:
                        order = []
                    order.append(i)
        elif m.size < size and (kind == SEQUENCE or wilds):
            if order is _NO_INDEXES:
                order = []
            order.append(i)
    if order is _NO_INDEXES:
        return books
    for i in books:
        order.append(i)
    return order


def _sequence_extension(hand: list[int], m: MeldLike, size: int) -> list[Card]:
    out = []
    if m.low > 4:
        c = (m.low - 3) * 4 + m.suit
        if hand[c]:
            out.append(c)
    if m.high < 14:
        c = (m.high - 1) * 4 + m.suit
        if hand[c]:
            out.append(c)
    return out


def _wild_adds(o: Obs, melds: list[MeldLike], wilds: list[Card], clean_b: int,
               dirty_b: int) -> list[Action]:
    mr = o.settings  # (compiled fields; the rule set's parts are read by name)
    size = mr.book_size
    out: list[Action] = []
    clean_needed = max(mr.out_clean_books - clean_b, 0)
    dirty_needed = max(mr.out_dirty_books - dirty_b, 0)
    open_rank = [i for i, m in enumerate(melds) if m.kind == RANK_MELD and m.size < size]
    # the largest clean ones, as many as clean books are still needed (ties: the first
    # laid), each picked in a pass (compiled: pairs made, sorted through Python's
    # comparisons and put in a set cost more for the one to three kept; those kept are
    # the bits of a number, bit i for meld i, where a list was searched through Python)
    keep_clean = 0
    for _ in range(clean_needed):
        pick = -1
        pick_size = -1
        for i in open_rank:
            m = melds[i]
            if m.wilds == 0 and m.size > pick_size and not (keep_clean >> i) & 1:
                pick, pick_size = i, m.size
        if pick < 0:
            break
        keep_clean |= 1 << pick
    heavy = len(wilds) >= 2 or o.in_foot or dirty_needed > 0
    # Each meld's wilds, by (what they do, the meld's size from the largest, its
    # place): a book completed, then a dirty meld grown, then a clean one of four or
    # more made dirty; each one number, sorted (compiled, pairs of four were made and
    # compared through Python). The number of wilds is the last part (at most a book's
    # size), which no two melds share a key without.
    scored: list[int] = []
    held_wilds: i64 = len(wilds)
    max_wilds: i64 = mr.max_wilds
    exceed: bool = mr.naturals_exceed_wilds
    book: i64 = size
    for i in open_rank:
        if (keep_clean >> i) & 1:
            continue
        m = melds[i]
        m_wilds: i64 = m.wilds
        m_size: i64 = m.size
        room: i64 = most_wilds(m.naturals, max_wilds, exceed) - m_wilds
        need: i64 = book - m_size
        if room <= 0:
            continue
        what: i64
        k: i64 = 1
        if need <= room and need <= held_wilds:
            what, k = 0, need  # completes a book
        elif m_wilds and heavy:
            what = 1
        elif heavy and m_size >= 4:
            what = 2
        else:
            continue
        scored.append(int((((what << 16) | (0xFFFF - m_size)) << 32) | (i << 8) | k))
    scored.sort()
    for key in scored:
        out.append(AddToMeld((key >> 8) & 0xFFFFFF, tuple(wilds[:key & 0xFF])))
    # A pair with a wild, once dirty books are needed or wilds are plenty, while the
    # clean books still needed have clean melds growing toward them (a pair laid dirty
    # can no longer become one).
    if heavy and _clean_rank_melds(melds) >= clean_needed:
        hand = o.hand
        bits = o.held_bits  # (a rank not held passed over by its bits, its counts unread)
        for rank in range(14, 3, -1):
            if not (bits >> ((rank - 2) * 4)) & 15 or rank_held(hand, rank) != 2:
                continue
            nats = naturals_of(o.hand, rank)
            if len(nats) == 2:
                out.append(LayMeld((*nats, wilds[0])))
    return out


def _clean_rank_melds(melds: list[MeldLike]) -> int:
    """How many of the team's rank melds hold no wild card."""
    n = 0
    for m in melds:
        if m.kind == RANK_MELD and m.wilds == 0:
            n += 1
    return n


def going_out_options(o: Obs) -> tuple[Action, ...]:
    """Asking to go out, and ending the turn without a discard, where the heuristic
    would (a tuple: usually none, and no list made and freed for it)."""
    st = o.settings  # (compiled fields: the rule set's are read by name)
    ask = st.permission and o.in_foot and o.permission is None and o.hand_len <= 2
    # Ending a turn without a discard: only after taking the upcard where the rules allow
    # it, or for a player in the foot left stuck with a card it may not throw.
    end = st.upcard_rule == "take-no-discard" or (o.in_foot and o.hand_len <= 1)
    if ask:
        return (ASK, END_TURN) if end else (ASK,)
    return (END_TURN,) if end else ()


def discard_score(o: Obs, c: Card, ranks: list[int] | None = None) -> float:
    """How willingly the heuristic throws ``c`` (higher: sooner)."""
    penalties = ranks if ranks is not None else _rank_penalties(o)
    return 0.5 * float(_twice_discard_score(o, c, penalties))


def _twice_discard_score(o: Obs, c: Card, penalties: list[int]) -> i64:
    """Twice :func:`discard_score`: a whole number (the score is whole or half)."""
    st = o.settings  # (compiled fields: the rule set's are read by name)
    if 4 <= c < 8:
        return 2 * (2000 - st.held_value[c])  # 3s: the costliest to hold go first
    if WILD[c]:
        return 2 * (-1000 - st.card_value[c])
    rank = RANK[c]
    return st.card_value[c] + 2 * _rank_part(o, rank, rank_held(o.hand, rank), penalties)


def _rank_part(o: Obs, rank: int, have: i64, penalties: list[int]) -> i64:
    """The part of :func:`discard_score` that is the same for every card of a rank held
    (``have`` of them): keep pairs, the team's melds, the next team's melds, what the
    next player is known to hold (all whole numbers)."""
    part: i64 = -120 * (have - 1) - penalties[rank]
    k = rank_held(o.known_next, rank)
    if k:
        part -= 200 if k >= 2 else 70 * k
    return part


def _rank_penalties(o: Obs) -> list[int]:
    """Per rank (a list by rank number): what discarding it costs because of the team's
    own melds (250 for an unfinished one, 60 for a book), and because the next player's
    team has an unfinished meld of it (150). (A list, not dicts: each entry was a float
    hashed in and looked up; whole numbers, not floats, each of which was made anew.)"""
    size = o.settings.book_size
    # (written out: compiled, a list repeated went through Python's generic operation)
    penalties = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    for m in o.melds[o.team]:
        if m.kind == RANK_MELD:
            rank = m.rank
            penalties[rank] = penalties[rank] + (250 if m.size < size else 60)
    n = len(o.melds)
    if n > 1:
        for m in o.melds[(o.team + 1) % n]:
            if m.kind == RANK_MELD and m.size < size:
                rank = m.rank
                penalties[rank] = penalties[rank] + 150
    return penalties


def discard_options(o: Obs) -> Iterator[Action]:
    """Every card held, the most willingly thrown first (ties: the lower card)."""
    ranks = _rank_penalties(o)
    # The best first, found in one pass in whole numbers (twice the score), with the
    # rank's part worked out once per rank: usually the one played, so the rest are
    # ranked only if the engine refuses it. (Compiled: a dict of float scores and max()
    # with a key, called through Python for every card, were a tenth of a hand.)
    best = _best_discard(o, ranks)
    if best < 0:
        return
    yield DISCARDS[best]
    yield from _discards_left(o, ranks, best)


def _discards_left(o: Obs, ranks: list[int], best: i64) -> list[Action]:
    """Every card held but ``best``, the most willingly thrown first (ties: the lower)."""
    rest = [(-_twice_discard_score(o, c, ranks), c) for c in range(NUM_CARDS)
            if o.hand[c] and c != best]
    rest.sort()
    return [DISCARDS[c] for _, c in rest]


def _best_discard(o: Obs, ranks: list[int]) -> i64:
    """The card held the heuristic most willingly throws (the lowest of the best), or
    -1 when nothing is held."""
    hand = o.hand
    bits = o.held_bits  # (which cards are held: the counts read only of those)
    value = o.settings.card_value  # (compiled fields: the rule set's are read by name)
    best: i64 = -1
    best_score: i64 = 0
    score: i64
    c: i64
    for c in range(8):  # the 2s, then the 3s
        if (bits >> c) & 1:
            score = _twice_discard_score(o, c, ranks)
            if best < 0 or score > best_score:
                best, best_score = c, score
    h: i64
    for rank in range(4, 15):
        # (the rank's counts read once, for the part and the cards held; a rank not
        # held passed over by its bits)
        base: i64 = (rank - 2) * 4
        nib: i64 = (bits >> base) & 15
        if not nib:
            continue
        h0: i64 = hand[base] if nib & 1 else 0
        h1: i64 = hand[base + 1] if nib & 2 else 0
        h2: i64 = hand[base + 2] if nib & 4 else 0
        h3: i64 = hand[base + 3] if nib & 8 else 0
        part: i64 = 2 * _rank_part(o, rank, h0 + h1 + h2 + h3, ranks)
        for k in range(4):
            h = h0 if k == 0 else h1 if k == 1 else h2 if k == 2 else h3
            if h:
                c = base + k
                score = value[c] + part
                if best < 0 or score > best_score:
                    best, best_score = c, score
    if (bits >> JOKER) & 1:
        score = _twice_discard_score(o, JOKER, ranks)
        if best < 0 or score > best_score:
            best = JOKER
    return best


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class HeuristicBot:
    """The rule-based player (``medium`` in the user interface)."""

    name = "heuristic"
    #: it reads the seat's state carried by the legal actions when they carry it (the
    #: same knowledge as the view, without building one), and the view otherwise
    uses_view = False
    #: (said, not left to reads_state's default: a compiled class without the attribute
    #: raised and caught an AttributeError at every decision, 3 % of a hand)
    reads_state = True

    def __init__(self, seed: int = 0) -> None:
        # (no generator: its choices are all worked out, and seeding one it never drew
        # from took some 36,000 machine instructions a player, 2 % of a hand)
        self.seed = seed

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        state = legal.seat_state if isinstance(legal, LegalActions) else None
        if state is not None:
            o = obs_from_hand(state, state.actor)
        elif view is not None:
            o = obs_from_view(view, rules_of(view, legal))
        else:
            raise ValueError("the heuristic needs the seat's view or the seat's state")
        return decide(o, legal.__contains__, legal)

    def choose_in(self, hand: Hand, into: Obs | None = None) -> Action:
        """The choice of the player to act in ``hand``, the game's own state, for the
        arena (:func:`handfoot.arena.play`): without the seat copy and the legal actions
        made and freed at each decision (a seventh of a hand). The heuristic still
        decides only from what that seat may see: :func:`obs_from_hand` reads the seat's
        own cards and what the whole table knows, the same from the state as from its
        seat copy (tested at every decision of whole games), and each wish is asked of
        the engine (:meth:`Hand.is_legal`), whose answers about a player's own moves do
        not depend on cards that player cannot see. The action returned was accepted by
        the engine in this very state, or is one of its listed moves. ``into``: a
        reading to overwrite (:func:`obs_from_hand`), which the caller no longer reads.
        """
        o = obs_from_hand(hand, hand.actor, into)
        # (the engine asked directly: compiled, a bound method made at each decision and
        # called through Python's generic call cost a twentieth of a hand; the wishes
        # never call their ``ok``)
        for action in wishes(o, _ASK_ENGINE):
            if hand.is_legal(action):
                return action
        return fallback(o, hand.legal_actions())


def _ask_engine(action: Action) -> bool:  # pragma: no cover - never called
    """The ``ok`` given to :func:`wishes` by :meth:`HeuristicBot.choose_in`, which asks
    the engine itself of each wish."""
    raise AssertionError("the heuristic's wishes do not ask their ok")


#: :func:`_ask_engine`, as a value (compiled, a function named as a value is looked up in
#: the module's dict at every use: some 140 machine instructions a decision)
_ASK_ENGINE: Final[Ok] = _ask_engine


def rules_of(view: View, legal: Sequence[Action]) -> Rules:
    """The rule set being played: carried by the legal actions, or the named preset."""
    rules = getattr(legal, "rules", None)
    if isinstance(rules, Rules):
        return rules
    return preset(view.rules)
