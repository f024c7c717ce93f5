"""The organiser's paper-table form: what it asks for under a rule set, one hand of it
made into a score sheet (the ``handfoot score`` format, docs/scorekeeper.md), and a kept
sheet made back into the form to correct it.

Each team of a hand is entered one of two ways: meld by meld with each player's cards
left, or by totals, as the printed score sheet asks (books of each kind in the rule
set's words, card points on the table, points of cards left, 3s left).
"""

from __future__ import annotations

from typing import Any

from handfoot.club import printing
from handfoot.club.event import Event, TableAssignment
from handfoot.rules import Rules
from handfoot.scorekeeper.totals import BOOK_KEYS, TOTAL_KEYS
from handfoot.server.routes.http import ApiError
from handfoot.server.routes.http import text_field as _text
from handfoot.server.routes.http import whole_number as _int

#: the form's fields for the points and 3s of a team entered by totals
TOTAL_FIELDS = (("table_cards", "Card points on the table"),
                ("cards_left", "Points of cards left in hands and feet (not 3s)"),
                ("red_threes_left", "Red 3s left in hands and feet"),
                ("black_threes_left", "Black 3s left in hands and feet"))
_EXTRAS = ("red_threes", "exact_deals", "short_openings", "penalties")


def book_fields(rules: Rules) -> list[tuple[str, str]]:
    """(key, label) of each kind of book the rule set has, in its sheet's words."""
    has = {"clean": True, "dirty": rules.meld.max_wilds > 0, "wild": rules.meld.wild_melds,
           "sequence": rules.meld.sequences, "red-sevens": bool(rules.scores.red_sevens_book)}
    return [(key, rules.words.title(kind)) for key, kind in BOOK_KEYS.items() if has[kind]]


def form_settings(rules: Rules) -> dict[str, Any]:
    """What the form asks for under these rules."""
    return {"red_threes": rules.threes.red == "board",
            "exact_deals": bool(rules.deal.exact_grab_bonus),
            "short_openings": bool(rules.opening.short_penalty),
            "totals": [{"key": k, "label": label}
                       for k, label in (*book_fields(rules), *TOTAL_FIELDS)]}


def sheet_from_form(event: Event, t: TableAssignment, rules: Rules, i: int, hand: Any
                    ) -> dict[str, Any]:
    """One hand's score sheet (the ``handfoot score`` format) from the form."""
    where = f"Hand {i + 1}"
    if not isinstance(hand, dict) or not isinstance(hand.get("teams"), list) \
            or len(hand["teams"]) != t.teams:
        raise ApiError(f"{where}: give every team's score.")
    sheet: dict[str, Any] = {"hand": i + 1, "teams": []}
    went_out = hand.get("went_out")
    if went_out not in (None, "", -1):
        sheet["went_out"] = _int(hand, "went_out", f"{where}: who went out", None, 0,
                                 t.teams - 1)
    for k, team in enumerate(hand["teams"]):
        label = f"{where}, {printing.team_label(t, k)}"
        if not isinstance(team, dict):
            raise ApiError(f"{label}: the score is missing.")
        entry: dict[str, Any] = {
            "name": printing.team_label(t, k) + ": " + event.team_name(t.team_members(k)),
            "penalties": _int(team, "penalties", f"{label}: penalties", 0, 0, 100_000)}
        if rules.threes.red == "board":
            entry["red_threes"] = _int(team, "red_threes", f"{label}: red 3s", 0, 0, 50)
        if rules.deal.exact_grab_bonus:
            entry["exact_deals"] = _int(team, "exact_deals", f"{label}: exact deals", 0,
                                        0, 8)
        if rules.opening.short_penalty:
            entry["short_openings"] = _int(team, "short_openings",
                                           f"{label}: short melds", 0, 0, 50)
        members = t.team_members(k)
        if team.get("entry") == "totals":
            entry["totals"] = _totals(rules, team.get("totals"), label)
            entry["players"] = [{"name": event.name_of(pid)} for pid in members]
            sheet["teams"].append(entry)
            continue
        melds_text = _text(team, "melds", 4000)
        entry["melds"] = [m.strip() for m in melds_text.replace(",", "\n").splitlines()
                          if m.strip()]
        players = team.get("players", [])
        if not isinstance(players, list):
            raise ApiError(f"{label}: the players' cards are missing.")
        entry["players"] = []
        for j, pid in enumerate(members):
            p = players[j] if j < len(players) and isinstance(players[j], dict) else {}
            entry["players"].append({"name": event.name_of(pid),
                                     "hand": _text(p, "hand", 1000),
                                     "foot": _text(p, "foot", 1000)})
        sheet["teams"].append(entry)
    return sheet


def _totals(rules: Rules, data: Any, label: str) -> dict[str, int]:
    if not isinstance(data, dict):
        raise ApiError(f"{label}: fill in the team's totals.")
    names = dict((*book_fields(rules), *TOTAL_FIELDS))
    out = {}
    for key in TOTAL_KEYS:
        if key in names:
            value = _int(data, key, f"{label}: {names[key]}", 0, 0, 1_000_000)
            if value:
                out[key] = value
    return out


def form_from_sheet(event: Event, t: TableAssignment, sheet: Any) -> dict[str, Any]:
    """One hand of the form from a kept sheet (the inverse of :func:`sheet_from_form`;
    sheets entered with ``handfoot event result --sheet`` may write melds and cards as
    lists, and name the players in any order)."""
    def cards(value: Any) -> str:
        if isinstance(value, list):
            return " ".join(str(v) for v in value)
        return "" if value is None else str(value)

    def count(d: dict[str, Any], key: str) -> int:
        value = d.get(key, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    sheet = sheet if isinstance(sheet, dict) else {}
    went_out = sheet.get("went_out")
    teams_in = sheet.get("teams")
    teams_in = teams_in if isinstance(teams_in, list) else []
    teams = []
    for k in range(t.teams):
        team = teams_in[k] if k < len(teams_in) and isinstance(teams_in[k], dict) else {}
        melds = team.get("melds")
        listed = [p for p in team.get("players") or [] if isinstance(p, dict)]
        by_name = {str(p.get("name", "")).strip().casefold(): p for p in listed}
        members = [event.name_of(m) for m in t.team_members(k)]
        named = [by_name.get(n.casefold()) for n in members]
        spare = iter(p for p in listed if not any(p is q for q in named))
        players = []
        for p in named:
            entry = p if p is not None else next(spare, {})
            players.append({"hand": cards(entry.get("hand")),
                            "foot": cards(entry.get("foot"))})
        totals = team.get("totals")
        by_totals = isinstance(totals, dict)
        teams.append({
            "entry": "totals" if by_totals else "melds",
            "totals": {key: count(totals, key) for key in TOTAL_KEYS}
            if isinstance(totals, dict) else {},
            "melds": "\n".join(cards(m) for m in melds) if isinstance(melds, list) else "",
            **{key: count(team, key) for key in _EXTRAS}, "players": players})
    return {"went_out": went_out if isinstance(went_out, int)
            and not isinstance(went_out, bool) else None, "teams": teams}
