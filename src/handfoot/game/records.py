"""Game records: a documented JSON format, as PGN is for chess (docs/records.md).

A record holds the full rule set, each hand's deal (the order of every card, so
that the record stands without our random generator, plus any reshuffles made
during the hand), every action with the seat that made it, and each hand's and
the game's result. :func:`replay` re-applies every action through the engine's
own checks and compares the results.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handfoot.actions import Action, ActionSyntaxError, action_from_json, action_to_json
from handfoot.cards import CardError, card_code, parse_card
from handfoot.engine import Deal, IllegalAction, full_deck
from handfoot.game import Game, HandResult
from handfoot.game.fair import SCHEME, check_commitment, commitment
from handfoot.rules import Rules, RulesError

FORMAT = "handfoot-record"
#: 2: moves one meld at a time ("meld", "take-back", "go-down"; "add" of one card or
#: more). Version 1 records (whole openings as one "lay-down") are still read: every
#: version 1 action is a version 2 action with the same meaning.
VERSION = 2
VERSIONS = (1, 2)


class RecordError(ValueError):
    """A record that cannot be read."""


def _deal_json(deal: Deal) -> dict[str, Any]:
    return {
        "order": [card_code(c) for c in deal.order],
        "first_seat": deal.first_seat,
        "grabs": list(deal.grabs),
        "shuffles": [[card_code(c) for c in s] for s in deal.shuffles],
    }


def deal_commitment(deal: Deal, salt: str) -> str:
    """The commitment to a hand's deal: its card order and exact-grab counts
    (:func:`handfoot.game.fair.commitment`, scheme 2)."""
    return commitment([card_code(c) for c in deal.order], salt, list(deal.grabs))


def commitments_json(game: Game, salt_of: Callable[[int], str]) -> list[dict[str, Any]]:
    """Each hand dealt so far: its number, the commitment shown when it was dealt and
    the salt that opens it (the record's ``commitments``; reveal only when over)."""
    deals = [(r.number, r.deal) for r in game.results]
    if not game.over:
        deals.append((game.hand.hand_number, game.hand.deal))
    return [{"hand": n, "sha256": deal_commitment(d, salt_of(n)), "salt": salt_of(n),
             "v": SCHEME} for n, d in deals]


def _check_commitments(record: dict[str, Any]) -> tuple[str, int]:
    """An error ("" if none) and how many hands' commitments were checked. Every hand's
    deal (its card order and, scheme 2, its exact-grab counts) is covered by exactly
    one commitment, in order (hand 1 first); a game not over may have one more, for the
    hand dealt but not yet played."""
    entries = record.get("commitments")
    if entries is None:
        return "", 0
    hands = record.get("hands")
    if not isinstance(entries, list) or not isinstance(hands, list):
        return "the commitments are not a list", 0
    result = record.get("result")
    complete = isinstance(result, dict) and bool(result.get("complete"))
    for k, e in enumerate(entries):
        if not (isinstance(e, dict) and type(e.get("hand")) is int
                and isinstance(e.get("sha256"), str) and isinstance(e.get("salt"), str)
                and e.get("v", 1) in (1, SCHEME)):
            return f"the commitment {e!r} is not {{hand, sha256, salt, v}}", 0
        n = e["hand"]
        if n != k + 1:
            earlier = [x["hand"] for x in entries[:k]]
            if n in earlier:
                return f"hand {n}: it has more than one commitment", 0
            return (f"hand {k + 1}: no commitment covers its deal (the commitment in its "
                    f"place is numbered {n})"), 0
    if len(entries) < len(hands):
        return f"hand {len(entries) + 1}: no commitment covers its deal", 0
    if len(entries) > len(hands) + (0 if complete else 1):
        return (f"hand {len(entries)}: there is a commitment, but the record holds no "
                "such hand"), 0
    checked = 0
    for n, h in enumerate(hands, start=1):
        e = entries[n - 1]
        deal = h.get("deal") if isinstance(h, dict) else None
        if isinstance(h, dict) and h.get("number", n) != n:
            return f"hand {n}: it is numbered {h.get('number')!r}", checked
        order = deal.get("order") if isinstance(deal, dict) else None
        grabs = deal.get("grabs", []) if isinstance(deal, dict) else None
        if not isinstance(order, list) or not all(isinstance(c, str) for c in order) \
                or not isinstance(grabs, list) \
                or not all(type(g) is int for g in grabs):
            return f"hand {n}: the deal is not readable", checked
        if e.get("v", 1) == 1:  # an older server's: the card order alone
            if grabs:
                return (f"hand {n}: its commitment does not cover the deal's exact-grab "
                        "counts"), checked
            ok = check_commitment(order, e["salt"], e["sha256"])
        else:
            ok = check_commitment(order, e["salt"], e["sha256"], grabs)
        if not ok:
            return (f"hand {n}: the deal (its cards{'' if e.get('v', 1) == 1 else ' and grabs'}) "
                    "is not the one committed to when it was dealt (the commitment does not "
                    "match)"), checked
        checked += 1
    return "", checked


def _result_json(result: HandResult) -> dict[str, Any]:
    return {
        "ended_by": result.ended_by,
        "went_out": result.went_out,
        "scores": [s.to_json() for s in result.scores],
        "totals": [s.total for s in result.scores],
    }


def game_record(game: Game, players: Sequence[str] | None = None,
                info: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of a game so far (finished hands, and the hand in play if any)."""
    hands: list[dict[str, Any]] = []
    for r in game.results:
        hands.append({
            "number": r.number,
            "deal": _deal_json(r.deal),
            "actions": [{"seat": s, **action_to_json(a)} for s, a in r.actions],
            "result": _result_json(r),
        })
    if not game.over and game.hand.history:
        h = game.hand
        live = Deal(h.deal.order, h.deal.first_seat, h.deal.grabs, tuple(h.shuffles))
        hands.append({
            "number": h.hand_number,
            "deal": _deal_json(live),
            "actions": [{"seat": s, **action_to_json(a)} for s, a in h.history],
            "result": None,
        })
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "players": list(players) if players else [],
        "info": info or {},
        "hands": hands,
        "result": {
            "complete": game.over,
            "totals": list(game.totals),
            "winners": list(game.winners),
            "tie_break": game.tie_break,
            "time_called_at": list(game.time_called_at) if game.time_called_at else None,
        },
    }


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False)


def _parse_deal(data: Any, where: str) -> Deal:
    try:
        order = tuple(parse_card(c) for c in data["order"])
        shuffles = tuple(tuple(parse_card(c) for c in s) for s in data.get("shuffles", []))
        grabs = tuple(int(g) for g in data.get("grabs", []))
        first = data["first_seat"]
        if not isinstance(first, int):
            raise TypeError
    except (KeyError, TypeError, ValueError, CardError) as e:
        raise RecordError(f"{where}: the deal is not readable ({e})") from e
    return Deal(order, first, grabs, shuffles)


@dataclass(frozen=True, slots=True)
class ReplayReport:
    ok: bool
    message: str
    game: Game | None = None
    actions_checked: int = 0
    #: hands whose deal was checked against the commitment shown when it was dealt
    deals_verified: int = 0


#: called by :func:`replay` before each action is applied: (the game, the hand's number,
#: the action's place in the hand from 0, its seat, the action)
BeforeAction = Callable[[Game, int, int, int, Action], None]


def replay(record: dict[str, Any], before: BeforeAction | None = None) -> ReplayReport:
    """Re-apply every action of a record and compare the results; ``before``, if
    given, is called before each action is applied (a review reads the game there)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        return ReplayReport(False, f"this is not a {FORMAT} file")
    if record.get("version") not in VERSIONS:
        return ReplayReport(False, f"record version {record.get('version')} is not supported "
                                   f"(versions {', '.join(map(str, VERSIONS))} are)")
    try:
        rules = Rules.from_dict(record["rules"])
    except (KeyError, RulesError) as e:
        return ReplayReport(False, f"the rule set is not valid: {e}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        return ReplayReport(False, "the record has no list of hands")
    broken, verified = _check_commitments(record)
    if broken:
        return ReplayReport(False, broken)
    seeded = record.get("seed") is not None and bool(record.get("commitments"))
    if seeded:  # the seed fixes the deal and the salts: the commitments prove nothing
        verified = 0
    for i, h in enumerate(hands):
        if not isinstance(h, dict):
            return ReplayReport(False, f"hand {i + 1} is not an object")
        if not isinstance(h.get("actions", []), list):
            return ReplayReport(False, f"hand {i + 1}: actions is not a list")
        if not isinstance(h.get("result"), dict | None):
            return ReplayReport(False, f"hand {i + 1}: result is not an object")
    try:
        deals = [_parse_deal(h.get("deal"), f"hand {i + 1}") for i, h in enumerate(hands)]
    except RecordError as e:
        return ReplayReport(False, str(e))
    for i, d in enumerate(deals):
        if d.grabs and (len(d.grabs) != rules.players.seats or min(d.grabs) < 0):
            return ReplayReport(False, f"hand {i + 1}: the deal's grabs {list(d.grabs)} are not "
                                f"one count for each of the {rules.players.seats} seats")
    result = record.get("result") or {}
    if not isinstance(result, dict):
        return ReplayReport(False, "the game's result is not an object")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        return ReplayReport(False, f"the seed {seed!r} is not a whole number")
    tie_winner = None
    if result.get("tie_break") == "high-card" and result.get("winners"):
        tie_winner = result["winners"][0]
    # The game deals the next hand as soon as one ends: a record of a game still in
    # progress (as `handfoot sim` writes after each hand) has no deal for it, so a
    # placeholder (the decks in card order, never played) stands in for it.
    placeholder = Deal(tuple(full_deck(rules)), 0)
    try:
        game = Game(rules, seed, deals=[*deals, placeholder], tie_winner=tie_winner)
    except ValueError as e:
        return ReplayReport(False, f"hand 1: {e}")
    checked = 0
    time_at = result.get("time_called_at")
    if time_at is not None and not (isinstance(time_at, list) and len(time_at) == 2
                                    and all(isinstance(x, int) for x in time_at)):
        return ReplayReport(False, f"time_called_at {time_at!r} is not [hand, actions]")
    for i, h in enumerate(hands):
        number = i + 1
        if game.over:
            return ReplayReport(False, f"hand {number}: the game was already over", game, checked)
        actions = h.get("actions", [])
        for k, entry in enumerate([*actions, None]):
            if time_at is not None and time_at == [number, k]:
                game.call_time()  # the monitor called time here
            if entry is None:
                break
            where = f"hand {number}, action {k + 1}"
            try:
                action = action_from_json(entry)
                seat = entry.get("seat")
                if not isinstance(seat, int):
                    raise ActionSyntaxError("the action names no seat")
                if before is not None:
                    before(game, number, k, seat, action)
                game.apply(action, seat)
            except (ActionSyntaxError, IllegalAction) as e:
                return ReplayReport(False, f"{where} ({entry}) is illegal: {e}", game, checked)
            except ValueError as e:  # a recorded reshuffle that does not fit
                return ReplayReport(False, f"{where}: {e}", game, checked)
            checked += 1
        recorded = h.get("result")
        if recorded is None:
            if len(game.results) >= number:
                return ReplayReport(False, f"hand {number} ended, but the record says it was "
                                    "still being played", game, checked)
            continue
        if len(game.results) < number:
            return ReplayReport(False, f"hand {number}: the record says it ended, but after "
                                "its actions it is still being played", game, checked)
        mine = _result_json(game.results[number - 1])
        for key in ("ended_by", "went_out", "totals", "scores"):
            if key == "scores" and isinstance(recorded.get(key), list) \
                    and len(recorded[key]) == len(mine[key]):
                for team, (theirs, ours) in enumerate(zip(recorded[key], mine[key], strict=True)):
                    if not isinstance(theirs, dict):
                        break
                    for item, value in ours.items():
                        if theirs.get(item) != value:
                            return ReplayReport(
                                False, f"hand {number}: recorded {item} {theirs.get(item)} for "
                                f"team {team + 1} but the replay gives {value}", game, checked)
            if recorded.get(key) != mine[key]:
                return ReplayReport(False, f"hand {number}: recorded {key} {recorded.get(key)} "
                                    f"but the replay gives {mine[key]}", game, checked)
    if result:
        if bool(result.get("complete")) != game.over:
            return ReplayReport(False, f"the record says the game is "
                                f"{'over' if result.get('complete') else 'not over'}, the replay "
                                f"says {'over' if game.over else 'not over'}", game, checked)
        for key, mine_value in (("totals", list(game.totals)), ("winners", list(game.winners))):
            if result.get(key) != mine_value:
                return ReplayReport(False, f"recorded {key} {result.get(key)} but the replay "
                                    f"gives {mine_value}", game, checked)
    return ReplayReport(True, f"{checked} actions replayed; totals {list(game.totals)}"
                        + (f"; winner team {game.winners[0] + 1}" if len(game.winners) == 1
                           else "")
                        + (f"; deal verified ({verified} hands match their commitments)"
                           if verified else "")
                        + ("; dealt from a chosen seed, so the deal is not verified"
                           if seeded else ""), game, checked, verified)


def load(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from e
    if not isinstance(data, dict):
        raise RecordError(f"{path} is not a record")
    return data
