"""The house rule ``turn.take_back_turn``: the cards a player added and the melds they laid
this turn (once the team is down) may be taken back into the hand until the discard.
Off in every preset; the engine checks it like every other move; the record keeps it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from handfoot.actions import AddToMeld, Discard, LayMeld, TakeBack
from handfoot.bots import RandomBot
from handfoot.game import Game
from handfoot.game.narrate import narrate
from handfoot.game.narrate import play as told
from handfoot.game.records import game_record, replay
from handfoot.rules import PRESET_NAMES, Rules, preset


def with_take_back(name: str) -> Rules:
    rules = preset(name)
    return dataclasses.replace(rules, turn=dataclasses.replace(rules.turn, take_back_turn=True))


def snapshot(game: Game, seat: int) -> tuple[object, ...]:
    """The seat's hand and its team's melds, as the table and the player see them."""
    hand = game.hand
    team = hand.team_of[seat]
    return (list(hand.hands[seat]), hand.hand_len[seat], hand.held[seat].bits,
            [list(m.cards) for m in hand.melds[team]])


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_off_in_every_preset_and_refused_there(name: str) -> None:
    assert preset(name).turn.take_back_turn is False
    game = Game(preset(name), seed=2)
    rng = random.Random(1)
    for _ in range(3000):
        if game.over:
            break
        hand = game.hand
        team = hand.team_of[game.actor]
        if hand.phase.name == "PLAY" and hand.opened[team] and hand.melds[team]:
            why = hand.refusal(TakeBack(0), game.actor)
            assert why is not None and "stay on the table" in str(why)
            assert not any(isinstance(a, TakeBack) for a in game.legal_actions())
            return
        game.play(rng.choice(list(game.legal_actions())))
    pytest.fail("no team went down")


@pytest.mark.parametrize("name", ["classic", "texas-good-sam", "samba"])
def test_taking_back_every_play_of_a_turn_leaves_the_turn_as_it_began(name: str) -> None:
    game = Game(with_take_back(name), seed=4)
    rng = random.Random(7)
    checked = 0
    while not game.over and checked < 40:
        hand = game.hand
        seat = game.actor
        team = hand.team_of[seat]
        legal = list(game.legal_actions())
        plays = [a for a in legal if isinstance(a, LayMeld | AddToMeld)]
        if hand.phase.name != "PLAY" or not hand.opened[team] or not plays \
                or hand.turn_plays:
            game.play(rng.choice(legal))
            continue
        before = snapshot(game, seat)
        for _ in range(rng.randint(1, 4)):  # some plays, then each taken back
            plays = [a for a in game.legal_actions() if isinstance(a, LayMeld | AddToMeld)]
            if not plays or game.hand.actor != seat or game.hand.phase.name != "PLAY":
                break
            game.play(rng.choice(plays))
        if game.over or game.hand.actor != seat:
            continue  # the last card went out: nothing to take back
        while True:
            backs = [a for a in game.legal_actions() if isinstance(a, TakeBack)]
            if not backs:
                break
            # each is one the engine accepts, and a meld untouched this turn it refuses
            untouched = [i for i in range(len(game.hand.melds[team]))
                         if game.hand.turn_play(i) < 0]
            for i in untouched:
                assert game.hand.refusal(TakeBack(i), seat) is not None
            move = told(game, seat, rng.choice(backs))
            assert narrate(move, seat).startswith("You took back ")
        assert snapshot(game, seat) == before
        checked += 1
    assert checked >= 10


def test_the_plays_stay_once_the_turn_is_over_and_the_record_keeps_the_take_backs() -> None:
    game = Game(with_take_back("classic"), seed=6)
    rng = random.Random(2)
    taken_back = 0
    for _ in range(4000):
        if game.over:
            break
        hand = game.hand
        seat = game.actor
        legal = list(game.legal_actions())
        backs = [a for a in legal if isinstance(a, TakeBack) and hand.opened[hand.team_of[seat]]]
        if backs and rng.random() < 0.4:
            game.play(backs[0])
            taken_back += 1
            continue
        action = rng.choice(legal)
        changed = hand.turn_plays
        game.play(action)
        if isinstance(action, Discard) and changed and not game.over:
            # the turn is over: nothing it laid or added can be taken back any more
            assert game.hand.turn_plays == ()
            for i, _ in changed:
                assert game.hand.refusal(TakeBack(i), seat) is not None
    assert taken_back > 20
    record = game_record(game)
    assert record["rules"]["turn"]["take_back_turn"] is True
    assert any(a.get("type") == "take-back" for h in record["hands"] for a in
               (x if isinstance(x, dict) else x[1] for x in h["actions"]))
    report = replay(record)
    assert report.ok, report


@pytest.mark.parametrize("name", ["classic", "texas-good-sam"])
def test_the_easy_computer_never_takes_back_a_play_of_its_turn(name: str) -> None:
    """Choosing at random among the moves, it still never undoes a play once down."""
    rules = with_take_back(name)
    game = Game(rules, 7)
    bots = [RandomBot(seed=s) for s in range(rules.players.seats)]
    offered = 0
    for _ in range(20_000):
        if game.over:
            break
        legal = game.legal_actions()
        seat = game.actor
        action = bots[seat].choose(None, legal)
        if game.hand.opened[game.hand.team_of[seat]]:
            offered += any(isinstance(a, TakeBack) for a in legal)
            assert not isinstance(action, TakeBack)
        game.apply(action)
    assert game.over and offered > 0
