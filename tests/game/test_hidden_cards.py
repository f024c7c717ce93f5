"""A bot is given its seat's view and the legal actions; nothing reachable from them
holds a card that seat cannot see.

Everything reachable from what a bot is handed (following every reference, as
``gc.get_referents`` does, except into classes, functions and modules, which hold
code, not state) is collected at every step of whole hands in every preset; none of
it is the game, its hand, its deal or its generator of chance, nor a list that holds
the stock, a foot or another player's cards. The legal actions answer from
:meth:`~handfoot.engine.Hand.seat_copy`, which shows every such card face down.
"""

from __future__ import annotations

import pytest

from handfoot.arena import seat_bots
from handfoot.engine import FACE_DOWN, Hand
from handfoot.game import Game
from handfoot.game.views import seat_view
from handfoot.rules import PRESET_NAMES, preset
from hidden import hidden_objects, reachable


def _check(game: Game, seat: int) -> None:
    view = seat_view(game, seat)
    legal = game.legal_actions()
    bare = game.legal_actions(copy=False)  # the random player's: no seat copy, no state
    hidden = hidden_objects(game, seat)
    hand = game.hand
    assert not any(isinstance(x, Hand) for x in reachable(bare))
    for x in reachable(view, legal, bare):
        assert id(x) not in hidden, f"a bot can reach {hidden[id(x)]}"
        if isinstance(x, Hand):  # the legal actions' copy: every unseen card face down
            assert x is not hand
            for s in range(x.seats):
                if s != seat:
                    assert not any(x.hands[s])
                assert all(c == FACE_DOWN for c in x.feet[s] or ())
            assert all(c == FACE_DOWN for c in x.stock)
            assert all(c == FACE_DOWN for c in x.pile[:-1])
            assert x.deal.order == ()
            assert x.shuffles == [] and x._replay_shuffles == []


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_nothing_a_bot_is_given_reaches_a_card_it_cannot_see(name: str) -> None:
    rules = preset(name)
    game = Game(rules, 5)
    bots = seat_bots(rules, ("heuristic",), 5)
    steps = 0
    while not game.results:
        seat = game.actor
        if steps % 7 == 0:
            _check(game, seat)
        game.apply(bots[seat].choose(seat_view(game, seat), game.legal_actions()), seat)
        steps += 1
    assert steps > 50


def test_the_check_finds_a_hidden_card_when_one_is_reachable() -> None:
    """The check above is able to fail: handed the hand itself, it says so."""
    game = Game(preset("classic"), 2)
    seat = game.actor
    hidden = hidden_objects(game, seat)
    found = {hidden[id(x)] for x in reachable(seat_view(game, seat), game.hand.legal())
             if id(x) in hidden}
    assert "the hand" in found and "the stock" in found
