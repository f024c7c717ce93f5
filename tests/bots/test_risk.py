"""The hard player weighs the risk of being caught: the cards it holds, valued by the
rule set (3s included), times the chance that the opponents go out soon, read from what
the table sees. Stacked positions: a late pile full of red 3s is left, the same pile
early is taken; cards are played off before the discard where being caught is likely."""

from __future__ import annotations

import random

import pytest

from caught_positions import pile_position, play_position
from handfoot.actions import DRAW, AddToMeld, Discard, Draw, TakePile
from handfoot.bots.evaluation import value, weights_for
from handfoot.bots.expert import ExpertBot, estimate, view_ends
from handfoot.bots.heuristic import obs_from_view
from handfoot.bots.policy import decide_patient, pile_risk
from handfoot.bots.risk import AHEAD, caught, ends_list, ends_within, held_cost, seat_cost
from handfoot.cards import NUM_CARDS, WILD, parse_card, parse_cards
from handfoot.game.views import seat_view
from handfoot.rules import preset


def test_a_late_pile_full_of_red_threes_is_left() -> None:
    game = pile_position(late=True)
    view, legal = seat_view(game, 0), game.legal_actions()
    assert any(isinstance(a, TakePile) for a in legal)
    o = obs_from_view(view, game.rules)
    ends = view_ends(view, o)
    assert ends[1] > 0.5  # the opponents are likely out before seat 0 plays again
    # the 10 red 3s, 500 points each caught, outweigh what the pile holds
    assert pile_risk(o, ends) > 40
    # without the risk its policy takes the pile; with it, it draws, and so does its search
    assert isinstance(decide_patient(o, legal.__contains__, legal), TakePile)
    assert decide_patient(o, legal.__contains__, legal, ends) == DRAW
    bot = ExpertBot(3)
    assert bot.candidate_actions(view, legal)[0] == DRAW
    assert isinstance(bot.choose(view, legal), Draw)


def test_the_same_pile_early_with_the_opponents_far_from_out_is_taken() -> None:
    game = pile_position(late=False)
    view, legal = seat_view(game, 0), game.legal_actions()
    o = obs_from_view(view, game.rules)
    ends = view_ends(view, o)
    assert ends[1] == 0.0 and ends[-1] < 0.1
    assert 0 < pile_risk(o, ends) < 5
    assert isinstance(decide_patient(o, legal.__contains__, legal, ends), TakePile)
    assert isinstance(ExpertBot(3).choose(view, legal), TakePile)


def test_cards_are_played_off_before_the_discard_when_being_caught_is_likely() -> None:
    late = play_position(late=True)
    view, legal = seat_view(late, 0), late.legal_actions()
    choice = ExpertBot(3).choose(view, legal)
    # the 2 goes onto the kings (four short of a book) rather than stay in hand
    assert isinstance(choice, AddToMeld) and choice.cards == (parse_card("2C"),)
    assert not any(isinstance(a, Discard) for a in ExpertBot(3).candidate_actions(view, legal))
    early = play_position(late=False)
    view, legal = seat_view(early, 0), early.legal_actions()
    # far from being caught it keeps the wild for a book and discards a black 3
    choice = ExpertBot(3).choose(view, legal)
    assert isinstance(choice, Discard) and not WILD[choice.card]


def test_the_chance_of_being_caught_grows_as_the_opponents_near_going_out() -> None:
    rules = preset("six-deck")
    in_foot = [False, True, False, True]

    def chance(c1: int, c3: int, short: int = 0, turns: int = 1) -> float:
        return ends_within(rules, 0, [9, c1, 9, c3], in_foot, [0, short], 60, turns)

    assert chance(1, 1) > chance(1, 4) > chance(4, 4) >= chance(9, 9)
    assert chance(1, 1, short=1) < chance(1, 1)
    assert chance(1, 4, turns=3) > chance(1, 4, turns=1)
    # not in their feet, nobody goes out before seat 0 plays again
    assert ends_within(rules, 0, [9, 1, 9, 1], [False] * 4, [0, 0], 60, 1) == 0.0
    # a partner needed in the foot (six-deck): one opponent not there holds the other back
    assert ends_within(rules, 0, [9, 1, 9, 1], [False, True, False, False], [0, 0], 60, 1) \
        < chance(1, 1) / 5
    # where going out ends nothing (texas-good-sam), only the stock ends the hand
    texas = preset("texas-good-sam")
    assert ends_within(texas, 0, [9, 1, 9, 1], [True] * 4, [0, 0], 60, 1) == 0.0
    assert ends_within(texas, 0, [9, 9, 9, 9], [False] * 4, [0, 0], 5, 1) == 1.0


@pytest.mark.parametrize(("name", "red", "black"), [
    ("six-deck", 500, 5), ("classic", 100, 5), ("texas-good-sam", 500, 100),
    ("alabama-samboree", 500, 0)])
def test_a_three_caught_costs_what_the_rule_set_says(name: str, red: int, black: int) -> None:
    rules = preset(name)
    counts = [0] * NUM_CARDS
    for c in parse_cards("3D 3H 3C KH"):
        counts[c] += 1
    assert held_cost(rules, counts) == 2 * red + black + rules.card_value[parse_card("KH")]


def test_the_search_charges_a_cut_short_hand_for_the_cards_it_may_be_caught_with() -> None:
    late, early = play_position(late=True).hand, play_position(late=False).hand
    assert caught(early, 0) == 0.0
    assert caught(late, 0) > 0.5 * seat_cost(late, 0)
    weights = weights_for(late.rules)
    assert estimate(early, 0) == pytest.approx(
        max(-1.0, min(1.0, value(early, 0, weights) + caught(early, 1) / 400)))
    assert estimate(late, 0) < value(late, 0, weights) - 0.5 * seat_cost(late, 0) / 400


@pytest.mark.parametrize("name", ["six-deck", "classic", "texas-good-sam", "samba"])
def test_the_chances_listed_for_each_turn_ahead_are_those_asked_one_by_one(name: str) -> None:
    rules = preset(name)
    rng = random.Random(name)
    for _ in range(200):
        cards = [rng.randint(1, 13) for _ in range(4)]
        in_foot = [rng.random() < 0.5 for _ in range(4)]
        short = [rng.randint(0, 3) for _ in range(2)]
        stock, me = rng.randint(0, 60), rng.randint(0, 3)
        listed = ends_list(rules, me, cards, in_foot, short, stock)
        assert listed == pytest.approx(
            [ends_within(rules, me, cards, in_foot, short, stock, k) for k in range(AHEAD)])
        assert listed[0] == 0.0 and listed == sorted(listed)  # more turns, more chance
