"""A review of a finished game: the hard player's opinion of every decision.

For each decision of each person in a game record that had a choice, the review asks
the hard player (:class:`~handfoot.bots.expert.ExpertBot`) what it would play from that
person's seat (only what that seat could see). Where it would play otherwise, both moves
are weighed in expected points: the cards the seat could not see dealt at random
(:func:`sample_world`), each move played, then every seat played to the end of the hand
(the person's team by the hard player's policy, the others by the medium player's), the
same worlds for both moves; the cost of the move played is the mean of its paired
difference in the team's final lead over the best other team, with its standard error.
Where the move played does as well, it stands.

A review depends on nothing but the record: each decision's worlds are drawn from a
generator seeded by the record's own contents (:func:`record_seed`), the hand's number
and the decision's place in it, so the same record gives the same review anywhere.

>>> from handfoot.actions import DRAW, Discard
>>> phrase(DRAW)
'drawing from the stock'
>>> phrase(Discard(52))
'discarding the joker'
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

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
    action_to_json,
)
from handfoot.bots.expert import (
    ExpertBot,
    public_pile,
    rollout,
    sample_world,
    view_ends,
)
from handfoot.bots.heuristic import obs_from_view
from handfoot.cards import format_card, is_black_three, is_red_three
from handfoot.engine import Phase
from handfoot.game import Game
from handfoot.game.narrate import cards_text
from handfoot.game.records import replay
from handfoot.game.scoring import score_hand
from handfoot.game.views import View, seat_view
from handfoot.rules import Rules

#: sampled worlds per decision where the move played is not the hard player's
WORLDS: Final = 48
#: the hard player's own search: its worlds per decision (as it plays)
SEARCH: Final = 32
#: where the move played cost something in those, the worlds are this many times as
#: many in all (its standard error halved)
MORE: Final = 4
#: how many of each hand's decisions are told in words, the costliest first
WORST: Final = 3


class ReviewError(ValueError):
    """The record cannot be reviewed (it does not replay)."""


@dataclass(frozen=True, slots=True)
class Reviewed:
    """One decision reviewed: the move played, the move the hard player prefers, and
    what the one played cost in expected points (0 where it is the one preferred)."""

    hand: int  #: the hand's number, from 1
    index: int  #: the action's place in the hand's actions, from 0
    seat: int
    played: Action
    preferred: Action
    cost: float
    se: float  #: the cost's standard error over the worlds
    text: str  #: the decision in plain words

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "index": self.index, "seat": self.seat,
                "played": action_to_json(self.played),
                "preferred": action_to_json(self.preferred),
                "cost": round(self.cost), "se": round(self.se), "text": self.text}


@dataclass(frozen=True, slots=True)
class Review:
    worlds: int
    hands: int
    decisions: tuple[Reviewed, ...]
    #: each hand's number of actions (a decision's place in the whole game is the
    #: actions of the hands before it plus its own place)
    sizes: tuple[int, ...] = ()

    def costliest(self, hand: int, n: int = WORST) -> list[Reviewed]:
        """The hand's ``n`` costliest decisions, costliest first, of those whose cost
        stands clear of its noise (at least twice its standard error)."""
        lost = [d for d in self.decisions
                if d.hand == hand and d.cost >= 0.5 and d.cost >= 2 * d.se]
        return sorted(lost, key=lambda d: (-d.cost, d.index))[:n]

    def to_json(self) -> dict[str, Any]:
        return {"format": "handfoot-review", "worlds": self.worlds,
                "hands": [{"number": h,
                           "actions": self.sizes[h - 1] if h <= len(self.sizes) else 0,
                           "decisions": [d.to_json() for d in self.decisions if d.hand == h],
                           "costliest": [d.index for d in self.costliest(h)]}
                          for h in range(1, self.hands + 1)]}


def record_seed(record: dict[str, Any]) -> int:
    """A number drawn from the record's rules, deals and actions (not its file's
    layout, nor the seed it was played with, which a served game does not give)."""
    found = record.get("hands")
    hands: list[Any] = found if isinstance(found, list) else []
    body = {"rules": record.get("rules"),
            "hands": [{"deal": h.get("deal"), "actions": h.get("actions")}
                      for h in hands if isinstance(h, dict)]}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


Progress = Callable[[int, int], None]


def review(record: dict[str, Any], worlds: int = WORLDS, search: int = SEARCH,
           progress: Progress | None = None) -> Review:
    """Review every decision of the record (see the module's docstring): ``worlds``
    worlds to weigh a move against the one preferred, ``search`` worlds for the hard
    player's own search; ``progress`` is told (hand, action) as the review goes."""
    seed = record_seed(record)
    found: list[Reviewed] = []

    def before(game: Game, number: int, k: int, seat: int, action: Action) -> None:
        if progress is not None:
            progress(number, k)
        rng = random.Random(f"{seed}:{number}:{k}")
        judged = judge(game, seat, action, rng, worlds, search)
        if judged is not None:
            preferred, cost, se, view = judged
            found.append(Reviewed(number, k, seat, action, preferred, cost, se,
                                  words(view, game.rules, action, preferred, cost)))

    report = replay(record, before)
    if not report.ok or report.game is None:
        raise ReviewError(report.message)
    hands = [h.get("actions") or [] for h in record.get("hands") or ()]
    return Review(worlds, len(hands), tuple(found), tuple(len(a) for a in hands))


def same(a: Action, b: Action) -> bool:
    """Whether two moves are the same move (as a record writes them: cards sorted)."""
    return a == b or action_to_json(a) == action_to_json(b)


def judge(game: Game, seat: int, played: Action, rng: random.Random, worlds: int,
          search: int = SEARCH) -> tuple[Action, float, float, View] | None:
    """(the move preferred, the cost of ``played`` and its standard error, the seat's
    view), or None where there was no choice. The move preferred is the hard player's
    own choice (its search, seeded from ``rng``); where it differs from the one
    played, both are played out to the end of the hand in ``worlds`` sampled worlds,
    and where the one played costs something there, in :data:`MORE` times as many in
    all (a figure steady enough to tell). Where the move played does as well, it is the
    one preferred."""
    if game.hand.phase not in (Phase.DRAW, Phase.PLAY, Phase.ASK) or game.actor != seat:
        return None
    legal = game.legal_actions()
    if len(legal) < 2:
        return None
    view = seat_view(game, seat)
    preferred = ExpertBot(rng.getrandbits(32), worlds=search).choose(view, legal)
    if same(preferred, played):
        return played, 0.0, 0.0, view
    diffs: list[float] = []
    for n in (worlds, (MORE - 1) * worlds):
        leads = lead_points(view, game.rules, [preferred, played], rng, n)
        if leads is None:
            return None
        diffs += [b - p for b, p in zip(leads[0], leads[1], strict=True)]
        if sum(diffs) <= 0.0:
            break  # no cost: the figure is not looked at more closely
    n = len(diffs)
    cost = sum(diffs) / n
    se = (sum((d - cost) ** 2 for d in diffs) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
    return (played, 0.0, se, view) if cost <= 0.0 else (preferred, cost, se, view)


def lead_points(view: View, rules: Rules, cands: Sequence[Action], rng: random.Random,
                worlds: int) -> list[list[float]] | None:
    """For each candidate, the team's lead over the best other team at the end of the
    hand, in points, in each sampled world (the same worlds for every candidate), or
    None where no world can be dealt."""
    assert view.seat is not None
    team = view.players[view.seat].team
    found: list[list[float]] = [[] for _ in cands]
    for _ in range(worlds):
        world = sample_world(view, rules, rng)
        if world is None:
            break
        for i, a in enumerate(cands):
            h = world.clone()
            if h.is_legal(a):
                h.push(a)
                rollout(h, 10**6, max_actions=5000, team=team)
            scores = [sc.total for sc in score_hand(h)]
            found[i].append(float(scores[team] - max(
                v for t, v in enumerate(scores) if t != team)))
    return found if found[0] else None


# ------------------------------------------------------------------ in words


def phrase(a: Action, view: View | None = None) -> str:
    """A move as a clause: "drawing from the stock", "discarding 9♠"."""
    if isinstance(a, Draw):
        return "drawing from the stock"
    if isinstance(a, TakePile):
        size = f"the {view.pile_size}-card pile" if view is not None else "the pile"
        return f"taking {size}"
    if isinstance(a, Discard):
        return f"discarding {'the joker' if a.card == 52 else format_card(a.card)}"
    if isinstance(a, LayMeld):
        return f"laying down {cards_text(a.cards)}"
    if isinstance(a, LayDown):
        return "laying down " + " | ".join(cards_text(m) for m in a.melds)
    if isinstance(a, AddToMeld):
        label = _meld_label(view, a.meld)
        return f"adding {cards_text(a.cards)} to {label}"
    if isinstance(a, AnswerGoOut):
        return "letting your partner go out" if a.yes else "telling your partner not yet"
    simple = {AskToGoOut: "asking to go out", EndTurn: "ending the turn",
              PickUpFoot: "picking up the foot", GoDown: "going down",
              TakeBack: "taking back a laid-out meld", TakeUpcard: "taking the upcard",
              ChooseHand: "choosing that stack"}
    return simple.get(type(a), a.notation())


def _meld_label(view: View | None, index: int) -> str:
    if view is not None and view.seat is not None:
        melds = view.teams[view.players[view.seat].team].melds
        if 0 <= index < len(melds):
            return f"the {melds[index].label}"
    return f"meld {index + 1}"


def words(view: View, rules: Rules, played: Action, preferred: Action, cost: float) -> str:
    """The decision in plain words, with what made it costly where the table shows it
    (the pile's 3s, how close the opponents were to going out)."""
    if played == preferred or cost < 0.5:
        return f"{_capital(phrase(played, view))} was the best move here."
    why = _reasons(view, rules, played)
    text = (f"{_capital(phrase(played, view))} cost about {_points(cost)} points"
            f"{': ' + ' and '.join(why) if why else ''}; "
            f"{phrase(preferred, view)} was better.")
    return text


def _points(cost: float) -> str:
    step = 10 if cost < 200 else 50
    return f"{max(round(cost / step) * step, 1):,}"


def _capital(s: str) -> str:
    return s[:1].upper() + s[1:]


def _reasons(view: View, rules: Rules, played: Action) -> list[str]:
    out: list[str] = []
    if isinstance(played, TakePile):
        pile = public_pile(view, rules) or []
        red = sum(1 for c in pile if c is not None and is_red_three(c))
        black = sum(1 for c in pile if c is not None and is_black_three(c))
        if red:
            out.append(f"it held {red} red 3{'s' if red > 1 else ''}")
        elif black and rules.scores.black_three_held:
            out.append(f"it held {black} black 3{'s' if black > 1 else ''}")
    assert view.seat is not None
    o = obs_from_view(view, rules)
    ends = view_ends(view, o)
    if len(ends) > 1 and ends[1] >= 0.2:
        me = view.players[view.seat].team
        left = [p.hand_count for p in view.players if p.team != me]
        counts = " and ".join(str(c) for c in left)
        out.append(f"the opponents had {counts} card{'s' if left != [1] else ''} left")
    return out


def review_text(r: Review, players: Sequence[str] = ()) -> str:
    """The three costliest decisions of each hand, in plain words."""
    lines = [f"Reviewed by the hard player ({r.worlds} sampled worlds a decision)."]
    for h in range(1, r.hands + 1):
        worst = r.costliest(h)
        lines.append(f"Hand {h}: {len([d for d in r.decisions if d.hand == h])} decisions "
                     "weighed" + (", none cost anything." if not worst else
                                  "; the costliest:"))
        for d in worst:
            name = players[d.seat] if d.seat < len(players) and players[d.seat] \
                else f"seat {d.seat + 1}"
            lines.append(f"  {name}, move {d.index + 1}: {d.text}")
    return "\n".join(lines)


__all__ = ["MORE", "SEARCH", "WORLDS", "WORST", "Review", "ReviewError", "Reviewed", "judge",
           "lead_points", "phrase", "record_seed", "review", "review_text", "same", "words"]
