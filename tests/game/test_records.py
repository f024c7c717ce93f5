"""Game records (docs/records.md) and ``handfoot replay``: bot games of every preset
replay; a record changed in its actions, deal or results fails, naming the change."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from handfoot.actions import action_from_json, action_to_json, parse_action
from handfoot.arena import play, seat_bots
from handfoot.cards import card_code
from handfoot.cli import main
from handfoot.game import Game
from handfoot.game.records import FORMAT, VERSION, dumps, game_record, load, replay
from handfoot.rules import PRESET_NAMES, preset

PRESETS = ("texas-good-sam", "alabama-samboree", "classic", "samba", "six-deck")


def bot_game(variant: str, seed: int, hands: int | None) -> Game:
    rules = preset(variant)
    game = Game(rules, seed)
    play(game, seat_bots(rules, ["random"], seed), hands=hands)
    return game


def record_of(game: Game) -> dict[str, Any]:
    """The record as it would be read back from its file."""
    names = [f"bot {s + 1}" for s in range(game.rules.players.seats)]
    data: dict[str, Any] = json.loads(dumps(game_record(game, names, {"event": "test"})))
    return data


@pytest.fixture(scope="module")
def texas_record() -> dict[str, Any]:
    return record_of(bot_game("texas-good-sam", 3, None))


def test_presets_are_the_five_sheets() -> None:
    assert tuple(PRESET_NAMES) == PRESETS


@pytest.mark.parametrize("variant", PRESETS)
def test_one_hand_replays(variant: str) -> None:
    game = bot_game(variant, 11, 1)
    record = record_of(game)
    assert record["format"] == FORMAT and record["version"] == VERSION
    assert len(record["hands"]) == 1
    hand = record["hands"][0]
    assert hand["number"] == 1 and hand["result"] is not None
    assert record["result"]["complete"] == (game.rules.game.hands == 1 and game.over)
    report = replay(record)
    assert report.ok, report.message
    assert report.actions_checked == len(hand["actions"]) > 0
    assert report.game is not None and report.game.totals == game.totals


@pytest.mark.parametrize("variant", PRESETS)
def test_whole_game_replays(variant: str) -> None:
    game = bot_game(variant, 7, None)
    assert game.over
    record = record_of(game)
    assert len(record["hands"]) >= preset(variant).game.hands
    assert [h["number"] for h in record["hands"]] == list(range(1, len(record["hands"]) + 1))
    assert record["result"] == {"complete": True, "totals": game.totals,
                                "winners": game.winners, "tie_break": game.tie_break,
                                "time_called_at": None}
    assert sum(sum(h["result"]["totals"][t] for h in record["hands"])
               for t in range(2)) == sum(game.totals)
    report = replay(record)
    assert report.ok, report.message
    assert report.actions_checked == sum(len(h["actions"]) for h in record["hands"])
    assert report.game is not None and report.game.winners == game.winners


def test_record_of_a_hand_in_play_replays() -> None:
    game = bot_game("classic", 2, None)
    rules = preset("classic")
    live = Game(rules, 2)
    bots = seat_bots(rules, ["random"], 2)
    for _ in range(40):
        seat = live.actor
        live.apply(bots[seat].choose(None, live.legal_actions()), seat)
    record = record_of(live)
    assert record["hands"][-1]["result"] is None
    assert record["result"]["complete"] is False
    report = replay(record)
    assert report.ok, report.message
    assert report.actions_checked == 40
    # the same 40 actions begin the finished game of the same seed
    assert record["hands"][0]["actions"] == record_of(game)["hands"][0]["actions"][:40]


def test_record_fields(texas_record: dict[str, Any]) -> None:
    r = texas_record
    assert set(r) == {"format", "version", "rules", "seed", "players", "info", "hands", "result"}
    assert r["rules"]["name"] == "texas-good-sam"
    assert r["players"] == ["bot 1", "bot 2", "bot 3", "bot 4"]
    assert r["info"] == {"event": "test"}
    hand = r["hands"][0]
    assert set(hand) == {"number", "deal", "actions", "result"}
    assert set(hand["deal"]) == {"order", "first_seat", "grabs", "shuffles"}
    assert len(hand["deal"]["order"]) == preset("texas-good-sam").num_cards == 270
    assert len(hand["deal"]["grabs"]) == 4
    assert set(hand["result"]) == {"ended_by", "went_out", "scores", "totals"}
    assert all(isinstance(a["seat"], int) and isinstance(a["type"], str)
               for a in hand["actions"])


@pytest.mark.parametrize("variant", PRESETS)
def test_actions_round_trip_through_json_and_notation(variant: str) -> None:
    game = bot_game(variant, 4, 1)
    kinds = set()
    for _, action in game.results[0].actions:
        kinds.add(action.kind)
        assert action_from_json(action_to_json(action)) == action
        assert parse_action(action.notation()) == action
    assert {"draw", "discard"} <= kinds


def _first(record: dict[str, Any], kind: str, after: int = 0) -> int:
    actions = record["hands"][0]["actions"]
    return next(k for k in range(after, len(actions)) if actions[k]["type"] == kind)


def test_illegal_action_fails_at_that_action(texas_record: dict[str, Any]) -> None:
    bad = copy.deepcopy(texas_record)
    k = _first(bad, "draw", after=10)
    seat = bad["hands"][0]["actions"][k]["seat"]
    # a discard where the player must draw first
    bad["hands"][0]["actions"][k] = {"seat": seat, "type": "discard", "card": "QH"}
    report = replay(bad)
    assert not report.ok
    assert report.message.startswith(f"hand 1, action {k + 1} (")
    assert "'discard'" in report.message and "illegal" in report.message
    assert report.actions_checked == k


def test_action_by_the_wrong_seat_fails(texas_record: dict[str, Any]) -> None:
    bad = copy.deepcopy(texas_record)
    k = _first(bad, "discard", after=20)
    action = bad["hands"][0]["actions"][k]
    action["seat"] = (action["seat"] + 1) % 4
    report = replay(bad)
    assert not report.ok
    assert f"hand 1, action {k + 1}" in report.message and "not your turn" in report.message


def test_discarding_a_card_not_held_fails(texas_record: dict[str, Any]) -> None:
    k = _first(texas_record, "discard", after=30)
    seat = texas_record["hands"][0]["actions"][k]["seat"]
    # replay up to that discard to see what the player holds
    upto = copy.deepcopy(texas_record)
    upto["hands"][0]["actions"] = upto["hands"][0]["actions"][:k]
    upto["hands"][0]["result"] = None
    del upto["result"]
    before = replay(upto)
    assert before.ok and before.game is not None, before.message
    held = {card_code(c) for c in before.game.hand.hand_cards(seat)}
    missing = next(c for c in ("JK", "2C", "AS", "KH", "QD", "4C") if c not in held)
    bad = copy.deepcopy(texas_record)
    bad["hands"][0]["actions"][k]["card"] = missing
    report = replay(bad)
    assert not report.ok
    assert report.message.startswith(f"hand 1, action {k + 1} (")
    assert missing in report.message and report.actions_checked == k


def test_unreadable_action_fails(texas_record: dict[str, Any]) -> None:
    bad = copy.deepcopy(texas_record)
    bad["hands"][0]["actions"][3] = {"seat": 1, "type": "teleport"}
    report = replay(bad)
    assert not report.ok
    assert report.message.startswith("hand 1, action 4 (")
    assert "teleport" in report.message


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r["hands"][0]["result"]["totals"].__setitem__(0, 1),
     "hand 1: recorded totals [1, "),
    (lambda r: r["hands"][0]["result"].__setitem__("ended_by", "out"),
     "hand 1: recorded ended_by out but the replay gives stock"),
    (lambda r: r["hands"][0]["result"].__setitem__("went_out", 2),
     "hand 1: recorded went_out 2 but the replay gives None"),
    (lambda r: r["hands"][0]["result"]["scores"][1].__setitem__("table_cards", 1),
     "hand 1: recorded table_cards 1 for team 2 but the replay gives "),
    (lambda r: r["result"]["totals"].__setitem__(1, 99999),
     "recorded totals "),
    (lambda r: r["result"].__setitem__("winners", [0, 1]),
     "recorded winners [0, 1] but the replay gives "),
    (lambda r: r["result"].__setitem__("complete", False),
     "the record says the game is not over, the replay says over"),
])
def test_altered_result_fails_naming_the_difference(
        texas_record: dict[str, Any], change: Any, message: str) -> None:
    bad = copy.deepcopy(texas_record)
    change(bad)
    report = replay(bad)
    assert not report.ok
    assert message in report.message


def test_changed_deal_order_fails(texas_record: dict[str, Any]) -> None:
    rules = preset("texas-good-sam")
    stack = rules.deal.hand_size + rules.deal.foot_size
    order = texas_record["hands"][0]["deal"]["order"]
    # seat 0's stacks swapped with seat 1's: each now holds the other's cards
    bad = copy.deepcopy(texas_record)
    bad["hands"][0]["deal"]["order"] = (order[stack:2 * stack] + order[:stack]
                                        + order[2 * stack:])
    assert bad["hands"][0]["deal"]["order"] != order
    report = replay(bad)
    assert not report.ok and report.message.startswith("hand 1"), report.message
    # the stock upside down
    bad = copy.deepcopy(texas_record)
    bad["hands"][0]["deal"]["order"] = order[:4 * stack] + order[4 * stack:][::-1]
    report = replay(bad)
    assert not report.ok and report.message.startswith("hand 1"), report.message
    # one card changed: not the cards of five decks
    bad = copy.deepcopy(texas_record)
    bad["hands"][0]["deal"]["order"][0] = "JK" if order[0] != "JK" else "QH"
    report = replay(bad)
    assert not report.ok
    assert "the deal does not hold exactly the cards" in report.message


def test_changed_first_seat_and_grabs_fail(texas_record: dict[str, Any]) -> None:
    bad = copy.deepcopy(texas_record)
    deal = bad["hands"][0]["deal"]
    deal["first_seat"] = (deal["first_seat"] + 1) % 4
    report = replay(bad)
    assert not report.ok and "hand 1, action 1" in report.message
    # an exact grab now earns its 100 points, which the recorded score lacks
    bad = copy.deepcopy(texas_record)
    grabs = bad["hands"][0]["deal"]["grabs"]
    seat = next(s for s, g in enumerate(grabs) if g != 22)
    grabs[seat] = 22
    report = replay(bad)
    assert not report.ok and "hand 1: recorded" in report.message


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r["hands"][0]["deal"].__setitem__("grabs", [22]), "grabs [22]"),
    (lambda r: r["hands"][0].__setitem__("actions", 5), "actions is not a list"),
    (lambda r: r["hands"][0].__setitem__("result", [1]), "result is not an object"),
    (lambda r: r.__setitem__("result", [1]), "the game's result is not an object"),
    (lambda r: r.__setitem__("hands", [5]), "hand 1 is not an object"),
    (lambda r: r.__setitem__("seed", [1]), "the seed [1] is not a whole number"),
    (lambda r: r["hands"][0].pop("deal"), "hand 1: the deal is not readable"),
    (lambda r: r.__setitem__("rules", []), "the rule set is not valid"),
    (lambda r: r.__setitem__("version", 3), "record version 3 is not supported"),
    (lambda r: r.__setitem__("format", "pgn"), "this is not a handfoot-record file"),
    (lambda r: r["hands"].append(copy.deepcopy(r["hands"][0])),
     "hand 2: the game was already over"),
    (lambda r: r["hands"][0]["actions"].pop(),
     "hand 1: the record says it ended, but after its actions it is still being played"),
])
def test_malformed_record_is_reported_not_raised(
        texas_record: dict[str, Any], change: Any, message: str) -> None:
    bad = copy.deepcopy(texas_record)
    change(bad)
    report = replay(bad)
    assert not report.ok
    assert message in report.message


def test_replay_command_exit_codes(texas_record: dict[str, Any], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(dumps(texas_record), "utf-8")
    assert main(["replay", str(good)]) == 0
    assert capsys.readouterr().out.startswith("OK: ")
    assert load(good) == texas_record

    bad_record = copy.deepcopy(texas_record)
    bad_record["result"]["winners"] = [0, 1]
    bad = tmp_path / "bad.json"
    bad.write_text(dumps(bad_record), "utf-8")
    assert main(["replay", str(bad)]) == 1
    assert capsys.readouterr().out.startswith("FAILED: recorded winners")

    for name, text in (("broken.json", "{\"format\": "), ("list.json", "[]")):
        path = tmp_path / name
        path.write_text(text, "utf-8")
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("handfoot: ") and name in err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("variant", PRESETS)
def test_sim_records_are_byte_identical_and_replay(
        variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dirs = [tmp_path / "a", tmp_path / "b"]
    for d in dirs:
        assert main(["sim", "--variant", variant, "--hands", "3", "--seed", "5",
                     "--record-dir", str(d)]) == 0
    capsys.readouterr()
    names = sorted(p.name for p in dirs[0].iterdir())
    assert names == ["hand-00000.json", "hand-00001.json", "hand-00002.json"]
    assert sorted(p.name for p in dirs[1].iterdir()) == names
    for name in names:
        assert (dirs[0] / name).read_bytes() == (dirs[1] / name).read_bytes()
        assert main(["replay", str(dirs[0] / name)]) == 0
    assert capsys.readouterr().out.count("OK: ") == 3
    # the three hands are different deals
    orders = {tuple(load(dirs[0] / n)["hands"][0]["deal"]["order"]) for n in names}
    assert len(orders) == 3


@pytest.mark.parametrize("when", ["end-hand", "finish-hand"])
def test_a_game_stopped_by_the_clock_replays(when: str) -> None:
    import dataclasses
    import random

    from handfoot.game import Game
    from handfoot.game.records import game_record, replay
    from handfoot.rules import preset

    base = preset("alabama-samboree")
    rules = dataclasses.replace(base, game=dataclasses.replace(base.game,
                                                                when_time_is_called=when))
    game = Game(rules, seed=4)
    rng = random.Random(4)
    while len(game.results) < 1:
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    game.call_time()
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.results) == 2
    # end-hand: the hand stops where it is; finish-hand: it is played out, then no new hand.
    expected = {"time"} if when == "end-hand" else {"out", "stock"}
    assert game.results[-1].ended_by in expected
    record = game_record(game)
    assert record["result"]["time_called_at"] == [2, 30]
    report = replay(record)
    assert report.ok, report.message
    record["result"]["time_called_at"] = None
    assert not replay(record).ok


DATA = Path(__file__).parents[1] / "data"


@pytest.mark.parametrize("name", ["texas-good-sam", "classic", "samba", "six-deck"])
def test_a_record_written_before_moves_one_meld_at_a_time_still_replays(name: str) -> None:
    # Written by handfoot at 70f73e9 (record version 1): whole openings as one lay-down,
    # classic's openings laid with the pile.
    record = load(DATA / f"record-v1-{name}.json")
    assert record["version"] == 1
    types = {a["type"] for h in record["hands"] for a in h["actions"]}
    assert "lay-down" in types and not types & {"meld", "take-back", "go-down"}
    report = replay(record)
    assert report.ok, report.message
    assert report.game is not None
    assert report.game.totals == record["result"]["totals"]


def test_a_record_holds_melds_laid_out_taken_back_and_going_down() -> None:
    rules = preset("six-deck")
    for seed in range(20):
        game = play(Game(rules, seed), seat_bots(rules, ["random"], seed), hands=1)
        record = game_record(game)
        types = {a["type"] for h in record["hands"] for a in h["actions"]}
        if {"meld", "take-back"} <= types:
            break
    else:  # pragma: no cover
        pytest.fail("no random hand laid out and took back a meld")
    assert record["version"] == VERSION == 2
    report = replay(json.loads(dumps(record)))
    assert report.ok, report.message
    assert report.game is not None and report.game.totals == game.totals
