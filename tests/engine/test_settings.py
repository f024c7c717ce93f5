"""The engine reads its hottest settings from one compiled object per rule set
(handfoot.engine.settings): a copy of the rule set's values, made from it alone, never
left over from another rule set."""

from __future__ import annotations

import dataclasses
import pickle

from handfoot.actions import DRAW, parse_action
from handfoot.engine import Hand
from handfoot.engine.settings import settings_of
from handfoot.rules import PRESET_NAMES, Rules, preset
from handfoot.testing import stacked_deal


def test_each_preset_s_settings_are_its_own_values() -> None:
    for name in PRESET_NAMES:
        rules = preset(name)
        s = settings_of(rules)
        m = rules.meld
        assert (s.min_size, s.min_naturals, s.max_wilds, s.book_size) == (
            m.min_size, m.min_naturals, m.max_wilds, m.book_size), name
        assert (s.sequences, s.wild_melds, s.burn_wilds) == (
            m.sequences, m.wild_melds, m.burn_wilds), name
        assert s.red_on_board == (rules.threes.red == "board"), name
        assert s.black_melded == (rules.threes.black_melded != "never"), name
        assert s.pile_min == max(rules.pile.min_size, 1), name
        assert s.ask_partner == (rules.going_out.permission and not rules.individuals), name
        assert s.card_class == rules.card_class, name
        assert (s.card_value, s.held_value) == (rules.card_value, rules.held_value), name
        go = rules.going_out
        assert (s.out_clean_books, s.out_dirty_books, s.out_wild_books) == (
            go.clean_books, go.dirty_books, go.wild_books), name


def test_a_house_rule_made_from_a_preset_gets_settings_of_its_own() -> None:
    six = preset("six-deck")
    house = dataclasses.replace(six, meld=dataclasses.replace(six.meld, min_size=4))
    assert settings_of(six).min_size == 3
    assert settings_of(house).min_size == 4
    # The hands of each rule set read their own: three 7s are a meld in one, not the other.
    for rules, laid in ((six, True), (house, False)):
        h = Hand(rules, stacked_deal(rules, hands={0: "7C 7D 7H 9S 9D"}, stock="KS KD"))
        h.apply(DRAW)
        assert h.is_legal(parse_action("meld 7C 7D 7H")) == laid


def test_a_rule_set_read_back_from_toml_or_a_pickle_plays_the_same() -> None:
    rules = preset("samba")
    for copy in (Rules.from_toml(rules.to_toml()), pickle.loads(pickle.dumps(rules))):
        assert settings_of(copy).sequences and settings_of(copy).red_on_board
        deal = stacked_deal(rules, hands={0: "5C 6C 7C 9S"}, stock="KS KD")
        a, b = Hand(rules, deal), Hand(copy, deal)
        for h in (a, b):
            while h.phase.name != "PLAY":
                h.apply(h.legal_actions()[0])
        assert a.legal_actions() == b.legal_actions()
        assert any(m.kind == "meld" for m in a.legal_actions())  # the 5-6-7 of clubs
