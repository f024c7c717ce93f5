"""A table's result: from a game played online (a finished :class:`Game` or its record)
or from the score sheets of a real table, one per hand in the ``handfoot score`` format
(docs/scorekeeper.md), the totals computed by the scorekeeper.

The teams of a table are numbered as its seats: team 0 holds seats 1 and 3 (and 5), team
1 seats 2 and 4 (and 6); the printed score sheet names them, and a sheet's ``[[teams]]``
come in that order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from handfoot.arena import hand_turns, play, seat_bots
from handfoot.club.event import Event, EventError, TableAssignment, TableResult
from handfoot.game import Game
from handfoot.game.records import game_record, replay
from handfoot.rules import Rules, RulesError, Words, preset
from handfoot.scorekeeper import ScoreSheetError, score_sheet


def _table(event: Event, round_no: int, table_no: int) -> TableAssignment:
    draw = event.draws.get(round_no)
    if draw is None:
        raise EventError(f"round {round_no} has not been drawn")
    return draw.table(table_no)


def _scoring_part(rules: Rules) -> Rules:
    """The rules with what does not bear on a table's play of the cards set aside (the
    names, the clock, the words for the books)."""
    return dataclasses.replace(rules, name="", title="", source="", words=Words(),
                               game=dataclasses.replace(rules.game, time_limit_minutes=0,
                                                        time_warning_minutes=0))


def result_from_game(event: Event, round_no: int, table_no: int, game: Game) -> TableResult:
    """The result of a game played through the engine (online, or by computer players)."""
    table = _table(event, round_no, table_no)
    want = event.table_rules(table)
    if _scoring_part(game.rules) != _scoring_part(want):
        raise EventError(f"round {round_no}, table {table_no}: the game was played under "
                         f"{game.rules.name} rules that differ from the event's")
    if not game.over:
        raise EventError(f"round {round_no}, table {table_no}: the game is not over")
    names = [event.name_of(p) for p in table.seats]
    record = game_record(game, names, {"event": event.name, "round": round_no,
                                       "table": table_no})
    return TableResult(round_no, table_no, "online",
                       tuple(tuple(s.total for s in r.scores) for r in game.results),
                       tuple(game.totals), game.time_called, {"record": record})


def result_from_record(event: Event, round_no: int, table_no: int,
                       record: dict[str, Any]) -> TableResult:
    """The result of a game record (``handfoot replay`` checks it action by action).

    Calling time is not an action in a record, so a game the monitor stopped is replayed
    up to its last action and time is called then; the totals must match the record's."""
    where = f"round {round_no}, table {table_no}"
    report = replay(record)
    if report.ok and report.game is not None:
        result = result_from_game(event, round_no, table_no, report.game)
        return dataclasses.replace(result, detail={"record": record})
    hands = record.get("hands") if isinstance(record, dict) else None
    summary = record.get("result") if isinstance(record, dict) else None
    if not isinstance(hands, list) or not hands or not isinstance(summary, dict) \
            or not summary.get("complete") or not isinstance(hands[-1], dict):
        raise EventError(f"{where}: the record does not replay: {report.message}")
    last = hands[-1].get("result") or {}
    by_clock = last.get("ended_by") == "time"
    trimmed = {**record, "result": {},
               "hands": [*hands[:-1], {**hands[-1], "result": None}] if by_clock else hands}
    again = replay(trimmed)
    game = again.game
    if not again.ok or game is None:
        raise EventError(f"{where}: the record does not replay: {report.message}")
    table = _table(event, round_no, table_no)
    if _scoring_part(game.rules) != _scoring_part(event.table_rules(table)):
        raise EventError(f"{where}: the game was played under {game.rules.name} rules that "
                         "differ from the event's")
    if by_clock:
        game.call_time()
    if list(game.totals) != summary.get("totals"):
        raise EventError(f"{where}: the record does not replay: {report.message}")
    return TableResult(round_no, table_no, "online",
                       tuple(tuple(sc.total for sc in r.scores) for r in game.results),
                       tuple(game.totals), True, {"record": record})


def result_from_sheets(event: Event, round_no: int, table_no: int,
                       sheets: Sequence[dict[str, Any]], time_called: bool = False
                       ) -> TableResult:
    """The result of a real table from its scorer's sheets, one per hand played, in
    order. A sheet may leave out ``variant``: the table's rules are used. Fewer sheets
    than the game's hands means time was called (say so with ``time_called``)."""
    table = _table(event, round_no, table_no)
    rules = event.table_rules(table)
    where = f"round {round_no}, table {table_no}"
    hands_max = rules.game.hands + (1 if rules.game.tie_break == "playoff-hand" else 0)
    if not sheets:
        raise EventError(f"{where}: give the score sheet of each hand played")
    if len(sheets) > hands_max:
        raise EventError(f"{where}: {len(sheets)} sheets, but a game of {rules.name} has "
                         f"{rules.game.hands} hand(s)")
    if len(sheets) < rules.game.hands and not time_called:
        raise EventError(f"{where}: {len(sheets)} sheet(s) for a game of {rules.game.hands} "
                         "hands; if time was called, say so (--time-called)")
    hands: list[tuple[int, ...]] = []
    scores: list[list[dict[str, Any]]] = []
    for i, sheet in enumerate(sheets):
        data = dict(sheet)
        label = f"{where}, sheet {i + 1}"
        if "variant" in data or "rules" in data:
            try:
                base = preset(str(data["variant"])) if "variant" in data else None
                theirs = Rules.from_dict(data["rules"], base) if "rules" in data else base
            except RulesError as e:
                raise EventError(f"{label}: {e}") from e
            assert theirs is not None
            theirs = dataclasses.replace(theirs, players=rules.players)
            if _scoring_part(theirs) != _scoring_part(rules):
                diff = ", ".join(k for k, _, _ in theirs.changes_from(rules)
                                 if not k.startswith(("game.", "words.")))
                raise EventError(f"{label}: it is for {theirs.name} rules, but the table plays "
                                 f"{rules.name} (they differ in {diff})")
        _check_names(event, table, data, label)
        data.pop("variant", None)
        data["rules"] = rules.to_dict()
        number = data.setdefault("hand", i + 1)
        if number != i + 1:
            raise EventError(f"{label}: it says hand {number}; give the sheets in the order "
                             "of the hands, from hand 1")
        try:
            _, scored = score_sheet(data)
        except ScoreSheetError as e:
            raise EventError(f"{label}: {e}") from e
        hands.append(tuple(t.score.total for t in scored))
        scores.append([{"name": t.name, **t.score.to_json()} for t in scored])
    totals = tuple(sum(h[t] for h in hands) for t in range(rules.players.teams))
    return TableResult(round_no, table_no, "paper", tuple(hands), totals,
                       time_called or len(sheets) < rules.game.hands,
                       {"sheets": [dict(s) for s in sheets], "scores": scores})


def _check_names(event: Event, table: TableAssignment, sheet: dict[str, Any],
                 label: str) -> None:
    """A player named on a sheet who is registered must be on that team at this table
    (the teams of a sheet come in the order of the table's teams)."""
    teams = sheet.get("teams")
    if not isinstance(teams, list):
        return
    known = {p.name.casefold(): p.id for p in event.players}
    for t, team in enumerate(teams[:table.teams]):
        players = team.get("players") if isinstance(team, dict) else None
        for entry in players if isinstance(players, list) else []:
            name = entry.get("name") if isinstance(entry, dict) else None
            pid = known.get(name.strip().casefold()) if isinstance(name, str) else None
            if pid is None or pid in table.team_members(t):
                continue
            where = next((f"team {k + 1}" for k in range(table.teams)
                          if pid in table.team_members(k)), "another table")
            raise EventError(f"{label}: team {t + 1} lists {name}, who plays for {where} "
                             "(give the teams in the order of the score sheet)")


def play_table(event: Event, round_no: int, table_no: int, bots: Sequence[str],
               seed: int, minutes_per_turn: float = 0.0) -> Game:
    """Computer players play a table's game in-process. With ``minutes_per_turn`` a
    simulated clock runs: each turn takes that long, and when the event's time limit
    is reached the monitor calls time (what happens to the hand in play follows
    ``game.when_time_is_called``)."""
    table = _table(event, round_no, table_no)
    rules = event.table_rules(table)
    game = Game(rules, seed)
    limit = event.time_limit_minutes
    clock = {"turns": 0}

    def tick(g: Game, seat: int, action: Any) -> None:
        if action.kind in ("discard", "end-turn"):
            clock["turns"] += 1
        if limit and minutes_per_turn and clock["turns"] * minutes_per_turn >= limit:
            g.call_time()

    play(game, seat_bots(rules, list(bots), seed), hands=None, on_action=tick)
    return game


def turns_played(game: Game) -> int:
    return sum(hand_turns(r) for r in game.results)
