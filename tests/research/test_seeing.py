"""The instrument that shows the hard player's search hidden cards
(:mod:`handfoot.research.seeing`): each setting shows what it says and no more, the
true hand is never moved by the search, and shown nothing it plays as the expert."""

from __future__ import annotations

import random

import pytest

from handfoot.arena import SimSpec, play_deal, seat_bots
from handfoot.engine import Hand
from handfoot.game import Game
from handfoot.game.views import View, seat_view
from handfoot.research.seeing import SEES, SeeingExpert, play_seeing, seen_world
from handfoot.rules import preset


def game_at(variant: str, seed: int, steps: int) -> Game:
    """A hand of ``variant`` played ``steps`` moves on by medium players, then on to a
    draw or a play (a decision the expert may search)."""
    rules = preset(variant)
    game = Game(rules, seed)
    bots = seat_bots(rules, ["heuristic"], seed)
    done = 0
    while done < steps or game.hand.phase.name not in ("DRAW", "PLAY"):
        seat = game.actor
        game.apply(bots[seat].choose(seat_view(game, seat), game.legal_actions()), seat)
        done += 1
    assert not game.over
    return game


def sizes(h: Hand) -> list[int]:
    return [sum(x) for x in h.hands]


def check_world(view: View, truth: Hand, world: Hand, sees: str) -> None:
    assert view.seat is not None
    me = view.seat
    team = truth.team_of[me]
    partners = [s for s in range(len(truth.hands)) if s != me and truth.team_of[s] == team]
    opponents = [s for s in range(len(truth.hands)) if truth.team_of[s] != team]
    assert world.hands[me] == truth.hands[me]
    # what the seats in the world know of each other is what the table saw (the seat's
    # own cards seen taken are in its hand, and counted as known only where shown)
    assert [k for s, k in enumerate(world.known) if s != me] == \
        [k for s, k in enumerate(truth.known) if s != me]
    assert sizes(world) == sizes(truth)
    assert sorted(world.stock) != [] and len(world.stock) == len(truth.stock)
    shown = {"nothing": [], "partner": partners, "opponents": opponents,
             "hands": partners + opponents, "feet": partners + opponents,
             "stock": partners + opponents}[sees]
    for s in shown:
        assert world.hands[s] == truth.hands[s], (sees, s)
    if sees in ("feet", "stock"):
        assert world.feet == truth.feet
        assert sorted(world.stock) == sorted(truth.stock)
        assert world.rng is not truth.rng
    if sees == "stock":
        assert world.stock == truth.stock


@pytest.mark.parametrize("sees", SEES)
def test_each_setting_shows_the_search_what_it_says(sees: str) -> None:
    game = game_at("classic", 11, 120)
    view = seat_view(game, game.actor)
    truth = game.hand
    rng = random.Random(3)
    worlds = [seen_world(view, truth, sees, rng) for _ in range(6)]
    for w in worlds:
        assert w is not None
        check_world(view, truth, w, sees)
    # what is not shown is dealt anew: the opponents' hands where only partners are shown,
    # the stock's order where only the hands are
    me = view.seat
    assert me is not None
    opponent = next(s for s in range(len(truth.hands)) if truth.team_of[s] != truth.team_of[me])
    if sees in ("nothing", "partner"):
        assert any(w is not None and w.hands[opponent] != truth.hands[opponent] for w in worlds)
    if sees in ("nothing", "hands"):
        assert any(w is not None and w.feet != truth.feet for w in worlds)
    if sees == "feet":
        assert any(w is not None and w.stock != truth.stock for w in worlds)


def test_the_search_leaves_the_true_hand_as_it_was() -> None:
    game = game_at("classic", 12, 150)
    seat = game.actor
    truth = game.hand
    before = ([x[:] for x in truth.hands], truth.stock[:], truth.rng.getstate(),
              truth.pile[:])
    for sees in ("feet", "stock"):
        bot = SeeingExpert(7, game, sees)
        bot.search(seat_view(game, seat), game.rules,
                   list(game.legal_actions())[:2])
    assert ([x[:] for x in truth.hands], truth.stock[:], truth.rng.getstate(),
            truth.pile[:]) == before


def test_shown_nothing_it_plays_the_deal_as_the_expert_does() -> None:
    rules = preset("alabama-samboree")
    spec = SimSpec(rules, 5, ("expert", "heuristic"), duplicate=True)
    # (the copy with the seats swapped: the expert plays the second team)
    assert play_seeing(rules, 5, 0, 1, "nothing") == play_deal(spec, 0, 1).points


def test_a_setting_it_does_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="sees must be one of"):
        SeeingExpert(0, Game(preset("classic"), 1), "everything")
