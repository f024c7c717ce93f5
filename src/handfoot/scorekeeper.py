"""Score a hand played at a real table (``handfoot score FILE``).

The table's scorer writes what is on the table and what is left in hands and feet
in a small JSON or TOML file (docs/scorekeeper.md); this checks every meld with
the engine's own rules and prints each team's itemised score.

>>> text = '''
... variant = "texas-good-sam"
... went_out = 0
... [[teams]]
... melds = ["QH QD QS QC QH QD QS", "7C 7D 7H 2C"]
... [[teams.players]]
... hand = "3H"
... [[teams]]
... melds = []
... '''
>>> [s.total for s in score_text(text, "toml")[1]]
[105, 0]
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handfoot.cards import Card, CardError, format_cards, parse_cards
from handfoot.engine import IllegalAction, check_table_meld
from handfoot.rules import Rules, RulesError, preset
from handfoot.scoring import TeamScore, score_team


class ScoreSheetError(ValueError):
    """A score file that cannot be read or does not fit the rules."""


@dataclass(frozen=True, slots=True)
class ScoredTeam:
    name: str
    score: TeamScore


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if value is None:
        return ()
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    if not isinstance(value, str):
        raise ScoreSheetError(f"{where}: write the cards as text, like \"QH QD 2C\"")
    try:
        return parse_cards(value)
    except CardError as e:
        raise ScoreSheetError(f"{where}: {e}") from e


def _int(data: dict[str, Any], key: str, where: str, default: int = 0) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ScoreSheetError(f"{where}.{key} must be a whole number, 0 or more")
    return value


TEAM_KEYS = {"name", "melds", "players", "red_threes", "exact_deals", "penalties",
             "short_openings"}
PLAYER_KEYS = {"name", "hand", "foot"}


def score_sheet(data: dict[str, Any]) -> tuple[Rules, list[ScoredTeam]]:
    """Score a sheet already read into a dict."""
    unknown = set(data) - {"variant", "rules", "went_out", "teams", "hand"}
    if unknown:
        raise ScoreSheetError(f"unknown key(s): {', '.join(sorted(unknown))}")
    try:
        if "rules" in data:
            base = preset(data["variant"]) if "variant" in data else None
            rules = Rules.from_dict(data["rules"], base)
        else:
            rules = preset(str(data.get("variant", "")))
    except RulesError as e:
        raise ScoreSheetError(str(e)) from e
    teams = data.get("teams")
    if not isinstance(teams, list) or len(teams) != rules.players.teams:
        raise ScoreSheetError(f"give the {rules.players.teams} teams as [[teams]] entries")
    went_out = data.get("went_out")
    if went_out is not None and (not isinstance(went_out, int) or isinstance(went_out, bool)
                                 or not 0 <= went_out < len(teams)):
        raise ScoreSheetError(f"went_out must be a team number from 0 to {len(teams) - 1}, "
                              "or left out when nobody went out")
    out = []
    for t, team in enumerate(teams):
        where = f"team {t}"
        if not isinstance(team, dict):
            raise ScoreSheetError(f"{where} must be a table")
        bad = set(team) - TEAM_KEYS
        if bad:
            raise ScoreSheetError(f"{where}: unknown key(s) {', '.join(sorted(bad))}")
        melds = []
        for k, text in enumerate(team.get("melds", [])):
            cards = _cards(text, f"{where}, meld {k + 1}")
            try:
                kind = check_table_meld(rules, cards)
            except IllegalAction as e:
                raise ScoreSheetError(f"{where}, meld {k + 1} ({format_cards(cards)}): {e}") from e
            melds.append((kind, cards))
        held: list[Card] = []
        players = team.get("players", [])
        if not isinstance(players, list):
            raise ScoreSheetError(f"{where}.players must be a list")
        for i, player in enumerate(players):
            pw = f"{where}, player {i + 1}"
            if not isinstance(player, dict) or set(player) - PLAYER_KEYS:
                raise ScoreSheetError(f"{pw}: give name, hand and foot")
            held.extend(_cards(player.get("hand"), f"{pw}, hand"))
            held.extend(_cards(player.get("foot"), f"{pw}, foot"))
        penalties = _int(team, "penalties", where)
        penalties += _int(team, "short_openings", where) * rules.opening.short_penalty
        score = score_team(rules, t, melds, held,
                           red_threes_on_board=_int(team, "red_threes", where),
                           went_out=went_out == t,
                           exact_grabs=_int(team, "exact_deals", where),
                           penalties=penalties)
        out.append(ScoredTeam(str(team.get("name", f"Team {t + 1}")), score))
    return rules, out


def score_text(text: str, fmt: str) -> tuple[Rules, list[TeamScore]]:
    rules, teams = score_sheet(read_sheet(text, fmt))
    return rules, [t.score for t in teams]


def read_sheet(text: str, fmt: str) -> dict[str, Any]:
    try:
        data = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise ScoreSheetError(f"this is not valid {fmt.upper()}: {e}") from e
    if not isinstance(data, dict):
        raise ScoreSheetError("a score sheet is a table of settings")
    return data


def score_file(path: str | Path) -> tuple[Rules, list[ScoredTeam]]:
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except OSError as e:
        raise ScoreSheetError(f"cannot read {path}: {e}") from e
    fmt = "json" if p.suffix.lower() == ".json" else "toml"
    return score_sheet(read_sheet(text, fmt))
