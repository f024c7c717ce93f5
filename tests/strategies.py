"""Hypothesis strategies: a random valid rule set."""

from __future__ import annotations

import dataclasses

from hypothesis import assume
from hypothesis import strategies as st

from handfoot.rules import (
    Deal,
    Deck,
    GameSettings,
    GoingOut,
    MeldRules,
    Opening,
    Pile,
    Players,
    Rules,
    RulesError,
    Scores,
    Threes,
    Turn,
)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A random valid rule set (invalid combinations are redrawn)."""
    seats, teams = draw(st.sampled_from([(4, 2), (6, 2), (6, 3), (2, 2), (3, 3), (4, 4)]))
    size = draw(st.sampled_from([7, 11, 13]))
    upcard = draw(st.booleans())
    sequences = draw(st.booleans())
    wild_melds = draw(st.booleans())
    take_max = draw(st.sampled_from([0, 3, 5, 7]))
    take_min = draw(st.sampled_from([0, 2, 3, 7])) if take_max == 0 else take_max
    show = draw(st.lists(st.sampled_from(["natural-pair", "natural-and-wild", "meld-on-board"]),
                         min_size=1, max_size=3, unique=True))
    try:
        return make_rules(draw, seats, teams, size, upcard, sequences, wild_melds,
                          take_min, take_max, show)
    except RulesError:
        assume(False)  # an inconsistent combination, refused by validation (tested elsewhere)
        raise


def make_rules(draw: st.DrawFn, seats: int, teams: int, size: int, upcard: bool,
               sequences: bool, wild_melds: bool, take_min: int, take_max: int,
               show: list[str]) -> Rules:
    rules = Rules(
        name="random",
        players=Players(seats=seats, teams=teams),
        deck=Deck(decks=draw(st.integers(1, 2)), decks_per_player=1,
                  jokers_per_deck=draw(st.sampled_from([0, 2, 4]))),
        deal=dataclasses.replace(
            Deal(), hand_size=size, foot_size=size,
            exact_grab_bonus=draw(st.sampled_from([0, 100])),
            choose_hand=draw(st.sampled_from(["blind", "seeing-tops"])), upcard=upcard,
            upcard_turn_back=("red-three", "wild") if upcard and draw(st.booleans()) else (),
            first_player=draw(st.sampled_from(["high-card", "rotate"]))),
        game=GameSettings(hands=draw(st.integers(1, 2)),
                          tie_break=draw(st.sampled_from(["none", "playoff-hand", "high-card"]))),
        opening=Opening(minimums=tuple(draw(st.lists(st.sampled_from([0, 50, 90, 120]),
                                                     min_size=1, max_size=3))),
                        clean_melds=draw(st.integers(0, 1)), dirty_melds=draw(st.integers(0, 1))),
        turn=Turn(draw=draw(st.integers(1, 3)),
                  first_turn_upcard=draw(st.sampled_from(["no", "take", "take-no-discard"]))
                  if upcard else "no"),
        pile=Pile(take_min=take_min, take_max=take_max, min_size=draw(st.sampled_from([1, 5])),
                  before_opening=draw(st.sampled_from(["never", "with-opening"])),
                  show=tuple(show), wild_freezes_until_taken=draw(st.booleans()),
                  shown_cards=draw(st.sampled_from(["melded", "kept"]))),
        meld=MeldRules(max_wilds=draw(st.integers(1, 3)),
                       naturals_exceed_wilds=draw(st.booleans()),
                       one_open_meld_per_rank=draw(st.booleans()),
                       books_per_rank=draw(st.sampled_from([0, 3])),
                       burn_wilds=draw(st.booleans()), sequences=sequences,
                       wild_melds=wild_melds,
                       wild_meld_blocks_wilds=wild_melds and draw(st.booleans())),
        threes=Threes(red=draw(st.sampled_from(["discard", "board"])),
                      black_melded=draw(st.sampled_from(["never", "to-go-out", "any-time"]))),
        going_out=GoingOut(
            clean_books=draw(st.integers(0, 2)), dirty_books=draw(st.integers(0, 2)),
            wild_books=1 if wild_melds and draw(st.booleans()) else 0,
            sequence_books=1 if sequences and draw(st.booleans()) else 0,
            clean_counts_as_dirty=draw(st.booleans()),
            permission=(permission := draw(st.booleans())),
            ask_when_able=permission and draw(st.booleans()),
            discard=draw(st.sampled_from(["optional", "required", "forbidden"])),
            partners=draw(st.sampled_from(["none", "in-foot", "played-from-foot"])),
            stock_out=draw(st.sampled_from(["end-hand", "reshuffle-pile"])),
            reshuffles=draw(st.integers(0, 2)),
            hand_ends=draw(st.sampled_from(["going-out", "stock-drawn"]))),
        scores=Scores(),
    )
    return rules
