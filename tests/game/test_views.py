"""Views: a seat sees exactly what it may see; no hidden card is reachable."""

from __future__ import annotations

import json
import random

import pytest

from handfoot.cards import card_code
from handfoot.game import Game
from handfoot.game.views import public_view, seat_view
from handfoot.rules import PRESET_NAMES, preset


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_seat_view_holds_its_hand_and_only_counts_of_the_others(name: str) -> None:
    game = Game(preset(name), seed=11)
    rng = random.Random(3)
    for _ in range(150):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
        hand = game.hand
        public = public_view(game).to_json()
        public.pop("hand")
        public.pop("seat")
        for seat in range(game.rules.players.seats):
            view = seat_view(game, seat)
            assert sorted(view.hand) == sorted(hand.hand_cards(seat))
            if hand.phase.name != "CHOOSE":
                assert [p.hand_count for p in view.players] == hand.hand_len
                assert [p.foot_count for p in view.players] == [
                    hand.foot_size(s) for s in range(hand.seats)]
            # Apart from its own hand, a seat sees exactly what a spectator sees.
            data = view.to_json()
            data.pop("hand")
            data.pop("seat")
            assert data == public
        assert public_view(game).hand == ()


def test_the_stock_order_and_other_hands_never_reach_a_seat() -> None:
    game = Game(preset("samba"), seed=5)
    rng = random.Random(5)
    for _ in range(300):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    hand = game.hand
    for seat in range(4):
        data = seat_view(game, seat).to_json()
        text = json.dumps(data)
        assert not any(k in data for k in ("stock", "feet", "hands", "deal", "order"))
        assert data["stock_size"] == len(hand.stock)
        # The view's own-hand list is exactly this seat's cards.
        assert sorted(data["hand"]) == sorted(card_code(c) for c in hand.hand_cards(seat))
        assert '"pile":' not in text


def test_views_are_equal_for_every_seat_apart_from_the_hand() -> None:
    game = Game(preset("texas-good-sam"), seed=2)
    rng = random.Random(2)
    for _ in range(120):
        game.apply(rng.choice(game.legal_actions()))
    public = public_view(game).to_json()
    for seat in range(4):
        data = seat_view(game, seat).to_json()
        assert data.pop("hand")
        assert data.pop("seat") == seat
        public_copy = dict(public)
        public_copy.pop("hand")
        public_copy.pop("seat")
        assert data == public_copy


def _fresh_view(game: Game, seat: int) -> object:
    """A view made with every cache the views keep on the state emptied first."""
    hand = game.hand
    saved = (hand.player_views, hand.player_views_known, hand.team_views,
             [[m.view for m in ms] for ms in hand.melds])
    hand._reset_view_caches()
    for ms in hand.melds:
        for m in ms:
            m.view = None
    view = seat_view(game, seat)
    (hand.player_views, hand.player_views_known, hand.team_views, meld_views) = saved
    for ms, vs in zip(hand.melds, meld_views, strict=True):
        for m, v in zip(ms, vs, strict=True):
            m.view = v
    return view


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_views_kept_between_steps_are_the_views_made_afresh(name: str, bots: str) -> None:
    """The views keep what did not change from one step to the next (each seat's
    counts, each team's table); at every step of whole hands, for every seat, what they
    give is exactly a view made from nothing."""
    from handfoot.arena import seat_bots

    rules = preset(name)
    for seed in range(3):
        game = Game(rules, seed)
        players = seat_bots(rules, (bots,), seed)
        while not game.results:
            for seat in range(rules.players.seats):
                assert seat_view(game, seat) == _fresh_view(game, seat)
            assert public_view(game) == public_view(game)
            seat = game.actor
            game.apply(players[seat].choose(seat_view(game, seat), game.legal_actions()), seat)
