"""A static evaluation of a hand in play, for the expert's truncated rollouts.

:func:`features` reads a state (a real or an imagined :class:`~handfoot.engine.Hand`)
as a few numbers per team, in points where it can (so that one set of weights carries
over between rule sets): book bonuses and cards on the table, cards and 3s held,
unfinished melds, feet not yet picked up, books still missing to go out, wilds held.
The features of a team are its numbers minus the mean of the other teams', alone and
multiplied by the share of the stock still to be drawn (what the table is worth early
in the hand differs from what it is worth at the end).

:func:`value` is a linear function of these features, fitted by least squares
(:func:`fit`) to the result of hands the heuristic played against itself: the final
lead of the team, squashed as the expert scores a hand (``lead / (|lead| + 400)``).
The fitted weights for the presets are in :data:`WEIGHTS`; other rule sets use the
weights fitted on all presets together (:data:`GENERIC`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from handfoot.cards import NUM_CARDS, WILD, is_three
from handfoot.engine import SEQUENCE, WILD_MELD, Deal, Hand, Phase, full_deck
from handfoot.rules import Rules

#: names of the per-team numbers, in order (the features are these as differences,
#: then the same multiplied by the stock's share, then "turn")
BASE = ("books", "table", "held", "threes", "cards", "feet", "open", "near", "missing",
        "ready", "wilds")
NAMES = (*BASE, *(f"{b}*stock" for b in BASE), "turn")


def _team_numbers(hand: Hand, team: int) -> list[float]:
    rules = hand.rules
    s = rules.scores
    size = rules.meld.book_size
    values = rules.card_value
    held_values = rules.held_value
    books = table = 0
    clean = dirty = wild = seq = 0
    open_cards = near = 0
    for m in hand.melds[team]:
        cards = m.cards
        table += sum(values[c] for c in cards)
        n = len(cards)
        if n >= size:
            if m.kind == WILD_MELD:
                wild += 1
                books += s.wild_book
            elif m.kind == SEQUENCE:
                seq += 1
                books += s.sequence_book
            elif m.wilds:
                dirty += 1
                books += s.dirty_book
            else:
                clean += 1
                books += s.clean_book
        else:
            open_cards += n
            if n >= size - 2:
                near += 1
    held = threes = cards_held = wilds = feet = 0
    for seat in hand.team_seats(team):
        h = hand.hands[seat]
        cards_held += hand.hand_len[seat]
        for c in range(NUM_CARDS):
            k = h[c]
            if k:
                if is_three(c):
                    threes += held_values[c] * k
                else:
                    held += held_values[c] * k
                if WILD[c]:
                    wilds += k
        if not hand.in_foot[seat]:
            feet += 1
    go = rules.going_out
    spare = clean - go.clean_books
    missing = max(-spare, 0) + max(go.dirty_books - dirty - max(spare, 0), 0)
    missing += max(go.wild_books - wild, 0) + max(go.sequence_books - seq, 0)
    return [float(books), float(table), float(held), float(threes), float(cards_held),
            float(feet), float(open_cards), float(near), float(missing),
            1.0 if missing == 0 else 0.0, float(wilds)]


_undealt: dict[Rules, int] = {}


def stock_share(hand: Hand) -> float:
    """The share of the undealt cards still in the stock (1 at the start)."""
    rules = hand.rules
    total = _undealt.get(rules)
    if total is None:
        total = len(full_deck(rules)) - rules.players.seats * (rules.deal.hand_size
                                                               + rules.deal.foot_size)
        _undealt[rules] = total
    if total <= 0:
        return 0.0
    return min(len(hand.stock) / total, 1.0)


def features(hand: Hand, team: int) -> list[float]:
    """The features of ``hand`` for ``team`` (see :data:`NAMES`)."""
    per = [_team_numbers(hand, t) for t in range(hand.teams)]
    others = [t for t in range(hand.teams) if t != team]
    diff = [per[team][i] - sum(per[t][i] for t in others) / max(len(others), 1)
            for i in range(len(BASE))]
    share = stock_share(hand)
    turn = 1.0 if hand.team_of[hand.seat] == team else -1.0
    return [*diff, *(d * share for d in diff), turn]


def squash(lead: float, scale: float = 400.0) -> float:
    return lead / (abs(lead) + scale)


def value(hand: Hand, team: int, weights: Sequence[float]) -> float:
    """The fitted value of ``hand`` for ``team``, clipped to [-1, 1]."""
    x = features(hand, team)
    v = sum(w * f for w, f in zip(weights, x, strict=True))
    return max(-1.0, min(1.0, v))


def weights_for(rules: Rules) -> tuple[float, ...]:
    return WEIGHTS.get(rules.name, GENERIC)


# ------------------------------------------------------------------ fitting

Policy = Callable[[Hand], object]


def samples(rules: Rules, policy: Callable[[Hand], object], hands: int, seed: int = 0,
            every: int = 1) -> tuple[list[list[float]], list[float]]:
    """(features, squashed final lead) at the start of every ``every``-th turn of
    ``hands`` hands played by ``policy`` for every seat, from each team's side."""
    from handfoot.game.scoring import score_hand

    xs: list[list[float]] = []
    ys: list[float] = []
    for i in range(hands):
        h = Hand(rules, Deal.shuffled(rules, random.Random(seed + i)),
                 rng=random.Random(seed + i + 1))
        rows: list[tuple[int, list[float]]] = []
        turns = 0
        while h.phase != Phase.OVER:
            if h.phase == Phase.DRAW and turns % every == 0:
                for t in range(h.teams):
                    rows.append((t, features(h, t)))
            if h.phase == Phase.DRAW:
                turns += 1
            if h.phase == Phase.CHOOSE:
                h.push(h.legal()[0])
                continue
            h.push(policy(h))  # type: ignore[arg-type]
        totals = [sc.total for sc in score_hand(h)]
        for t, x in rows:
            lead = totals[t] - max(v for u, v in enumerate(totals) if u != t)
            xs.append(x)
            ys.append(squash(lead))
    return xs, ys


def fit(xs: Sequence[Sequence[float]], ys: Sequence[float], ridge: float = 1e-3
        ) -> list[float]:
    """Least squares weights, with a little ridge (``ridge`` times the number of samples)
    on features scaled to at most 1 in size (numpy's solver).

    >>> [round(w, 3) for w in fit([[1, 0], [0, 1], [1, 1], [2, 1]], [2, -1, 1, 3], 0)]
    [2.0, -1.0]
    """
    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    z = x / scale
    a = z.T @ z + ridge * len(x) * np.eye(x.shape[1])
    return [float(w) for w in np.linalg.solve(a, z.T @ y) / scale]


#: fitted by ``fit(*samples(preset(name), heuristic, 400, seed=10_000))`` per preset
WEIGHTS: dict[str, tuple[float, ...]] = {
    "texas-good-sam": (
        0.00033355, 0.00087056, 0.00128944, 8.567e-05, -0.00861859, -0.0769373,
        0.0210406, 0.00659365, -0.0148207, 0.0937496, -0.0341865, 0.00015517,
        -0.0009342, -0.00194547, 7.75e-05, 0.0348444, -0.0260493, 0.0208311,
        -0.0502744, 0.0438023, 0.184509, 0.0190804, 0.031149
    ),
    "classic": (
        0.00049451, 0.00089373, 0.00033025, 0.00019849, 0.00311523, 0.0535924,
        0.0262994, 0.0389138, -0.0900238, 0.0407703, -0.0175393, -3.59e-05,
        -0.00052235, -0.00082163, -0.00016691, 0.044381, 0.282454, 0.0248024,
        -0.0716756, 0.00836515, 0.244482, 0.0082683, 0.0263902
    ),
    "samba": (
        0.00022292, 0.00032307, -0.00023738, 0.0100508, 0.0246587, 0.00896089,
        0.0166368, 0.0117333, 0.068062, 0.190824, -0.0730198, 6.8e-07, 0.000438,
        -0.00091582, 0.0183423, -0.0175808, 0.251943, -0.00778721, -0.031786,
        0.0279853, 0.177624, 0.0405278, 0.00753075
    ),
    "six-deck": (
        0.000302, 0.00079354, 0.00044037, 0.00019732, -0.0406027, -0.0402052,
        0.0250979, 0.0129149, -0.0165014, 0.121722, -0.00837783, 0.0001517,
        -0.00112786, -0.0022138, -0.00014265, 0.059445, -0.120496, 0.0193398,
        -0.0857843, 0.1033, -0.029766, -0.059539, 0.0221726
    ),
    "alabama-samboree": (
        0.00039521, 0.00075885, 0.00116119, 0.00011322, -0.0162075, -0.15096,
        0.026744, -0.00089075, 0.00236352, 0.0478755, -0.00590094, 0.0001672,
        -0.00099499, -0.00104298, -7.341e-05, 0.0465201, -0.0158891, 0.0246085,
        -0.0919927, 0.127855, -0.0403125, -0.011566, 0.0349149
    ),
}
#: fitted on the five presets' samples together
GENERIC: tuple[float, ...] = (
    0.00020045, 0.00054675, -0.00034519, 7.138e-05, -0.0220546, -0.0498765,
    0.0178107, 0.00644167, -0.0132119, 0.256713, -0.0394531, 0.00015464,
    -0.00050632, -0.00132419, -6.58e-05, 0.0241156, -0.00988136, 0.00885597,
    -0.0432521, 0.0904792, -0.104056, -0.00441025, 0.0240722)

__all__ = ["GENERIC", "NAMES", "WEIGHTS", "features", "fit", "samples", "squash", "value",
           "weights_for"]
