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

from dataclasses import asdict, dataclass
from typing import Any, cast

from handfoot.actions import Action, action_to_json
from handfoot.cards import Card, card_code, format_card, sort_cards
from handfoot.engine import RANK_MELD, SEQUENCE, WILD_MELD, Hand, Phase
from handfoot.game import Game
from handfoot.scoring import book_kind

KIND_NAMES = {RANK_MELD: "rank", SEQUENCE: "sequence", WILD_MELD: "wild"}


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    team: int
    hand_count: int
    foot_count: int  #: 0 once the foot is picked up
    in_foot: bool
    foot_turns: int  #: turns played from the foot
    known: tuple[Card, ...]  #: cards the whole table saw go into this hand (from the pile)


@dataclass(frozen=True, slots=True)
class MeldView:
    index: int
    kind: str  #: "rank", "sequence" or "wild"
    label: str  #: "Queens", "♥ sequence", "wild cards"
    cards: tuple[Card, ...]
    naturals: int
    wilds: int
    complete: bool
    book: str | None  #: "clean", "dirty", "wild", "sequence", "red-sevens" once complete
    needs: int  #: cards still needed to complete the book


@dataclass(frozen=True, slots=True)
class TeamView:
    team: int
    seats: tuple[int, ...]
    opened: bool
    minimum: int  #: the points this team needs to open in this hand
    melds: tuple[MeldView, ...]
    red_threes: tuple[Card, ...]
    books_to_go_out: str | None  #: what the team still needs in books to go out
    total: int  #: the running score before this hand


@dataclass(frozen=True, slots=True)
class View:
    """Everything one seat (or, with ``seat`` None, a spectator) may see."""

    rules: str
    seat: int | None
    hand_number: int
    hands_in_game: int
    phase: str  #: "choose", "draw", "play", "ask", "over"
    turn: int  #: whose turn it is
    actor: int  #: who must act now (the partner, when asked to go out)
    hand: tuple[Card, ...]  #: this seat's cards, sorted by rank (its foot once picked up)
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

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, cards in the record notation (``QH``, ``JK``)."""
        data = asdict(self)
        data["hand"] = [card_code(c) for c in self.hand]
        data["pile_top"] = None if self.pile_top is None else card_code(self.pile_top)
        data["stack_tops"] = [[card_code(a), card_code(b)] for a, b in self.stack_tops]
        for p in data["players"]:
            p["known"] = [card_code(c) for c in p["known"]]
        for t in data["teams"]:
            t["red_threes"] = [card_code(c) for c in t["red_threes"]]
            for m in t["melds"]:
                m["cards"] = [card_code(c) for c in m["cards"]]
        data["history"] = [{"seat": s, **action_to_json(a)} for s, a in self.history]
        return data

    def describe_pile(self) -> str:
        if self.pile_top is None:
            return "empty"
        text = f"{format_card(self.pile_top)} on top, {self.pile_size} cards"
        return text + (" (frozen)" if self.pile_frozen else "")


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
        view = MeldView(
            index=i, kind=KIND_NAMES[m.kind], label=m.describe(),
            cards=tuple(sort_cards(m.cards)), naturals=m.naturals, wilds=m.wilds,
            complete=complete, book=book_kind(hand.rules, m.kind, m.cards),
            needs=max(size - len(m.cards), 0))
        m.view = (len(m.cards), i, view)
        out.append(view)
    return tuple(out)


def _view(game: Game, seat: int | None) -> View:
    hand = game.hand
    rules = game.rules
    players = tuple(
        PlayerView(
            seat=s, team=hand.team_of[s],
            hand_count=(hand.hand_len[s] if hand.phase != Phase.CHOOSE or hand.feet[s] is not None
                        else len(hand.stacks[s][0])),
            foot_count=(hand.foot_size(s) if hand.phase != Phase.CHOOSE or hand.feet[s] is not None
                        else len(hand.stacks[s][1])),
            in_foot=hand.in_foot[s], foot_turns=hand.foot_turns[s],
            known=(tuple(sort_cards(c for c, k in enumerate(hand.known[s]) for _ in range(k)))
                   if any(hand.known[s]) else ()),
        )
        for s in range(hand.seats))
    # The teams change only when the table does (cards are only ever added to it).
    table = (tuple(hand.opened), tuple(len(r) for r in hand.red_threes),
             tuple(len(ms) for ms in hand.melds),
             tuple(sum(len(m.cards) for m in ms) for ms in hand.melds))
    cached = hand.team_views
    if cached is not None and cached[0] == table:
        teams = cast(tuple[TeamView, ...], cached[1])
    else:
        teams = tuple(
            TeamView(team=t, seats=tuple(hand.team_seats(t)), opened=hand.opened[t],
                     minimum=hand.minimums[t], melds=_meld_views(hand, t),
                     red_threes=tuple(hand.red_threes[t]),
                     books_to_go_out=hand.books_missing(t), total=hand.team_scores[t])
            for t in range(hand.teams))
        hand.team_views = (table, teams)
    own: tuple[Card, ...] = ()
    if seat is not None:
        own = tuple(sort_cards(hand.hand_cards(seat)))
    tops: tuple[tuple[Card, Card], ...] = ()
    if hand.phase == Phase.CHOOSE:
        tops = tuple((a[0], b[0]) for a, b in hand.stacks)
    frozen = None
    if hand.phase in (Phase.DRAW, Phase.PLAY) and hand.pile:
        frozen = hand.pile_blocker(hand.actor)
        if frozen is None and hand.rules.pile.wild_freezes_until_taken and hand.pile_wilds:
            frozen = "frozen by a wild card: only a natural pair takes it"
    return View(
        rules=rules.name, seat=seat, hand_number=hand.hand_number,
        hands_in_game=rules.game.hands, phase=_PHASES[hand.phase], turn=hand.seat,
        actor=hand.actor, hand=own, players=players, teams=teams,
        pile_top=hand.pile_top, pile_size=len(hand.pile), pile_frozen=frozen,
        pile_has_wild=hand.pile_wilds > 0, stock_size=len(hand.stock), stack_tops=tops,
        asked_to_go_out=hand.phase == Phase.ASK, permission=hand.permission,
        history=tuple(hand.history),
        hand_scores=tuple(tuple(s.total for s in r.scores) for r in game.results),
        totals=tuple(game.totals), game_over=game.over, winners=tuple(game.winners))


def seat_view(game: Game, seat: int) -> View:
    """What ``seat`` may see."""
    if not 0 <= seat < game.rules.players.seats:
        raise ValueError(f"there is no seat {seat}")
    return _view(game, seat)


def public_view(game: Game) -> View:
    """What a spectator may see: no hand at all."""
    return _view(game, None)
