"""Rule sets: presets load, TOML round trips, bad settings are refused by name."""

from __future__ import annotations

import dataclasses

import pytest

from handfoot.rules import PRESET_NAMES, Players, Rules, RulesError, load_rules, preset


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_round_trips_through_toml(name: str) -> None:
    rules = preset(name)
    assert rules.name == name
    assert Rules.from_toml(rules.to_toml()) == rules
    assert Rules.from_dict(rules.to_dict()) == rules


def test_aliases_name_the_same_preset() -> None:
    assert preset("canasta") is preset("samba")


def test_an_unknown_preset_is_refused_with_the_list() -> None:
    with pytest.raises(RulesError, match=r"no preset called 'poker'.*texas-good-sam"):
        preset("poker")


def test_an_unknown_key_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match=r"unknown setting pile\.take_cout"):
        Rules.from_toml('extends = "classic"\n[pile]\ntake_cout = 3\n')


def test_an_unknown_section_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="unknown setting 'pilee'"):
        Rules.from_toml("[pilee]\ntake_min = 3\n")


def test_a_wrong_type_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match=r"meld\.sequences must be true or false"):
        Rules.from_toml('extends = "classic"\n[meld]\nsequences = "yes"\n')
    with pytest.raises(RulesError, match=r"deal\.hand_size must be a whole number"):
        Rules.from_toml('extends = "classic"\n[deal]\nhand_size = 11.5\n')


@pytest.mark.parametrize(("toml", "message"), [
    ("[going_out]\nwild_books = 1\n", r"going_out\.wild_books needs meld\.wild_melds"),
    ("[going_out]\nsequence_books = 1\n", r"going_out\.sequence_books needs meld\.sequences"),
    ("[pile]\ntake_min = 7\ntake_max = 5\n", r"pile\.take_min = 7 is more than pile\.take_max"),
    ("[players]\nseats = 6\nteams = 4\n", r"players\.teams = 4: 6 seats cannot be split"),
    ("[deck]\ndecks = 1\ndecks_per_player = 0\n", r"too few to deal"),
    ("[deal]\nchoose_hand = \"peek\"\n", r"deal\.choose_hand = 'peek' is not one of"),
    ("[turn]\nfirst_turn_upcard = \"take\"\n", r"turn\.first_turn_upcard needs deal\.upcard"),
    ("[meld]\nmax_wilds = 7\n", r"meld\.max_wilds = 7 must be less than meld\.book_size"),
    ("[scores.values]\n\"4\" = 5\n", r"scores\.values must give each of .*missing"),
    ("[game]\ntime_limit_minutes = 10\ntime_warning_minutes = 15\n",
     r"time_warning_minutes must be less"),
    ("[turn]\ndraw = 1\n[going_out]\nstock_out = \"reshuffle-pile\"\n",
     r"going_out\.reshuffles: with one card drawn a turn"),
    ("[going_out]\nhand_ends = \"never\"\n", r"going_out\.hand_ends = 'never' is not one of"),
    ("[pile]\nshown_cards = \"hidden\"\n", r"pile\.shown_cards = 'hidden' is not one of"),
    ("[threes]\nblack_melded = \"always\"\n", r"threes\.black_melded = 'always' is not one of"),
    ("[going_out]\npermission = false\nask_when_able = true\n",
     r"going_out\.ask_when_able needs going_out\.permission"),
])
def test_inconsistent_combinations_are_refused_by_name(toml: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_toml('extends = "texas-good-sam"\n' + toml)


def test_house_rules_extend_a_preset_and_list_their_changes() -> None:
    rules = load_rules('extends = "six-deck"\n[scores]\ngoing_out = 500\n')
    assert rules.scores.going_out == 500
    assert rules.changes_from(preset("six-deck")) == [("scores.going_out", 100, 500)]


def test_decks_follow_the_number_of_players_where_the_sheet_says_so() -> None:
    classic = preset("classic")
    assert classic.num_decks == 5 and classic.num_cards == 270
    six = dataclasses.replace(classic, players=Players(seats=6, teams=2))
    assert six.num_decks == 7
    assert six.team_of == (0, 1, 0, 1, 0, 1)


def test_minimum_by_running_score_house_rule() -> None:
    rules = Rules.from_toml('extends = "six-deck"\n[opening]\n'
                            "by_score = [[0, 50], [2500, 90], [5000, 120], [7500, 150]]\n")
    assert [rules.opening_minimum(1, s) for s in (0, 2499, 2500, 6000, 9000)] == [
        50, 50, 90, 120, 150]


def test_one_card_drawn_with_a_reshuffle_limit_always_ends() -> None:
    import random

    from handfoot.game import Game

    rules = Rules.from_toml('extends = "classic"\n[turn]\ndraw = 1\n[going_out]\nreshuffles = 2\n')
    game = Game(rules, seed=0)
    rng = random.Random(0)
    actions = 0
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
        actions += 1
        assert actions < 50_000
    assert all(len(r.deal.shuffles) <= 2 for r in game.results)


@pytest.mark.parametrize("toml, limit", [
    ('[deal]\nhand_size = 31\n', "at most 30 cards"),
    ('[deal]\nfoot_size = 40\n', "at most 30 cards"),
    ('[deck]\ndecks = 13\ndecks_per_player = 0\n', "at most 12"),
    ('[players]\nseats = 9\nteams = 3\n', "2 to 8 players"),
])
def test_house_rules_beyond_what_the_engine_serves_fast_are_refused(toml: str, limit: str) -> None:
    with pytest.raises(RulesError, match=limit):
        Rules.from_toml('extends = "classic"\n' + toml)
    # At the limits themselves the rules are accepted.
    Rules.from_toml('extends = "classic"\n[deal]\nhand_size = 30\nfoot_size = 30\n'
                    '[deck]\ndecks = 12\ndecks_per_player = 0\n')


def test_handfoot_variants_fits_80_columns_with_every_name_whole(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from handfoot.cli import main
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())
    for name in PRESET_NAMES:
        assert f"│ {name} " in out and f"{name}: {preset(name).title}" in out
    assert "│     13/13 │" in out  # alabama-samboree's hand and foot
