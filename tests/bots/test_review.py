"""The review of a game record: the hard player's preferred move at each decision and the
cost of the move played in expected points; the three costliest decisions of each hand
in plain words; the same review every time for the same record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from caught_positions import pile_position
from handfoot.actions import DRAW, Action, AddToMeld, Discard, TakePile
from handfoot.arena import seat_bots
from handfoot.bots.review import ReviewError, record_seed, review, review_text, words
from handfoot.cards import JOKER
from handfoot.cli import main
from handfoot.game import Game
from handfoot.game.records import game_record
from handfoot.game.views import seat_view
from handfoot.rules import preset


def planted(name: str, seed: int) -> tuple[dict[str, Any], int]:
    """A hand of medium players in which, the first time a player would put a joker
    onto a meld to complete a book, it discards the joker instead: (the record, the
    blunder's place in the hand's actions)."""
    rules = preset(name)
    game = Game(rules, seed)
    bots = seat_bots(rules, ("heuristic",), seed)
    at = -1
    while not game.results:
        seat = game.actor
        legal = game.legal_actions()
        a: Action = bots[seat].choose(None, legal)
        hand = game.hand
        if at < 0 and isinstance(a, AddToMeld) and JOKER in a.cards and Discard(JOKER) in legal:
            meld = hand.melds[hand.team_of[seat]][a.meld]
            if len(meld.cards) + len(a.cards) >= rules.meld.book_size:
                at, a = len(hand.history), Discard(JOKER)
        game.apply(a, seat)
    assert at >= 0
    return game_record(game), at


def short_record() -> dict[str, Any]:
    """One short hand of alabama-samboree played by medium players."""
    rules = preset("alabama-samboree")
    game = Game(rules, 5)
    bots = seat_bots(rules, ("heuristic",), 5)
    while not game.results:
        game.apply(bots[game.actor].choose(None, game.legal_actions()), game.actor)
    return game_record(game)


@pytest.mark.slow
def test_a_planted_blunder_is_reviewed_and_named() -> None:
    record, at = planted("alabama-samboree", 4)  # (the joker would complete a book)
    r = review(record)
    worst = r.costliest(1)
    assert at in [d.index for d in worst], review_text(r)
    blunder = next(d for d in worst if d.index == at)
    assert blunder.played == Discard(JOKER) and blunder.preferred != Discard(JOKER)
    assert blunder.cost >= 2 * blunder.se and blunder.cost >= 100
    assert blunder.text.startswith("Discarding the joker cost about ")
    assert blunder.text in review_text(r)
    # the JSON gives each decision's move played, move preferred and cost
    hand = r.to_json()["hands"][0]
    entry = next(d for d in hand["decisions"] if d["index"] == at)
    assert entry["played"] == {"type": "discard", "card": "JK"}
    assert entry["preferred"] != entry["played"] and entry["cost"] == round(blunder.cost)
    assert at in hand["costliest"]
    # every decision the hard player would have made the same costs nothing
    assert all(d.cost == 0.0 for d in r.decisions if d.played == d.preferred)


def test_a_review_is_the_same_twice_for_the_same_record() -> None:
    record = short_record()
    first = review(record, worlds=3, search=4).to_json()
    again = review(json.loads(json.dumps(record)), worlds=3, search=4).to_json()
    assert first == again
    assert any(d["cost"] > 0 for h in first["hands"] for d in h["decisions"])
    # the review's seed is the record's play, not its file's layout nor the game's seed
    assert record_seed({**record, "seed": None, "info": {}}) == record_seed(record)
    changed = json.loads(json.dumps(record))
    changed["hands"][0]["actions"].pop()
    assert record_seed(changed) != record_seed(record)


def test_a_costly_pile_is_told_in_plain_words() -> None:
    game = pile_position(late=True)
    view = seat_view(game, 0)
    take = next(a for a in game.legal_actions() if isinstance(a, TakePile))
    assert words(view, game.rules, take, DRAW, 912) == (
        "Taking the 37-card pile cost about 900 points: it held 10 red 3s and the "
        "opponents had 1 and 2 cards left; drawing from the stock was better.")
    assert words(view, game.rules, DRAW, DRAW, 0) == (
        "Drawing from the stock was the best move here.")


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = short_record()
    record["hands"][0]["actions"][3]["seat"] = (record["hands"][0]["actions"][3]["seat"] + 1) % 4
    with pytest.raises(ReviewError, match="hand 1, action 4"):
        review(record, worlds=2, search=2)


def test_the_review_command_prints_each_hand_s_costliest_decisions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(short_record()))
    assert main(["review", str(path), "--worlds", "2", "--search", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "handfoot-review" and out["worlds"] == 2
    decisions = out["hands"][0]["decisions"]
    assert decisions and all({"played", "preferred", "cost", "text"} <= set(d) for d in decisions)
    assert main(["review", str(path), "--worlds", "2", "--search", "4"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Reviewed by the hard player") and "Hand 1:" in text
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert main(["review", str(bad)]) == 2
    assert "not a record" in capsys.readouterr().err
