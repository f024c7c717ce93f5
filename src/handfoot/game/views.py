"""What one seat may see, and what a spectator may see.

A view is built from the state and holds plain values only: the seat's own hand,
its foot only once picked up (as part of the hand), how many cards everyone else
holds, all melds and books, the pile's top card and size, the stock's size, and
the public history. Nothing else is reachable from a view: no other hand, no
foot, no stock order, no pile below its top.

>>> from handfoot.game import Game
>>> from handfoot.rules import preset
>>> game = Game(preset("classic"), seed=3)
>>> view = seat_view(game, 1)
>>> len(view.hand), view.players[0].hand_count, view.stock_size
(11, 11, 182)
>>> public_view(game).hand
()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple, cast

from mypy_extensions import mypyc_attr

from handfoot.actions import Action, action_to_json
from handfoot.cards import NO_CARDS, Card, card_code, format_card, sort_cards, sorted_from_counts
from handfoot.engine import RANK_MELD, SEQUENCE, WILD_MELD, Hand, Phase
from handfoot.game import Game
from handfoot.game.scoring import book_kind

KIND_NAMES = {RANK_MELD: "rank", SEQUENCE: "sequence", WILD_MELD: "wild"}


# The parts of a view are named tuples: immutable (they are shared between views while
# what they show stays the same) and cheap to make.


class PlayerView(NamedTuple):
    seat: int
    team: int
    hand_count: int
    foot_count: int  #: 0 once the foot is picked up
    in_foot: bool
    foot_turns: int  #: turns played from the foot
    known: tuple[Card, ...]  #: cards the whole table saw go into this hand (from the pile)


@mypyc_attr(native_class=False)  # frozen: pickled and copied as a Python class
@dataclass(frozen=True, slots=True)
class MeldView:  # a dataclass: a named tuple may not have a field called "index"
    index: int
    kind: str  #: "rank", "sequence" or "wild"
    label: str  #: "Queens", "♥ sequence", "wild cards"
    cards: tuple[Card, ...]
    naturals: int
    wilds: int
    complete: bool
    book: str | None  #: "clean", "dirty", "wild", "sequence", "red-sevens" once complete
    needs: int  #: cards still needed to complete the book
    #: the complete book in the rule set's words: "red canasta", "dirty book", "samba"
    book_name: str | None = None


#: a meld's fields, looked up once (a view is written as JSON for every push; asdict,
#: which copies each value deeply, was half of that time)
_MELD_FIELDS = tuple(f.name for f in fields(MeldView))


#: each meld's JSON, by the meld's view (kept while the meld is unchanged: every view
#: of every push writes all the melds on the table)
_MELD_JSON: dict[int, tuple[MeldView, dict[str, Any]]] = {}


def team_json(t: TeamView) -> dict[str, Any]:
    """A team's part of the table as JSON: the same for every viewer."""
    return {**dict(zip(_TEAM_FIELDS, t, strict=True)),
            "red_threes": [card_code(c) for c in t.red_threes],
            "melds": tuple(meld_json(m) for m in t.melds)}


def meld_json(m: MeldView) -> dict[str, Any]:
    """The meld as JSON, written once for each :class:`MeldView` (shared: read only)."""
    cached = _MELD_JSON.get(id(m))
    if cached is not None and cached[0] is m:
        return cached[1]
    data = {**{f: getattr(m, f) for f in _MELD_FIELDS},
            "cards": [card_code(c) for c in m.cards]}
    if len(_MELD_JSON) >= 4096:
        _MELD_JSON.clear()
    _MELD_JSON[id(m)] = (m, data)
    return data


#: actions written as JSON before (every push carries the hand's actions so far)
_ACTION_JSON: dict[Action, dict[str, Any]] = {}


def _action_json(action: Action) -> dict[str, Any]:
    """``action_to_json``, remembered (the caller copies it)."""
    try:
        found = _ACTION_JSON.get(action)
    except TypeError:  # not hashable: written each time
        return action_to_json(action)
    if found is None:
        if len(_ACTION_JSON) >= 100_000:
            _ACTION_JSON.clear()
        found = _ACTION_JSON[action] = action_to_json(action)
    return found


class TeamView(NamedTuple):
    team: int
    seats: tuple[int, ...]
    opened: bool
    minimum: int  #: the points this team needs to open in this hand
    melds: tuple[MeldView, ...]
    red_threes: tuple[Card, ...]
    books_to_go_out: str | None  #: what the team still needs in books to go out
    total: int  #: the running score before this hand
    #: before the team has gone down: what the melds laid out for its opening are worth
    laid_out_points: int = 0
    #: melds laid out short of the opening, where taking them back costs a penalty
    #: (``opening.short_penalty``): the warning, in words; else None
    short_warning: str | None = None


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
@dataclass(slots=True)
class View:
    """Everything one seat (or, with ``seat`` None, a spectator) may see.

    A fresh snapshot each time one is asked for (changing it changes nothing else);
    its parts that do not change (players, teams, melds) are frozen and shared between
    views while the state they show stays the same.
    """

    rules: str
    seat: int | None
    hand_number: int
    hands_in_game: int
    phase: str  #: "choose", "draw", "play", "ask", "over"
    turn: int  #: whose turn it is
    actor: int  #: who must act now (the partner, when asked to go out)
    #: this seat's cards (its foot once picked up) as how many of each card it holds,
    #: indexed by card (see :attr:`hand` for the cards sorted by rank)
    hand_counts: tuple[int, ...]
    players: tuple[PlayerView, ...]
    teams: tuple[TeamView, ...]
    pile_top: Card | None
    pile_size: int
    pile_frozen: str | None  #: why the pile cannot be taken by the player to act, or None
    pile_has_wild: bool
    stock_size: int
    stack_tops: tuple[tuple[Card, Card], ...]  #: face-up tops while hands are chosen
    asked_to_go_out: bool
    permission: bool | None
    history: tuple[tuple[int, Action], ...]  #: this hand's actions (all of them are public)
    hand_scores: tuple[tuple[int, ...], ...]  #: each finished hand's score per team
    totals: tuple[int, ...]
    game_over: bool
    winners: tuple[int, ...]

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's cards, sorted by rank (none for a spectator)."""
        return tuple(sorted_from_counts(self.hand_counts))

    def to_json(self, history: bool = True, teams: object = None) -> dict[str, Any]:
        """Plain JSON, cards in the record notation (``QH``, ``JK``); without the hand's
        actions (``history``) where ``history`` is false: the server's pushes leave them
        out (a few hundred by the end of a long hand, sent again with every move) and
        carry the move log instead. ``teams``, if given, is put where the teams would
        be written (the server writes the teams, the same for every viewer, once)."""
        data: dict[str, Any] = {}
        for name in _VIEW_FIELDS:  # (dataclasses.fields() each time was a tenth of it)
            if name == "hand_counts":
                data["hand"] = hand_codes(self.hand_counts)
            else:
                data[name] = getattr(self, name)
        data["players"] = tuple({**dict(zip(_PLAYER_FIELDS, p, strict=True)),
                                 "known": [card_code(c) for c in p.known]}
                                for p in self.players)
        data["teams"] = tuple(team_json(t) for t in self.teams) if teams is None else teams
        data["pile_top"] = None if self.pile_top is None else card_code(self.pile_top)
        data["stack_tops"] = [[card_code(a), card_code(b)] for a, b in self.stack_tops]
        if history:
            data["history"] = [{"seat": s, **_action_json(a)} for s, a in self.history]
        else:
            del data["history"]
        return data

    def describe_pile(self) -> str:
        if self.pile_top is None:
            return "empty"
        text = f"{format_card(self.pile_top)} on top, {self.pile_size} cards"
        return text + (" (frozen)" if self.pile_frozen else "")


#: the fields of a view and of its parts, looked up once
_VIEW_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(View))
_PLAYER_FIELDS: tuple[str, ...] = PlayerView._fields
_TEAM_FIELDS: tuple[str, ...] = TeamView._fields


_PHASES = {Phase.CHOOSE: "choose", Phase.DRAW: "draw", Phase.PLAY: "play",
           Phase.ASK: "ask", Phase.OVER: "over"}


def _meld_views(hand: Hand, team: int) -> tuple[MeldView, ...]:
    size = hand.rules.meld.book_size
    out = []
    for i, m in enumerate(hand.melds[team]):
        cached = m.view  # a meld only grows, so its length says whether it changed
        if cached is not None and cached[0] == len(m.cards) and cached[1] == i:
            out.append(cast(MeldView, cached[2]))
            continue
        complete = len(m.cards) >= size
        book = book_kind(hand.rules, m.kind, m.cards)
        view = MeldView(  # index, kind, label, cards, naturals, wilds, complete, book, needs
            i, KIND_NAMES[m.kind], m.describe(), tuple(sort_cards(m.cards)), m.naturals,
            m.wilds, complete, book, max(size - len(m.cards), 0),
            hand.rules.words.name(book) if book else None)
        m.view = (len(m.cards), i, view)
        out.append(view)
    return tuple(out)


def _player_views(hand: Hand) -> tuple[PlayerView, ...]:
    if hand.phase == Phase.CHOOSE:
        return tuple([_player_view(hand, s) for s in range(hand.seats)])
    # A player's view is made of counts and flags only (a foot changes only when it is
    # picked up, which ``in_foot`` says), and of the cards seen going into the hand,
    # which ``known_version`` says whether they changed: a seat's view is kept until
    # one of them changes (between two steps, usually only the player who acted).
    last = cast(tuple[PlayerView, ...] | None, hand.player_views)
    if last is None or hand.player_views_known != hand.known_version:
        players = tuple([_player_view(hand, s) for s in range(hand.seats)])
    else:
        hand_len, in_foot, foot_turns = hand.hand_len, hand.in_foot, hand.foot_turns
        out = None
        for s, view in enumerate(last):
            if (view.hand_count != hand_len[s] or view.in_foot != in_foot[s]
                    or view.foot_turns != foot_turns[s]):
                if out is None:
                    out = list(last)
                # No card seen going into a hand changed: the seen cards stay.
                out[s] = PlayerView(s, view.team, hand_len[s], hand.foot_size(s), in_foot[s],
                                    foot_turns[s], view.known)
        if out is None:
            return last
        players = tuple(out)
    hand.player_views = players
    hand.player_views_known = hand.known_version
    return players


def _player_view(hand: Hand, s: int) -> PlayerView:
    hand_count, foot_count = hand.card_counts(s)
    known = hand.known[s]
    return PlayerView(
        s, hand.team_of[s], hand_count, foot_count, hand.in_foot[s], hand.foot_turns[s],
        tuple(sorted_from_counts(known)) if any(known) else ())


def _team_view(hand: Hand, team: int) -> TeamView:
    # The engine bumps the team's table version whenever its part of the table changes.
    stamp = hand.table_version[team]
    cached = hand.team_views[team]
    if cached is not None and cached[0] == stamp:
        return cast(TeamView, cached[1])
    values = hand.rules.card_value
    laid_out = 0 if hand.opened[team] else sum(
        values[c] for m in hand.melds[team] for c in m.cards)
    view = TeamView(  # team, seats, opened, minimum, melds, red_threes, books_to_go_out,
        # total, laid_out_points, short_warning
        team, tuple(hand.team_seats(team)), hand.opened[team], hand.minimums[team],
        _meld_views(hand, team), tuple(hand.red_threes[team]), hand.books_missing(team),
        hand.team_scores[team], laid_out, hand.short_warning(team))
    hand.team_views[team] = (stamp, view)
    return view


def _view(game: Game, seat: int | None) -> View:
    hand = game.hand
    rules = game.rules
    phase = hand.phase
    teams = tuple([_team_view(hand, t) for t in range(hand.teams)])
    own = NO_CARDS if seat is None else tuple(hand.hands[seat])
    tops: tuple[tuple[Card, Card], ...] = ()
    if phase == Phase.CHOOSE:
        tops = tuple((a[0], b[0]) for a, b in hand.stacks)
    frozen = None
    pile = hand.pile
    if pile and (phase == Phase.DRAW or phase == Phase.PLAY):
        frozen = hand.pile_blocker(hand.actor)
        if frozen is None and hand.pile_wilds and rules.pile.wild_freezes_until_taken:
            frozen = "frozen by a wild card: only a natural pair takes it"
    # Positional: a call with two dozen keywords costs several times as much.
    return View(
        rules.name, seat, hand.hand_number, rules.game.hands, _PHASES[phase], hand.seat,
        hand.actor, own, _player_views(hand), teams, pile[-1] if pile else None, len(pile),
        frozen, hand.pile_wilds > 0, len(hand.stock), tops, phase == Phase.ASK,
        hand.permission, tuple(hand.history), game.hand_scores(), tuple(game.totals),
        game.over, tuple(game.winners))


def check_seat(game: Game, seat: int) -> None:
    """Raise ValueError if the game has no seat ``seat``."""
    if not 0 <= seat < game.rules.players.seats:
        raise ValueError(f"there is no seat {seat}")


def hand_codes(counts: Sequence[int]) -> list[str]:
    """A hand held as how many of each card (a view's ``hand_counts``), as the cards'
    codes sorted by rank: how a view writes its hand as JSON."""
    return [card_code(c) for c in sorted_from_counts(counts)]


def seat_view(game: Game, seat: int) -> View:
    """What ``seat`` may see."""
    check_seat(game, seat)
    return _view(game, seat)


def public_view(game: Game) -> View:
    """What a spectator may see: no hand at all."""
    return _view(game, None)


def team_views(hand: Hand) -> tuple[TeamView, ...]:
    """Each team's part of the table in ``hand`` (all of it is public): the melds a
    finished hand ended with, for the people to look at before the next one."""
    return tuple([_team_view(hand, t) for t in range(hand.teams)])
