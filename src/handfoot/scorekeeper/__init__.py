"""Score a hand played at a real table (``handfoot score FILE``).

The table's scorer writes what is on the table and what is left in hands and feet
in a small JSON or TOML file (docs/scorekeeper.md), meld by meld or, for a team,
by the printed score sheet's totals (:mod:`handfoot.scorekeeper.totals`); this checks
every meld with the engine's own rules, refuses a table that could not have been
(more of a card than the decks hold, a partner of the team that went out who never
took the foot where the rules want every partner in it, a player who went out still
holding cards), and gives each team's itemised score.

>>> text = '''
... variant = "texas-good-sam"
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
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handfoot.cards import (
    JOKER,
    RANK,
    RANK_WORDS,
    WILD,
    Card,
    CardError,
    card_code,
    format_cards,
    is_red_three,
    parse_cards,
)
from handfoot.engine import (
    RANK_MELD,
    WILD_MELD,
    IllegalAction,
    books_missing,
    check_table_meld,
)
from handfoot.game.scoring import BOOK_KINDS, TeamScore, book_kind, score_team, team_score
from handfoot.rules import PRESET_NAMES, Rules, RulesError, preset
from handfoot.scorekeeper.totals import (
    ScoreSheetError as ScoreSheetError,
)
from handfoot.scorekeeper.totals import (
    Usage,
    cards_usage,
    check_usage,
    deck_usage,
    read_totals,
    totals_usage,
)


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
    if key == "penalties" and isinstance(value, int) and not isinstance(value, bool) \
            and value < 0:
        raise ScoreSheetError(f"{where}: penalties = {value}: write penalties as a positive "
                              f"number (penalties = {-value} takes {-value} points off)")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ScoreSheetError(f"{where}.{key} must be a whole number, 0 or more")
    return value


TEAM_KEYS = {"name", "melds", "players", "red_threes", "exact_deals", "penalties",
             "short_openings", "totals"}
PLAYER_KEYS = {"name", "hand", "foot", "went_out"}


def score_sheet(data: dict[str, Any]) -> tuple[Rules, list[ScoredTeam]]:
    """Score a sheet already read into a dict."""
    unknown = set(data) - {"variant", "rules", "went_out", "teams", "hand"}
    if unknown:
        raise ScoreSheetError(f"unknown key(s): {', '.join(sorted(unknown))}; the keys are "
                              "variant, rules, hand, went_out and teams")
    if "variant" not in data and "rules" not in data:
        raise ScoreSheetError("say which rule set was played: variant = one of "
                              + ", ".join(PRESET_NAMES))
    try:
        base = preset(str(data["variant"])) if "variant" in data else None
    except RulesError as e:
        raise ScoreSheetError(f"variant: {e}") from e
    try:
        rules = Rules.from_dict(data["rules"], base) if "rules" in data else base
    except RulesError as e:
        raise ScoreSheetError(f"rules: {e}") from e
    assert rules is not None
    number = data.get("hand", 1)
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise ScoreSheetError("hand must be the hand's number: 1, 2, ...")
    teams = data.get("teams")
    if not isinstance(teams, list) or len(teams) != rules.players.teams:
        raise ScoreSheetError(f"give the {rules.players.teams} teams as [[teams]] entries")
    went_out = data.get("went_out")
    if went_out is not None and (not isinstance(went_out, int) or isinstance(went_out, bool)
                                 or not 0 <= went_out < len(teams)):
        raise ScoreSheetError(f"went_out must be a team number from 0 to {len(teams) - 1}, "
                              "or left out when nobody went out")
    went_out = _player_went_out(teams, went_out)
    entries = [_team(rules, t, team, went_out == t) for t, team in enumerate(teams)]
    seen: Counter[Card] = Counter()
    usage = Usage()
    for entry in entries:
        seen.update(entry.cards)
        usage += entry.usage
    _check_deck(rules, seen)
    if usage.red_threes > deck_usage(rules).red_threes:
        where = "; ".join(x.red_threes for x in entries)
        raise ScoreSheetError(f"red_threes: the sheet has {usage.red_threes} red 3s "
                              f"({where}), but the {rules.num_decks} decks of {rules.name} "
                              f"hold only {deck_usage(rules).red_threes}")
    if any(x.by_totals for x in entries):
        check_usage(rules, usage, "totals")
    return rules, [x.scored for x in entries]


@dataclass(frozen=True, slots=True)
class _Entry:
    """One team of a sheet, read, checked on its own and scored."""

    scored: ScoredTeam
    cards: list[Card]  #: every card written out (meld by meld entry)
    usage: Usage  #: the fewest cards of each sort the team's table and hands hold
    red_threes: str  #: where its red 3s are, for a message
    by_totals: bool


def _team(rules: Rules, t: int, team: Any, went_out: bool) -> _Entry:
    """Read, check and score team ``t`` of a sheet."""
    where = f"team {t}"
    if not isinstance(team, dict):
        raise ScoreSheetError(f"{where} must be a table")
    if isinstance(team.get("name"), str):
        where += f" ({team['name']})"
    bad = set(team) - TEAM_KEYS
    if bad:
        raise ScoreSheetError(f"{where}: unknown key(s) {', '.join(sorted(bad))}")
    red_threes = _int(team, "red_threes", where)
    if red_threes and rules.threes.red != "board":
        raise ScoreSheetError(f"{where}: red 3s are not laid on the board in {rules.name}; "
                              "write any red 3 left in a hand or foot there instead")
    exact = _int(team, "exact_deals", where)
    if exact and not rules.deal.exact_grab_bonus:
        raise ScoreSheetError(f"{where}: {rules.name} has no bonus for an exact deal")
    if exact > rules.team_size:
        raise ScoreSheetError(f"{where}: exact_deals is {exact}, but a team has "
                              f"{rules.team_size} players")
    penalties = _int(team, "penalties", where)
    short = _int(team, "short_openings", where)
    if short and not rules.opening.short_penalty:
        raise ScoreSheetError(f"{where}: {rules.name} has no penalty for a short opening; "
                              "write any penalty the monitor gave as penalties")
    penalties += short * rules.opening.short_penalty
    held = _players(rules, team, where, went_out)
    name = str(team.get("name", f"Team {t + 1}"))
    if "totals" in team:
        if "melds" in team or held:
            raise ScoreSheetError(f"{where}: give the team's totals or its melds and "
                                  "cards left, not both")
        totals = read_totals(rules, team["totals"], where)
        _check_went_out(rules, totals.books, where, went_out)
        score = team_score(rules, t, totals.books, totals.table_cards, totals.held_cards,
                           totals.threes, red_threes, went_out, exact, penalties)
        return _Entry(ScoredTeam(name, score), [], totals_usage(rules, totals, red_threes),
                      f"{where}: {red_threes} on the board and {totals.red_threes_left} left",
                      True)
    melds = _melds(rules, team, where)
    books = dict.fromkeys(BOOK_KINDS, 0)
    for kind, cards in melds:
        which = book_kind(rules, kind, cards)
        if which:
            books[which] += 1
    _check_went_out(rules, books, where, went_out)
    score = score_team(rules, t, melds, held, red_threes_on_board=red_threes,
                       went_out=went_out, exact_grabs=exact, penalties=penalties)
    written = [c for _, cards in melds for c in cards] + held
    return _Entry(ScoredTeam(name, score), written, cards_usage(written, red_threes),
                  f"{where}: {red_threes} on the board and "
                  f"{sum(1 for c in held if is_red_three(c))} left", False)


def _check_went_out(rules: Rules, books: dict[str, int], where: str, went_out: bool) -> None:
    """A team that went out has the books going out needs."""
    if not went_out:
        return
    missing = books_missing(rules.going_out, rules.words,
                             books["clean"] + books["red-sevens"], books["dirty"],
                             books["wild"], books["sequence"])
    if missing:
        raise ScoreSheetError(f"{where} cannot have gone out: it needs {missing} "
                              f"in {rules.name}")


def _melds(rules: Rules, team: dict[str, Any], where: str
           ) -> list[tuple[int, tuple[Card, ...]]]:
    """A team's melds, each checked with the rule set, and together."""
    melds = []
    team_melds = team.get("melds", [])
    if not isinstance(team_melds, list):
        raise ScoreSheetError(f"{where}.melds must be a list of melds, like "
                              "[\"QH QD QS\", \"7C 7D 2C\"]")
    for k, text in enumerate(team_melds):
        cards = _cards(text, f"{where}, meld {k + 1}")
        try:
            kind = check_table_meld(rules, cards)
        except IllegalAction as e:
            raise ScoreSheetError(f"{where}, meld {k + 1} ({format_cards(cards)}): {e}") from e
        melds.append((kind, cards))
    _check_team_table(rules, melds, where)
    return melds


def _player_went_out(teams: list[Any], went_out: int | None) -> int | None:
    """The team that went out: ``went_out``, or the team of the player marked
    ``went_out = true`` (they must agree)."""
    marked = [(t, i) for t, team in enumerate(teams) if isinstance(team, dict)
              for i, p in enumerate(team.get("players") or [])
              if isinstance(p, dict) and p.get("went_out") is True]
    if len(marked) > 1:
        raise ScoreSheetError("only one player goes out: went_out = true is written for "
                              + " and ".join(f"team {t}, player {i + 1}" for t, i in marked))
    if not marked:
        return went_out
    team = marked[0][0]
    if went_out is not None and went_out != team:
        raise ScoreSheetError(f"went_out = {went_out}, but the player marked went_out = true "
                              f"plays for team {team}")
    return team


def _players(rules: Rules, team: dict[str, Any], where: str, team_went_out: bool
             ) -> list[Card]:
    """Every card left in a team's players' hands and feet, each player checked against
    going out: the player who went out holds nothing, and where the rules want every
    partner in the foot, no partner of the team that went out still has a foot."""
    held: list[Card] = []
    players = team.get("players", [])
    if not isinstance(players, list):
        raise ScoreSheetError(f"{where}.players must be a list")
    if len(players) > rules.team_size:
        raise ScoreSheetError(f"{where} lists {len(players)} players; a team has "
                              f"{rules.team_size} in {rules.name}")
    holding = 0
    # Where play goes on until the stock is drawn, the player who went out drew again.
    plays_on = rules.going_out.hand_ends == "stock-drawn"
    for i, player in enumerate(players):
        pw = f"{where}, player {i + 1}"
        if not isinstance(player, dict):
            raise ScoreSheetError(f"{pw}: give name, hand and foot")
        if set(player) - PLAYER_KEYS:
            raise ScoreSheetError(f"{pw}: unknown key(s) "
                                  f"{', '.join(sorted(set(player) - PLAYER_KEYS))}; "
                                  "a player has name, hand, foot and went_out")
        if isinstance(player.get("name"), str) and player["name"].strip():
            pw += f" ({player['name'].strip()})"
        if not isinstance(player.get("went_out", False), bool):
            raise ScoreSheetError(f"{pw}: went_out is true or false")
        hand = _cards(player.get("hand"), f"{pw}, hand")
        foot = _cards(player.get("foot"), f"{pw}, foot")
        if player.get("went_out") and (foot or (hand and not plays_on)):
            raise ScoreSheetError(f"{pw} went out but still holds "
                                  f"{format_cards([*hand, *foot])}; a player who went out "
                                  "has no cards left")
        if team_went_out and foot and not rules.individuals \
                and rules.going_out.partners != "none":
            raise ScoreSheetError(f"{pw}, foot: the team went out, but this player never "
                                  f"picked up the foot; in {rules.name} every partner must "
                                  "be in the foot before a player goes out")
        if hand or foot:
            holding += 1
        held.extend(hand)
        held.extend(foot)
    if team_went_out and holding == rules.team_size and not plays_on:
        raise ScoreSheetError(f"{where} went out, but every one of its players still holds "
                              "cards; the player who went out has none (write no hand and "
                              "no foot for them)")
    return held


def _check_team_table(rules: Rules, melds: list[tuple[int, tuple[Card, ...]]],
                      where: str) -> None:
    """A team's melds together: one unfinished meld of a rank (and one wild-card
    meld) at a time where the rules say so."""
    size = rules.meld.book_size
    open_ranks: Counter[int] = Counter()
    open_wild = 0
    for kind, cards in melds:
        if len(cards) >= size:
            continue
        if kind == RANK_MELD:
            open_ranks[next(RANK[c] for c in cards if not WILD[c])] += 1
        elif kind == WILD_MELD:
            open_wild += 1
    if rules.meld.one_open_meld_per_rank:
        for rank, n in open_ranks.items():
            if n > 1:
                raise ScoreSheetError(f"{where}: {n} unfinished melds of {RANK_WORDS[rank]}; "
                                      "a meld must be completed before another of the same "
                                      "rank is started (write them as one meld)")
    if open_wild > 1:
        raise ScoreSheetError(f"{where}: {open_wild} unfinished wild-card melds; only one "
                              "may be open at a time")


def _check_deck(rules: Rules, seen: Counter[Card]) -> None:
    """No card written more often than the decks hold (a typing slip)."""
    for c, n in sorted(seen.items()):
        have = (rules.num_decks * rules.deck.jokers_per_deck + rules.deck.extra_jokers
                if c == JOKER else rules.num_decks)
        if n > have:
            raise ScoreSheetError(f"the sheet lists {n} x {card_code(c)}, but the "
                                  f"{rules.num_decks} decks of {rules.name} hold only {have}")


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
