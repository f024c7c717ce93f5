"""Ratings: each person's skill per rule set, with OpenSkill's Plackett-Luce model for
teams, updated when a game ends; the computer levels rated on the same scale.

A game is rated under a preset's name when its rules are that preset or house rules
saved from it that change at most :data:`MOST_CHANGES` settings (the rules TOML's
leaves that differ, counted both ways); house rules further from their preset, seeded
deals (whoever chose the seed could know every card) and club events are not rated.
The teams are ranked by their totals (ties share a place). A team's rating is the sum
of its members': a person who has no player key, and a computer player, take part at
their rating (a computer's from ``handfoot ratings``) and keep it; only the people with
a player key are changed.

>>> me, other = Rating("classic", 25.0, 25 / 3, 0), Rating("classic", 25.0, 25 / 3, 0)
>>> won, lost = rate_teams([[me, DEFAULT], [other, DEFAULT]], totals=[5200, 3100])
>>> won[0].mu > 25 > lost[0].mu, won[0].games, won[0].sigma < 25 / 3
(True, 1, True)
>>> ranks([3100, 5200, 5200])
[3, 1, 1]
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from handfoot.rules import PRESET_NAMES, preset
from handfoot.server.storage.people import Rating

#: house rules that change at most this many settings of their preset are rated with it
MOST_CHANGES = 3
MODEL = PlackettLuce()
#: an unrated player's rating (OpenSkill's defaults: mu 25, sigma 25/3)
DEFAULT = Rating("", 25.0, 25.0 / 3.0, 0)
#: the computer levels, weakest first
LEVELS = ("easy", "medium", "hard")


def ordinal(r: Rating) -> float:
    """A rating to rank by: mu less three sigmas (a new player ranks low until
    their games show their skill)."""
    return r.mu - 3 * r.sigma


def ranks(totals: Sequence[int]) -> list[int]:
    """Each team's place by its total (1: the most points; ties share a place)."""
    return [1 + sum(1 for u in totals if u > t) for t in totals]


def rate_teams(teams: Sequence[Sequence[Rating]], totals: Sequence[int]
               ) -> list[list[Rating]]:
    """Each member's rating after a game whose teams scored ``totals``."""
    made = [[PlackettLuceRating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    out = MODEL.rate(made, ranks=[float(x) for x in ranks(totals)])
    return [[replace(r, mu=float(n.mu), sigma=float(n.sigma), games=r.games + 1)
             for r, n in zip(team, new, strict=True)]
            for team, new in zip(teams, out, strict=True)]


def _leaves(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in data.items():
        if isinstance(v, dict):
            out.update(_leaves(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def changes(rules_toml: str, base: str) -> int:
    """How many settings ``rules_toml`` changes of the preset ``base``."""
    mine = _leaves(tomllib.loads(rules_toml))
    theirs = _leaves(tomllib.loads(preset(base).to_toml()))
    mine.pop("name", None)
    theirs.pop("name", None)
    return sum(1 for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))


def rated_under(rules_name: str, rules_toml: str, base: str | None) -> str | None:
    """The preset a game is rated under (None: not rated): its rules are the preset,
    or house rules saved from it (``base``) within :data:`MOST_CHANGES` of it.

    >>> toml = preset("classic").to_toml()
    >>> rated_under("classic", toml, None), rated_under("ours", toml, "classic")
    ('classic', 'classic')
    >>> rated_under("ours", toml, None) is None
    True
    """
    preset_name = rules_name if rules_name in PRESET_NAMES else base
    if preset_name not in PRESET_NAMES:
        return None
    try:
        return preset_name if changes(rules_toml, preset_name) <= MOST_CHANGES else None
    except (tomllib.TOMLDecodeError, ValueError):
        return None


def strength_words(mine: Rating, computers: dict[str, Rating]) -> str:
    """A person's rating beside the computer levels': "about as strong as the medium
    computer".

    >>> levels = {"easy": Rating("c", 20, 1, 9), "medium": Rating("c", 26, 1, 9),
    ...           "hard": Rating("c", 32, 1, 9)}
    >>> strength_words(Rating("c", 25.4, 3, 4), levels)
    'about as strong as the medium computer'
    >>> strength_words(Rating("c", 29, 3, 4), levels)
    'between the medium and the hard computer'
    >>> strength_words(Rating("c", 40, 3, 4), levels)
    'stronger than the hard computer'
    """
    known = sorted(((r.mu, level) for level, r in computers.items()), key=lambda x: x[0])
    if not known:
        return "the computer levels are not rated on this server yet"
    if mine.games == 0:
        return "not rated yet: finish a game"
    near = min(known, key=lambda x: abs(x[0] - mine.mu))
    if abs(near[0] - mine.mu) <= 1.5:
        return f"about as strong as the {near[1]} computer"
    if mine.mu < known[0][0]:
        return f"not yet as strong as the {known[0][1]} computer"
    if mine.mu > known[-1][0]:
        return f"stronger than the {known[-1][1]} computer"
    below = max((x for x in known if x[0] < mine.mu), key=lambda x: x[0])
    above = min((x for x in known if x[0] > mine.mu), key=lambda x: x[0])
    return f"between the {below[1]} and the {above[1]} computer"


def rating_json(r: Rating, computers: dict[str, Rating] | None = None) -> dict[str, Any]:
    """A rating as the API gives it."""
    out: dict[str, Any] = {"rules": r.rules, "mu": round(r.mu, 2), "sigma": round(r.sigma, 2),
                           "ordinal": round(ordinal(r), 2), "games": r.games}
    if computers is not None:
        out["like"] = strength_words(r, computers)
    return out
