"""The arena and ``handfoot sim``: the same seed gives the same results and records
whatever ``--jobs``; duplicate deals swap the teams' seats; whole games; the win-rate
interval; the plot."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import handfoot.bots.heuristic
from handfoot.actions import Action
from handfoot.arena import SimSpec, chunks, play_chunk, simulate, wilson
from handfoot.arena.plots import plot_differences
from handfoot.bots import BOTS, RandomBot
from handfoot.cli import main
from handfoot.game.records import load
from handfoot.game.views import View
from handfoot.rules import preset

TIMING = ("seconds", "hands_per_second", "jobs")


class FirstBot(RandomBot):
    """Always the first legal action: plays differently from ``random``."""

    name = "first"

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        return legal[0]


def sim_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["sim", *args, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_wilson_interval() -> None:
    lo, hi = wilson(60, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.5020, 0.6906)
    assert wilson(0, 10)[0] == 0.0 and 0.0 < wilson(0, 10)[1] < 0.35
    assert wilson(10, 10)[1] == 1.0 and 0.65 < wilson(10, 10)[0] < 1.0
    # narrower with more hands, always around the observed rate
    assert wilson(500, 1000)[1] - wilson(500, 1000)[0] < wilson(5, 10)[1] - wilson(5, 10)[0]


def test_chunking_covers_every_deal_once() -> None:
    for n in (1, 7, 100, 1000):
        for jobs in (1, 2, 3, 8):
            parts = chunks(n, jobs)
            assert [i for a, b in parts for i in range(a, b)] == list(range(n))
    spec = SimSpec(preset("classic"), 4, ("random", "random"))
    assert play_chunk(spec, 0, 3) == play_chunk(spec, 0, 2) + play_chunk(spec, 2, 3)


def test_jobs_give_the_same_summary_and_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = []
    for jobs in ("1", "2"):
        out.append(sim_json(["--variant", "classic", "--hands", "6", "--seed", "9",
                             "--jobs", jobs, "--record-dir", str(tmp_path / jobs)], capsys))
    assert out[1]["jobs"] == 2 and out[0]["jobs"] == 1
    for data in out:
        assert data["hands_per_second"] > 0
        for key in TIMING:
            del data[key]
    assert out[0] == out[1]
    assert out[0]["played"] == 6 and sum(out[0]["wins"]) + out[0]["ties"] == 6
    names = sorted(p.name for p in (tmp_path / "1").iterdir())
    assert names == [f"hand-{i:05d}.json" for i in range(6)]
    assert sorted(p.name for p in (tmp_path / "2").iterdir()) == names
    for name in names:
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes()


def test_summary_numbers_match_the_records(tmp_path: Path) -> None:
    s = simulate(preset("six-deck"), 5, 3, ["random"], tmp_path)
    totals = [load(tmp_path / f"hand-{i:05d}.json")["hands"][0]["result"]["totals"]
              for i in range(5)]
    assert s.wins == [sum(1 for t in totals if t[0] > t[1]), sum(1 for t in totals if t[1] > t[0])]
    assert s.ties == sum(1 for t in totals if t[0] == t[1])
    assert s.mean_points[0] == round(sum(t[0] for t in totals) / 5, 1)
    assert s.differences == [t[0] - t[1] for t in totals]
    assert s.win_rate[0] == round(s.wins[0] / 5, 4)
    assert s.win_ci95[0] == [round(x, 4) for x in wilson(s.wins[0], 5)]
    assert s.mean_turns > 0 and s.hands == s.played == 5


def test_duplicate_swaps_the_seats_and_reports_per_bot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "first", FirstBot)
    s = simulate(preset("texas-good-sam"), 3, 1, ["first", "random"], tmp_path, duplicate=True)
    assert s.played == 6 and s.deals == 3 and s.duplicate
    assert sum(s.wins) + s.ties == 6
    for i in range(3):
        a = load(tmp_path / f"hand-{i:05d}.json")
        b = load(tmp_path / f"hand-{i:05d}-swapped.json")
        assert a["hands"][0]["deal"] == b["hands"][0]["deal"]  # the same cards
        assert a["players"] == ["first", "random", "first", "random"]
        assert b["players"] == ["random", "first", "random", "first"]
        assert (a["info"]["copy"], b["info"]["copy"]) == (0, 1)
        ta, tb = a["hands"][0]["result"]["totals"], b["hands"][0]["result"]["totals"]
        # "first" is entry 1: team 1 in the first play, team 2 in the swapped one
        assert s.differences[2 * i] == ta[0] - ta[1]
        assert s.differences[2 * i + 1] == tb[1] - tb[0]


def test_duplicate_of_a_bot_against_itself_cancels_exactly(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = sim_json(["--variant", "classic", "--hands", "3", "--seed", "2", "--duplicate"],
                    capsys)
    assert data["wins"][0] == data["wins"][1] and data["mean_difference"] == 0.0
    assert data["mean_points"][0] == data["mean_points"][1]


def test_whole_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = sim_json(["--variant", "alabama-samboree", "--games", "2", "--seed", "4",
                     "--record-dir", str(tmp_path)], capsys)
    assert data["unit"] == "games" and data["played"] == 2
    assert data["hands"] >= 6 and data["mean_hands"] >= 3
    assert sum(data["ended_by"].values()) == data["hands"]
    for i in range(2):
        record = load(tmp_path / f"game-{i:05d}.json")
        assert record["result"]["complete"] is True
        assert main(["replay", str(tmp_path / f"game-{i:05d}.json")]) == 0
    assert capsys.readouterr().out.count("OK: ") == 2


def test_text_summary_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "diff.png"
    assert main(["sim", "--variant", "six-deck", "--hands", "4", "--seed", "1",
                 "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "4 hands of six-deck" in out and "95% CI" in out and "tied: " in out
    assert "points per hand" in out and "turns per hand" in out and "hands per second" in out
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    # The count axis counts hands: whole numbers only, even for a few hands.
    ticks = plot_differences(simulate(preset("six-deck"), 3, 1, ["random"]), tmp_path / "b.png")
    assert ticks and all(t == int(t) for t in ticks)


@pytest.mark.parametrize("args", [
    ["--bots", "random,nobody"],
    ["--bots", "random,random,random"],
    ["--hands", "0"],
    ["--games", "0"],
    ["--jobs", "0"],
])
def test_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--variant", "classic", *args]) == 2
    assert capsys.readouterr().err.startswith("handfoot: ")


def test_turns_are_counted_when_going_out_ends_only_the_turn() -> None:
    """In texas-good-sam going out ends the turn, not the hand: every turn counts."""
    from handfoot.arena import hand_turns, play, seat_bots
    from handfoot.game import Game
    rules = preset("texas-good-sam")
    for seed in range(3):
        game = play(Game(rules, seed=seed), seat_bots(rules, ["heuristic"], seed))
        assert game.over and game.results[0].went_out is not None
        assert hand_turns(game.results[0]) == game.hand.turn_number


def test_a_bot_from_a_file_plays_as_the_same_bot_would(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # another version of a bot, saved in a file, is matched against this one; a copy of
    # the heuristic plays each duplicate deal exactly as the heuristic does
    copy = tmp_path / "old_heuristic.py"
    # (compiled or not, the source sits in the package's folder)
    copy.write_text((Path(handfoot.bots.heuristic.__file__).parent / "heuristic.py").read_text())
    data = sim_json(["--variant", "classic", "--hands", "6", "--seed", "5", "--duplicate",
                     "--jobs", "2", "--bots", f"heuristic,{copy}:HeuristicBot"], capsys)
    assert data["hands"] == 12 and data["wins"][0] == data["wins"][1]
    assert data["mean_difference"] == 0
    for bad in (f"{tmp_path}/none.py:HeuristicBot", f"{copy}:NoSuchBot"):
        assert main(["sim", "--variant", "classic", "--bots", f"heuristic,{bad}"]) == 2
        assert "cannot be loaded" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["classic", "six-deck"])
def test_the_next_hand_is_dealt_when_first_asked_for_and_deals_the_same(name: str) -> None:
    """A simulation of single hands never deals a hand it will not play: once a hand
    ends, the next is dealt when the game is first asked for it, and it is the deal the
    game would have dealt at once (its generator serves nothing else in between)."""
    from handfoot.arena import play, seat_bots
    from handfoot.game import Game

    rules = preset(name)
    one = play(Game(rules, 9), seat_bots(rules, ("random",), 9), hands=1)
    assert len(one.results) == 1 and not one.over
    assert one._hand is None  # not dealt yet
    two = play(Game(rules, 9), seat_bots(rules, ("random",), 9), hands=2)
    nxt = one.hand  # dealt now
    assert nxt.hand_number == 2 and one._hand is nxt and one.hand is nxt
    played = two.results[1].deal
    assert (nxt.deal.order, nxt.deal.first_seat, nxt.deal.grabs) == (
        played.order, played.first_seat, played.grabs)
    assert nxt.minimums == [rules.opening_minimum(2, t) for t in one.totals]
