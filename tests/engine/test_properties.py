"""Property tests: random legal play in every preset and in random valid rule sets.

- play always ends;
- every card is always in exactly one place;
- every action that ``legal_actions()`` offers is accepted, and no two are equal;
- the legal actions a player is given (answering from a copy of the hand with every
  card that player cannot see face down) are exactly the hand's own;
- random illegal actions are refused and leave the state exactly as it was;
- the record of every such game replays to the same result.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot.actions import (
    GO_DOWN,
    Action,
    AddToMeld,
    AnswerGoOut,
    AskToGoOut,
    Discard,
    Draw,
    EndTurn,
    LayDown,
    LayMeld,
    PickUpFoot,
    TakeBack,
    TakePile,
    TakeUpcard,
)
from handfoot.cards import NUM_CARDS
from handfoot.engine import IllegalAction, full_deck
from handfoot.game import Game
from handfoot.game.records import game_record, replay
from handfoot.rules import (
    PRESET_NAMES,
    preset,
)
from helpers import snapshot
from strategies import rule_sets

MAX_ACTIONS = 20_000


def random_illegal(rng: random.Random, game: Game) -> Action:
    """A random action, mostly illegal: cards not held, wrong phase, bad melds."""
    cards = [rng.randrange(NUM_CARDS) for _ in range(rng.randint(1, 5))]
    choice = rng.randrange(14)
    if choice == 11:
        return LayMeld(tuple(cards))
    if choice == 12:
        return TakeBack(rng.randrange(4))
    if choice == 13:
        return GO_DOWN
    if choice == 0:
        return Discard(rng.randrange(NUM_CARDS))
    if choice == 1:
        return LayDown((tuple(cards),))
    if choice == 2:
        return LayDown((tuple(cards[:2]), tuple(cards[2:]) or (cards[0],)))
    if choice == 3:
        return AddToMeld(rng.randrange(6), tuple(cards))
    if choice == 4:
        return TakePile(tuple(cards[:2]), rng.randrange(9))
    if choice == 5:
        return Draw()
    if choice == 6:
        return PickUpFoot()
    if choice == 7:
        return AskToGoOut()
    if choice == 8:
        return AnswerGoOut(rng.random() < 0.5)
    if choice == 9:
        return EndTurn()
    return TakeUpcard()


def play_randomly(game: Game, seed: int, check_every: int = 1) -> int:
    rng = random.Random(seed)
    deck = Counter(full_deck(game.rules))
    actions = 0
    gave_up, gave_up_turn = False, (0, -1)
    while not game.over:
        hand = game.hand
        legal = game.legal_actions()
        assert legal, f"no legal action in phase {hand.phase.name}"
        if actions % check_every == 0:
            assert len(set(legal)) == len(legal), "legal_actions() lists an action twice"
            census = hand.card_census()
            assert Counter({c: n for c, n in enumerate(census) if n}) == deck
            for m in (m for team in hand.melds for m in team):  # what a meld keeps of itself
                assert m.size == len(m.cards) == m.naturals + m.wilds
            for offered in legal:
                hand.verify(offered)  # every offered action is accepted
            # The player is given legal actions that answer from a copy of the hand with
            # every card it cannot see face down; they answer exactly as the hand does.
            assert list(legal) == hand.legal_actions()
            bad = random_illegal(rng, game)
            assert (bad in legal) == hand.is_legal(bad)
            if not hand.is_legal(bad):
                before = snapshot(hand)
                with pytest.raises(IllegalAction) as refused:
                    game.apply(bad)
                assert str(refused.value)  # a message for the player
                assert snapshot(hand) == before
        moves = list(legal)
        turn = (hand.hand_number, hand.turn_number)
        if turn != gave_up_turn:
            gave_up = False
        backs = [m for m in moves if isinstance(m, TakeBack)]
        if gave_up and backs:
            choice: Action = backs[-1]
        else:
            if gave_up and not hand.opened[hand.team_of[hand.actor]]:
                # as the random bot: a turn that gave up an opening lays out no more
                moves = [m for m in moves if not isinstance(m, LayMeld)] or moves
            choice = rng.choice(moves)
        if isinstance(choice, TakeBack):
            # Laying out and taking back at random wanders for a very long time (the
            # walk back to no melds laid out is long): once one is taken back, all are.
            gave_up, gave_up_turn = True, turn
        game.apply(choice)
        actions += 1
        assert actions < MAX_ACTIONS, "the game did not end"
    return actions


def assert_replays(game: Game) -> None:
    report = replay(game_record(game))
    assert report.ok, report.message
    assert report.game is not None and report.game.totals == game.totals


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_of_a_whole_game_in_every_preset(name: str, seed: int) -> None:
    game = Game(preset(name), seed)
    play_randomly(game, seed, check_every=7)
    assert game.over and game.winners
    assert len(game.results) >= game.rules.game.hands or game.rules.game.target_score
    assert_replays(game)






@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_random_play_under_random_valid_rule_sets(data: st.DataObject, seed: int) -> None:
    rules = data.draw(rule_sets())
    game = Game(rules, seed)
    play_randomly(game, seed, check_every=3)
    assert game.over
    assert_replays(game)
