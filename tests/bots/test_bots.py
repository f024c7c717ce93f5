"""Bots: every bot plays every preset and random valid rule sets; a bot sees only its
seat's view and the legal actions, and its choice does not depend on hidden cards;
the heuristic beats random; the levels; the benchmark's output."""

from __future__ import annotations

import copy
import dataclasses
import gc
import json
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot.actions import DRAW, Action, AddToMeld, Discard, LayMeld, TakeBack
from handfoot.arena import bench_legal, hand_seed, play, seat_bots
from handfoot.arena.bench import bench_preset
from handfoot.bots import LEVELS, Bot, RandomBot, first_state, make_bot, reads_state, xorshift32
from handfoot.bots.expert import ExpertBot, sample_world
from handfoot.bots.heuristic import (
    OBS_FIELDS,
    HeuristicBot,
    Obs,
    _wild_adds,
    decide,
    discard_options,
    discard_score,
    obs_from_hand,
    obs_from_view,
    pile_worth,
    play_options,
    seen_pile,
    wilds_of,
)
from handfoot.bots.policy import decide_patient
from handfoot.cards import NUM_CARDS, WILD, parse_card, parse_cards
from handfoot.cli import main
from handfoot.engine import (
    FACE_DOWN,
    RANK_MELD,
    SEQUENCE,
    Deal,
    Hand,
    LegalActions,
    Phase,
)
from handfoot.engine.deal import below, shuffle
from handfoot.engine.moves import add_discards, count_discards, nth_discard
from handfoot.game import Game, HandResult
from handfoot.game.views import View, seat_view
from handfoot.rules import MAX_DECKS, MAX_HAND_SIZE, PRESET_NAMES, Rules, preset
from stacked import on_table, out_with_black_threes, stacked_hand
from strategies import rule_sets


def small_expert(seed: int) -> ExpertBot:
    return ExpertBot(seed, worlds=2, turns=6, candidates=2)


def play_with(game: Game, make: Any, hands: int | None = None) -> Game:
    bots: list[Bot] = [make(s) for s in range(game.rules.players.seats)]
    return play(game, bots, hands=hands)


# ------------------------------------------------------------------ every rule set


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_heuristic_plays_a_whole_game_of_every_preset(name: str) -> None:
    game = play_with(Game(preset(name), 5), HeuristicBot)
    assert game.over and game.winners
    assert len(game.results) >= game.rules.game.hands


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_expert_and_random_play_a_hand_of_every_preset(name: str) -> None:
    rules = preset(name)
    game = Game(rules, 9)
    bots: list[Bot] = [small_expert(s) if rules.team_of[s] == 0 else make_bot("random", s)
                       for s in range(rules.players.seats)]
    play(game, bots, hands=1)
    assert len(game.results) == 1


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_heuristic_and_expert_play_random_valid_rule_sets(data: st.DataObject,
                                                          seed: int) -> None:
    rules = data.draw(rule_sets())
    game = play_with(Game(rules, seed), HeuristicBot)
    assert game.over
    game = Game(rules, seed)
    bots: list[Bot] = [small_expert(s) if s == 0 else HeuristicBot(s)
                       for s in range(rules.players.seats)]
    play(game, bots, hands=1)
    assert game.results


# ------------------------------------------------------------------ hidden cards


def _leaves(x: Any, seen: list[type]) -> None:
    seen.append(type(x))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _leaves(getattr(x, f.name), seen)
    elif type(x).__module__ == "handfoot.actions":  # an action: its fields, by name
        for name in type(x).__match_args__:
            _leaves(getattr(x, name), seen)
    elif isinstance(x, tuple):
        for y in x:
            _leaves(y, seen)


def test_a_view_reaches_nothing_but_plain_values() -> None:
    game = Game(preset("samba"), 4)
    rng = random.Random(1)
    for _ in range(300):
        game.apply(rng.choice(game.legal_actions()))
    view = seat_view(game, game.actor)
    seen: list[type] = []
    _leaves(view, seen)
    allowed = (int, str, bool, type(None), tuple)
    for t in seen:
        assert (issubclass(t, allowed)
                or t.__module__ in ("handfoot.game.views", "handfoot.actions")
                ), f"a view holds a {t.__name__}"
    assert not any(issubclass(t, Hand | Game | list | dict) for t in seen)


def test_the_legal_actions_show_only_the_actions_and_the_rules() -> None:
    game = Game(preset("classic"), 2)
    legal = game.legal_actions()
    assert isinstance(legal, LegalActions)
    public = {a for a in dir(legal) if not a.startswith("_")}
    assert public <= {"confirms", "count", "index", "rules", "seat_state", "for_actor",
                      "turn", "laying_out"}
    assert isinstance(legal.rules, Rules)
    # The seat's state shows the seat's own cards and the counts, every other card face
    # down; the legal actions of a full state (used inside a search) carry none.
    state = legal.seat_state
    assert state is not None and state.actor == game.actor
    assert state.hands[game.actor] == game.hand.hands[game.actor]
    assert all(not any(state.hands[s]) for s in range(4) if s != game.actor)
    assert state.hand_len == game.hand.hand_len
    assert set(state.stock) == {FACE_DOWN} and len(state.stock) == len(game.hand.stock)
    assert all(set(f) <= {FACE_DOWN} for f in state.feet if f is not None)
    assert game.hand.legal().seat_state is None
    # Membership asks the engine; listing gives the same answers.
    assert all(a in legal for a in legal)
    # It vouches only for the very action it last accepted or gave from its list, in its
    # own state.
    legal = game.legal_actions()
    assert not legal.confirms(DRAW)
    first = legal[0]
    assert legal.confirms(first)  # taken from the list: a listed move is legal
    assert first in legal and legal.confirms(first)
    assert Discard(0) not in legal
    assert legal.confirms(first)  # a refusal does not undo the last acceptance
    # Once listed, it vouches for each listed object itself (a player that went through
    # the list), not for an equal action made anew.
    last = list(legal)[-1]
    assert legal.confirms(last)
    again = copy.copy(last)  # equal, not the same object
    assert again == last and again is not last and not legal.confirms(again)
    game.apply(legal[0])
    assert not legal.confirms(first)
    assert not legal.confirms(last)
    with pytest.raises(RuntimeError):
        len(legal)  # a stale list refuses to answer
    # Listed without a seat copy (for a player that reads only the moves and the turn):
    # the same moves in the same order, the same turn, and no state at all to read.
    copied, bare = game.legal_actions(), game.legal_actions(copy=False)
    assert bare.seat_state is None and copied.seat_state is not None
    assert bare.for_actor and copied.for_actor and not game.hand.legal().for_actor
    assert list(bare) == list(copied)
    assert bare.turn() == copied.turn() == (game.hand.hand_number, game.hand.turn_number)
    assert bare.laying_out() == copied.laying_out()
    move = bare[0]
    assert bare.confirms(move) and move in bare
    game.apply(move)
    assert not bare.confirms(move)
    for stale in (lambda: len(bare), bare.turn, bare.laying_out, lambda: move in bare):
        with pytest.raises(RuntimeError):
            stale()  # listed for an earlier state: it refuses to answer


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_random_player_chooses_the_same_without_a_seat_copy(name: str) -> None:
    """The random player reads only the moves and the turn (``reads_state = False``), so
    the arena lists its moves without a seat copy. At every decision of whole hands the
    moves are the same, in the same order, as from the seat copy, the turn and the
    laying out the same, and a second random player with the same seed given the seat
    copy's moves makes the very same choices; so does a third given the engine's own
    list, its discards as bits, and the turn (:meth:`RandomBot.choose_split`, as the
    arena plays it), and the arena's hand is the very hand played here."""
    rules = preset(name)
    decisions = laid_out = split_discards = 0
    for seed in range(4):
        game = Game(rules, seed)
        bare_bots = seat_bots(rules, ("random",), seed)
        copy_bots = seat_bots(rules, ("random",), seed)
        listed_bots = cast(list[RandomBot], seat_bots(rules, ("random",), seed))
        kept_bots = cast(list[RandomBot], seat_bots(rules, ("random",), seed))
        kept: list[Action] = []
        assert not any(reads_state(b) for b in bare_bots)
        while not game.results:
            seat = game.actor
            bare, copied = game.legal_actions(copy=False), game.legal_actions()
            assert bare.seat_state is None and copied.seat_state is not None
            assert list(bare) == list(copied)
            assert bare.turn() == copied.turn()
            assert bare.laying_out() == copied.laying_out()
            hand = game.hand
            assert hand.laying_out() == bare.laying_out()
            laid_out += bare.laying_out()
            action = bare_bots[seat].choose(None, bare)
            assert copy_bots[seat].choose(None, copied) == action
            listed: list[Action] = []
            discards, at = hand.moves_and_discards(listed)
            assert listed_bots[seat].choose_split(
                listed, discards, at, hand.hand_number, hand.turn_number,
                hand.laying_out()) is action
            # (the moves it chose from are left as they were: with the discards put in
            # their place, they are the whole list)
            add_discards(listed, discards, at)
            assert listed == list(bare)
            # (and so does a fourth given them after the moves of the decisions before,
            # as the arena keeps one list for many listings)
            base = len(kept)
            discards, at = hand.moves_and_discards(kept)
            assert kept_bots[seat].choose_split(
                kept, discards, at, hand.hand_number, hand.turn_number,
                hand.laying_out(), base) is action
            whole = kept[base:]
            add_discards(whole, discards, at - base)
            assert whole == list(bare)
            split_discards += count_discards(discards)
            game.apply(action, seat)
            decisions += 1
        played = play(Game(rules, seed), seat_bots(rules, ("random",), seed), hands=1)
        assert played.results[0].actions == game.results[0].actions
        assert played.results[0].scores == game.results[0].scores
    assert decisions > 400 and laid_out > 0 and split_discards > 400


@given(st.integers(min_value=0, max_value=(1 << NUM_CARDS) - 1))
def test_the_discards_left_as_bits_are_counted_and_taken_in_the_list_s_order(
        cards: int) -> None:
    """The random player counts and takes the discards the listing left as bits (one a
    card held) without the list made: the n-th is the list's n-th, lowest card first,
    and there are as many as the list holds; for the listing's list wherever it stands."""
    listed: list[Action] = []
    add_discards(listed, cards, 0)
    assert count_discards(cards) == len(listed) == bin(cards).count("1")
    assert [nth_discard(cards, i) for i in range(len(listed))] == listed
    assert [cast(Discard, a).card for a in listed] == [
        c for c in range(NUM_CARDS) if cards >> c & 1]
    with pytest.raises(IndexError):
        nth_discard(cards, len(listed))
    around: list[Action] = [DRAW, DRAW]
    add_discards(around, cards, 1)
    assert around == [DRAW, *listed, DRAW]


def test_the_random_player_s_generator_draws_uniformly_and_the_same_everywhere() -> None:
    """The random player's own generator (xorshift32, seeded by MurmurHash3's finaliser):
    its states are those of the published recurrence, worked out here in Python's own
    numbers (so the compiled module, in machine integers, must agree); every seed of
    10,000 starts elsewhere and never at 0; and the numbers drawn below n are each as
    likely (Pearson's chi-square over 20,000 draws within six standard deviations of its
    mean, and each count within five), never n or more."""
    mask = 0xFFFFFFFF

    def step(x: int) -> int:
        x ^= (x << 13) & mask
        x ^= x >> 17
        return x ^ ((x << 5) & mask)

    x = first_state(12345)
    for _ in range(1000):
        assert xorshift32(x) == step(x) and 0 < step(x) <= mask
        x = step(x)
    states = {first_state(seed) for seed in range(10_000)}
    assert len(states) == 10_000 and 0 not in states
    assert first_state(-3) != first_state(3) and 0 < first_state(10**30) <= mask
    bot = RandomBot(7)
    for n in (1, 2, 3, 5, 7, 10, 33, 100):
        draws = 20_000
        counts = [0] * n
        for _ in range(draws):
            counts[bot._below(n)] += 1
        mean = draws / n
        sd = (draws * (1 / n) * (1 - 1 / n)) ** 0.5
        assert all(abs(k - mean) <= 5 * sd + 1e-9 for k in counts), (n, counts)
        chi2 = sum((k - mean) ** 2 / mean for k in counts)
        assert chi2 <= (n - 1) + 6 * (2 * (n - 1)) ** 0.5, (n, chi2)


def test_a_random_player_copied_or_pickled_chooses_as_the_original() -> None:
    """The random player draws from its generator through the method bound once; a copy
    made by pickling (as ``handfoot sim --jobs`` sends players) or by ``deepcopy`` draws
    from its own copy of the generator, and so makes the same choices as the original,
    without moving the original's generator."""
    import pickle

    rules = preset("classic")
    game = Game(rules, 2)
    original = make_bot("random", 9)
    for _ in range(30):  # the generator moved on before the copies are made
        original.choose(None, game.legal_actions(copy=False))
    copies = [pickle.loads(pickle.dumps(original)), copy.deepcopy(original)]
    choices = {0: [], 1: [], 2: []}  # type: dict[int, list[Action]]
    for _ in range(300):
        legal = game.legal_actions(copy=False)
        for i, bot in enumerate([original, *copies]):
            if i:
                legal = game.legal_actions(copy=False)
            choices[i].append(bot.choose(None, legal))
        game.apply(choices[0][-1], game.actor)
        if game.results:
            break
    assert choices[0] == choices[1] == choices[2]
    assert len(set(map(repr, choices[0]))) > 5

def _other_deal(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as ``seat`` sees it, with every card it cannot see dealt anew:
    the other hands (but the cards seen going into them), the feet and the stock."""
    other = copy.deepcopy(game)
    h = other.hand
    hidden: list[int] = []
    for s in range(h.seats):
        if s != seat:
            for c in range(NUM_CARDS):
                k = h.hands[s][c] - h.known[s][c]
                hidden.extend([c] * k)
        hidden.extend(h.feet[s] or ())
    hidden.extend(h.stock)
    rng.shuffle(hidden)
    pos = 0
    for s in range(h.seats):
        if s != seat:
            n = h.hand_len[s] - sum(h.known[s])
            h.hands[s] = h.known[s][:]
            for c in hidden[pos:pos + n]:
                h.hands[s][c] += 1
            h.recount(s)
            pos += n
        foot = h.feet[s]
        if foot is not None:
            h.feet[s] = hidden[pos:pos + len(foot)]
            pos += len(foot)
    h.stock = hidden[pos:]
    assert pos + len(h.stock) == len(hidden)
    return other


def _a_decision(name: str, seed: int) -> tuple[Game, int]:
    """A game in the middle of a hand, at a decision the expert searches (a discard)."""
    rules = preset(name)
    game = Game(rules, seed)
    bots = [HeuristicBot(s) for s in range(rules.players.seats)]
    turns = 0
    while True:
        seat = game.actor
        view = seat_view(game, seat)
        legal = game.legal_actions()
        if turns > 12 and view.phase == "play" and len(ExpertBot(1).candidate_actions(
                view, legal)) > 1:
            return game, seat
        action = bots[seat].choose(view, legal)
        turns += action.kind == "discard"
        game.apply(action, seat)


@pytest.mark.parametrize("name", ["texas-good-sam", "samba"])
def test_a_choice_does_not_depend_on_the_cards_the_seat_cannot_see(name: str) -> None:
    game, seat = _a_decision(name, 3)
    others = [_other_deal(game, seat, random.Random(k)) for k in range(2)]
    view = seat_view(game, seat)
    assert others[0].hand.stock != game.hand.stock  # really another deal
    for other in others:
        assert seat_view(other, seat) == view  # ... that the seat cannot tell apart
    for make in (HeuristicBot, lambda s: ExpertBot(s, worlds=4, turns=8)):
        choices = set()
        for g in (game, *others):
            bot: Bot = make(7)
            choices.add(bot.choose(seat_view(g, seat), g.legal_actions()))
        assert len(choices) == 1
    # The heuristic in the arena, given the game's own state (HeuristicBot.choose_in),
    # chooses the same in every deal, and as it does from the view.
    assert {HeuristicBot(7).choose_in(g.hand) for g in (game, *others)} == {
        HeuristicBot(7).choose(seat_view(game, seat), game.legal_actions())}


def test_the_expert_at_its_default_budget_searches_and_repeats_its_choice() -> None:
    """At a searched decision the default expert (32 worlds, rollouts cut at 8 turns)
    searches once, and another bot with the same seed makes the same choice."""
    game, seat = _a_decision("classic", 4)
    view = seat_view(game, seat)
    choices = []
    for _ in range(2):
        bot = ExpertBot(11)
        choices.append(bot.choose(view, game.legal_actions()))
        assert bot.searched == 1
    assert choices[0] == choices[1]
    assert choices[0] in game.legal_actions()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_experts_sampled_worlds_agree_with_the_view(name: str) -> None:
    game, seat = _a_decision(name, 8)
    view = seat_view(game, seat)
    true = game.hand
    for k in range(3):
        world = sample_world(view, game.rules, random.Random(k))
        assert world is not None
        assert world.hands[seat] == true.hands[seat]
        assert world.card_census() == true.card_census()
        assert len(world.stock) == len(true.stock) and world.pile[-1:] == true.pile[-1:]
        assert world.phase == true.phase == Phase.PLAY and world.actor == seat
        for s in range(true.seats):
            assert world.hand_len[s] == true.hand_len[s]
            assert world.foot_size(s) == true.foot_size(s)
            assert all(world.hands[s][c] >= true.known[s][c] for c in range(NUM_CARDS))
        for t in range(true.teams):
            assert ([sorted(m.cards) for m in world.melds[t]]
                    == [sorted(m.cards) for m in true.melds[t]])
        # the world plays on: every legal action is the engine's
        legal: list[Action] = world.legal_actions()
        assert legal


# ------------------------------------------------------------------ strength


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_heuristic_beats_random_in_every_preset(name: str) -> None:
    rules = preset(name)
    wins = 0
    hands = 12
    for i in range(hands):
        s = hand_seed(2024, i)
        game = Game(rules, s)
        bots = seat_bots(rules, ("heuristic", "random"), s)
        play(game, bots, hands=1)
        totals = [sc.total for sc in game.results[0].scores]
        wins += totals[0] > max(totals[1:])
    assert wins >= 10, f"heuristic won only {wins} of {hands} hands against random"


def _duel_hand(rules: Rules, seed: int, policies: list[Any]) -> list[int]:
    """One hand played straight on the engine, team t's seats by ``policies[t]``."""
    from handfoot.game.scoring import score_hand
    h = Hand(rules, Deal.shuffled(rules, random.Random(seed)), rng=random.Random(seed + 1))
    while h.phase != Phase.OVER:
        if h.phase == Phase.CHOOSE:
            h.push(h.legal()[0])
            continue
        h.push(policies[h.team_of[h.actor]](h))
    return [sc.total for sc in score_hand(h)]


def test_the_experts_patient_policy_beats_the_heuristic_in_alabama() -> None:
    """The expert's own policy (wilds kept until they complete a book) against the
    heuristic on 60 duplicate deals: it wins clearly more than half of the 120 hands,
    and never puts a wild on an unfinished meld it does not complete outside the foot."""
    from handfoot.bots.heuristic import decide, obs_from_hand
    from handfoot.bots.policy import decide_patient, patient

    def heuristic(h: Hand) -> Action:
        return decide(obs_from_hand(h, h.actor), h.is_legal, h.legal())

    def mine(h: Hand) -> Action:
        o = obs_from_hand(h, h.actor)
        action = decide_patient(o, h.is_legal, h.legal())
        assert patient(o, action)
        return action

    rules = preset("alabama-samboree")
    wins = 0
    for i in range(60):
        a = _duel_hand(rules, 300 + i, [mine, heuristic])
        b = _duel_hand(rules, 300 + i, [heuristic, mine])
        wins += (a[0] > a[1]) + (b[1] > b[0])
    assert wins >= 66, f"the patient policy won only {wins} of 120 hands"


def test_the_static_evaluation_tells_the_leader_late_in_a_hand() -> None:
    """On fresh hands, where the fitted value leans clearly one way, its sign is the
    sign of the final lead far more often than not; it is antisymmetric."""
    from handfoot.bots.evaluation import samples, value, weights_for
    from handfoot.bots.heuristic import decide, obs_from_hand

    rules = preset("texas-good-sam")
    weights = weights_for(rules)
    xs, ys = samples(rules, lambda h: decide(obs_from_hand(h, h.actor), h.is_legal,
                                             h.legal()), 30, seed=77)
    right = total = 0
    for x, y in zip(xs, ys, strict=True):
        v = sum(w * f for w, f in zip(weights, x, strict=True))
        if y != 0 and abs(v) > 0.1:
            total += 1
            right += (v > 0) == (y > 0)
    assert total > 100 and right / total > 0.7, (right, total)
    h = Hand(rules, Deal.shuffled(rules, random.Random(5)))
    for _ in range(120):
        h.push(decide(obs_from_hand(h, h.actor), h.is_legal, h.legal()))
    assert value(h, 0, weights) == pytest.approx(-value(h, 1, weights), abs=1e-9)
    assert value(h, 0, weights) != 0.0


# ------------------------------------------------------------------ levels, bench


def test_the_levels_map_onto_the_bots() -> None:
    assert LEVELS == {"easy": "random", "medium": "heuristic", "hard": "expert"}
    for level, name in LEVELS.items():
        assert make_bot(level, 1).name == name
    with pytest.raises(ValueError, match="no bot"):
        make_bot("grandmaster")


def test_bench_measures_each_preset(capsys: pytest.CaptureFixture[str]) -> None:
    row = bench_preset(preset("six-deck"), random_hands=1, heuristic_hands=1, decisions=3)
    for key in ("random_hands_per_s", "heuristic_hands_per_s",
                "expert_ms_per_decision_median", "expert_ms_per_decision_p95",
                "floor_hands_per_s"):
        assert row[key] > 0
    # The floor does no rules and makes no choices: faster than any game of bots.
    assert row["floor_hands_per_s"] > row["heuristic_hands_per_s"]
    assert row["random_ratio_to_floor"] == pytest.approx(
        row["random_hands_per_s"] / row["floor_hands_per_s"], abs=1e-4)
    # The random hands' moves carried out again: without listing or choosing they go
    # several times as fast as played, and listing the moves is much of the difference.
    assert row["random_moves_per_hand"] > 50
    carried, listed = (row["random_moves_carried_out_hands_per_s"],
                       row["random_moves_carried_out_and_listed_hands_per_s"])
    assert carried > 2 * listed and carried > 2 * row["random_hands_per_s"]
    assert main(["bench", "--json", "--variant", "classic", "--hands", "1",
                 "--decisions", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"classic", "engine_compiled"} and isinstance(data["engine_compiled"], bool)
    assert data["classic"]["expert_ms_per_decision_p95"] >= \
        data["classic"]["expert_ms_per_decision_median"]


def test_bench_without_the_expert_says_it_was_not_timed(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--variant", "alabama-samboree", "--hands", "1",
                 "--decisions", "0"]) == 0
    out = capsys.readouterr().out
    assert "expert not timed" in out and "random" in out
    row = bench_preset(preset("alabama-samboree"), random_hands=1, heuristic_hands=1,
                       decisions=0)
    assert row["expert_decisions"] == 0
    assert row["expert_ms_per_decision_median"] is None
    assert row["expert_ms_per_decision_p95"] is None
    assert row["random_hands_per_s"] > 0


def test_the_bench_reports_each_measure_s_fastest_pass(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each hands-per-second figure is the fastest of its passes over the same hands
    (bench.PASSES): with a clock that makes the passes take 5, 2 and 9 seconds, two hands
    go at one a second; the hands played are kept once, as the first pass played them,
    and every pass plays the same games."""
    from handfoot.arena import bench

    rules = preset("alabama-samboree")
    ticks = iter([0.0, 5.0, 10.0, 12.0, 20.0, 29.0])
    monkeypatch.setattr(bench, "cpu", lambda: next(ticks))
    played: list[HandResult] = []
    assert bench.hands_per_second(rules, ("random",), 2, 0, played, passes=3) == 1.0
    assert [r.deal for r in played] == [
        Game(rules, hand_seed(0, i)).hand.deal for i in range(2)]
    again: list[HandResult] = []
    monkeypatch.setattr(bench, "cpu", time.thread_time)
    bench.hands_per_second(rules, ("random",), 2, 0, again)
    assert [r.actions for r in again] == [r.actions for r in played]
    ticks = iter([0.0, 3.0, 10.0, 11.0])
    monkeypatch.setattr(bench, "cpu", lambda: next(ticks))
    assert bench.floor_hands_per_second(rules, 4, passes=2) == 4.0
    assert bench.PASSES >= 3


def test_the_bench_s_rounds_take_turns_and_say_how_slow_the_floor_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each round plays one pass of the floor, of random play and of the heuristic, in
    that order, bench.ROUNDS times (at least as many as a replay's passes); the floor
    reported is its fastest pass, and beside it its slowest, so a reader sees how
    disturbed the run was."""
    from handfoot.arena import bench

    order: list[str] = []
    floors = iter([2.0, 1.0, 4.0] + [3.0] * (bench.ROUNDS - 3))

    def floor_seconds(rules: Rules, hands: int, seed: int) -> float:
        order.append("floor")
        return next(floors)

    played = bench._pass_seconds

    def pass_seconds(rules: Rules, bots: Sequence[str], hands: int, seed: int,
                     into: list[HandResult] | None) -> float:
        order.append(bots[0])
        return played(rules, bots, hands, seed, into)

    monkeypatch.setattr(bench, "_floor_seconds", floor_seconds)
    monkeypatch.setattr(bench, "_pass_seconds", pass_seconds)
    row = bench.run_rules([preset("alabama-samboree")], 1, 1, 0)[0]
    assert order == ["floor", "random", "heuristic"] * bench.ROUNDS
    assert bench.ROUNDS >= bench.PASSES
    # the floor's passes are of ten times the hands: 10 hands in 1 s, and in 4 s
    assert row["floor_hands_per_s"] == 10.0
    assert row["floor_slowest_hands_per_s"] == 2.5


def test_the_bench_counts_only_the_cpu_of_the_thread_that_plays() -> None:
    """The bench's clock is the playing thread's CPU: work in another thread of the
    process (numpy's BLAS threads spinning after they start) is not the engine's. A
    thread spins for 0.2 s of its own CPU while this one waits for it: the process's
    CPU clock counts it, the bench's does not."""
    import threading
    import time

    from handfoot.arena import bench

    def spin() -> None:
        start = time.thread_time()
        while time.thread_time() - start < 0.2:
            pass

    process, own = time.process_time(), bench.cpu()
    side = threading.Thread(target=spin)
    side.start()
    side.join()
    assert time.process_time() - process >= 0.2
    assert bench.cpu() - own < 0.05


def test_bench_legal_times_every_question_by_hand_size() -> None:
    # (the collector makes no passes while the questions are timed, as in a server
    # process, and is left as it was)
    assert gc.isenabled()
    results = bench_legal.measure(preset("samba"), sizes=(11, 60), seeds=1)
    assert gc.isenabled()
    assert set(results) == {11, 60}
    for size in (11, 60):
        assert results[size]["worst_ms"] > 0 and results[size]["where"]
    # More cards, more moves, but only as many as the kinds of card held allow.
    assert 0 < results[11]["most_moves"] < results[60]["most_moves"] < 2000
    worst = bench_legal.worst_rules()
    assert worst.deal.hand_size == MAX_HAND_SIZE and worst.num_decks == MAX_DECKS


def _meld_reading(m: Any) -> tuple[int, ...]:
    """What the heuristic reads of a meld, whichever form it comes in."""
    if m.kind == SEQUENCE:
        return (m.kind, m.size, m.naturals, m.wilds, m.suit, m.low, m.high)
    return (m.kind, m.size, m.naturals, m.wilds, m.rank if m.kind == RANK_MELD else 0)


def _reading(o: Obs) -> dict[str, Any]:
    return {**{name: getattr(o, name) for name in OBS_FIELDS if name != "melds"},
            "hand": list(o.hand), "known_next": list(o.known_next), "opened": list(o.opened),
            "stack_tops": tuple(o.stack_tops), "history": tuple(o.history),
            "seen_pile": seen_pile(o, 99),
            "melds": [[_meld_reading(m) for m in team] for team in o.melds]}


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_heuristic_reads_the_same_from_the_seat_state_as_from_the_view(name: str) -> None:
    """The heuristic reads the seat's state carried by the legal actions (no view is
    built); at every decision of whole hands that reading equals the one it takes from
    the seat's view, and so do its choices. In the arena it reads the game's own state
    (:meth:`HeuristicBot.choose_in`, no seat copy): that reading is the same again (what
    the seat cannot see is not read), its choice the same, the state left as it was,
    and the arena's hand is the very hand played here."""
    rules = preset(name)
    decisions = 0
    for seed in range(3):
        game = Game(rules, seed)
        bots = cast(list[HeuristicBot], seat_bots(rules, ("heuristic",), seed))
        while not game.results:
            legal = game.legal_actions()
            state = legal.seat_state
            assert state is not None
            from_state = obs_from_hand(state, game.actor)
            from_view = obs_from_view(seat_view(game, game.actor), rules)
            assert _reading(from_state) == _reading(from_view)
            hand = game.hand
            assert _reading(obs_from_hand(hand, game.actor)) == _reading(from_view)
            action = bots[game.actor].choose(None, legal)
            assert action == decide(from_view, game.legal_actions().__contains__, legal)
            census, played = hand.card_census(), len(hand.history)
            assert bots[game.actor].choose_in(hand) == action
            assert hand.card_census() == census and len(hand.history) == played
            game.apply(action)
            decisions += 1
        arena = play(Game(rules, seed), seat_bots(rules, ("heuristic",), seed), hands=1)
        assert arena.results[0].actions == game.results[0].actions
        assert arena.results[0].scores == game.results[0].scores
    assert decisions > 300


def test_the_heuristic_reads_a_meld_of_black_3s_as_3s_from_the_view_too() -> None:
    """Where black 3s are melded, the team's meld of them is of rank 3 read from the
    seat's view as from the state (it was read from the view as rank 0, and the melds
    the heuristic adds to were then looked for by a negative shift, which stopped it:
    found by the random rule sets of test_heuristic_and_expert_play_random_valid_rule_sets),
    and the heuristic then decides from the view."""
    rules = Rules.from_toml('extends = "six-deck"\n[threes]\nblack_melded = "to-go-out"\n')
    hand = out_with_black_threes(rules, "3C 3S 3C 3S KD KS", "KC 3C", threes_meld=True)
    game = Game(rules, 0)
    game.hand = hand
    from_view = obs_from_view(seat_view(game, hand.actor), rules)
    assert _reading(from_view) == _reading(obs_from_hand(hand, hand.actor))
    threes = [m for m in from_view.melds[0] if m.kind == RANK_MELD and m.rank == 3]
    assert len(threes) == 1 and threes[0].size == 3
    legal = game.legal_actions()
    assert HeuristicBot(1).choose(seat_view(game, hand.actor), legal) in legal


def _heuristic_readings(rules: Rules, seeds: range) -> Iterator[Obs]:
    """The heuristic's reading of the game's state at every decision of whole hands of
    heuristic players, one hand for each seed (each read before its move is played)."""
    for seed in seeds:
        game = Game(rules, seed)
        bots = seat_bots(rules, ("heuristic",), seed)
        while not game.results:
            hand = game.hand
            yield obs_from_hand(hand, game.actor)
            game.push(cast(HeuristicBot, bots[game.actor]).choose_in(hand))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_heuristic_offers_every_card_held_as_a_discard_most_willingly_thrown_first(
        name: str) -> None:
    """At every play decision of whole hands, the heuristic's discards are every card
    held, once each, by :func:`discard_score` from the highest (ties: the lower card):
    the best found in one pass, the rest ranked after it. Each score is a whole or half
    number, and a 3 goes before any other card, a wild after every natural."""
    seen = 0
    for o in _heuristic_readings(preset(name), range(2)):
        if o.phase == "play" and o.hand_len:
            held = [c for c in range(NUM_CARDS) if o.hand[c]]
            scores = {c: discard_score(o, c) for c in held}
            assert all((2 * s).is_integer() for s in scores.values())
            order = [cast(Discard, a).card for a in discard_options(o)]
            assert order == sorted(held, key=lambda c: (-scores[c], c))
            # and they end the play's wishes, in that order
            assert [a.card for a in play_options(o, lambda a: True)
                    if isinstance(a, Discard)] == order
            threes = [c for c in held if 4 <= c < 8]
            wilds = [c for c in held if WILD[c]]
            assert order[:len(threes)] == sorted(threes, key=lambda c: (-scores[c], c))
            assert order[len(order) - len(wilds):] == sorted(
                wilds, key=lambda c: (-scores[c], c))
            seen += 1
    assert seen > 50


def _wild_adds_by_pairs(o: Obs, wilds: list[int]) -> list[tuple[int, int]]:
    """The heuristic's wilds onto its melds as it chose them until 29 November 2026, by
    sorting (what they do, minus the meld's size, its place, how many): a test oracle."""
    st = o.settings
    melds = o.melds[o.team]
    clean_b, dirty_b, _, _ = o.books
    go = o.rules.going_out
    clean_needed = max(go.clean_books - clean_b, 0)
    heavy = len(wilds) >= 2 or o.in_foot or go.dirty_books > dirty_b
    open_rank = [i for i, m in enumerate(melds) if m.kind == RANK_MELD and m.size < st.book_size]
    keep = {i for _, i in sorted((-melds[i].size, i) for i in open_rank
                                 if melds[i].wilds == 0)[:clean_needed]}
    scored = []
    for i in open_rank:
        m = melds[i]
        room = st.max_wilds - m.wilds
        if st.naturals_exceed_wilds:
            room = min(room, m.naturals - m.wilds - 1)
        need = st.book_size - m.size
        if i in keep or room <= 0:
            continue
        if need <= min(room, len(wilds)):
            scored.append((0, -m.size, i, need))
        elif m.wilds and heavy:
            scored.append((1, -m.size, i, 1))
        elif heavy and m.size >= 4:
            scored.append((2, -m.size, i, 1))
    return [(i, k) for _, _, i, k in sorted(scored)]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_heuristic_puts_its_wilds_where_they_complete_a_book_first(name: str) -> None:
    """At every play decision of whole hands where the team is down and wilds are held,
    the heuristic's wilds go first where they complete a book (the largest meld first),
    then on dirty melds, then on clean melds of four or more, never on the clean melds
    the team still needs as clean books: the order its former sorting of tuples gave."""
    seen = 0
    for o in _heuristic_readings(preset(name), range(3)):
        wilds = wilds_of(o.hand)
        if o.phase == "play" and o.opened[o.team] and wilds:
            clean_b, dirty_b, _, _ = o.books
            adds = [(a.meld, len(a.cards)) for a in
                    _wild_adds(o, o.melds[o.team], wilds, clean_b, dirty_b)
                    if isinstance(a, AddToMeld)]
            assert adds == _wild_adds_by_pairs(o, wilds)
            seen += len(adds)
    assert seen > 10


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_pile_followed_along_the_history_is_the_pile_read_back(name: str) -> None:
    """Where the heuristic is asked of the same hand's history again it follows the
    pile forward as the history grows (:class:`_PileFollowed`) rather than reading the
    history back: at every decision of whole hands (the heuristic's and the random
    player's, which take the pile in other ways), and for every number of cards, it
    sees the same cards; a history asked of for the first time, or another one, is
    read back."""
    from handfoot.bots.heuristic import _followed, _read_back

    rules = preset(name)
    compared = followed = 0
    for seed in range(2):
        game = Game(rules, seed)
        bots = seat_bots(rules, ("heuristic", "random"), seed)
        while not game.results:
            hand = game.hand
            o = obs_from_hand(hand, hand.actor)
            # (followed before, and only grown since)
            grown = _followed().history is hand.history and _followed().read > 0
            seen_pile(o, 1)  # (asked of twice running: followed from here on)
            for n in range(0, len(hand.pile) + 2):
                assert seen_pile(o, n) == _read_back(o.history, min(n, len(hand.pile)))
                compared += 1
            followed += grown
            if len(hand.history) % 17 == 0:  # now and then, between growths followed
                copied = obs_from_hand(hand, hand.actor)
                copied.history = list(hand.history)  # another history: read back
                assert seen_pile(copied, 3) == _read_back(hand.history,
                                                          min(3, len(hand.pile)))
                assert _followed().read < 0
            game.apply(bots[game.actor].choose(None, game.legal_actions()))
    assert compared > 1000 and followed > 100
    # Each thread follows its own: another thread's hand leaves this one's followed.
    seen_pile(obs_from_hand(hand, hand.actor), 3)  # (the last hand's last action read)
    mine = _followed()
    assert mine.history is hand.history and mine.read == len(hand.history)
    other = Game(rules, 99)
    other.apply(other.legal_actions()[0])
    seen: list[object] = []
    for _ in range(2):
        worker = threading.Thread(target=lambda: seen.append(seen_pile(
            obs_from_hand(other.hand, other.hand.actor), 5)))
        worker.start()
        worker.join()
    assert len(seen) == 2 and _followed() is mine and mine.history is hand.history


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_pile_read_back_from_the_history_is_the_pile(name: str) -> None:
    """What the heuristic works out of the pile's top cards (as many as a player takes)
    from the discards it saw (it may not look through the pile) is the pile, card for
    card, wherever it works a card out; it works out most of them."""
    rules = preset(name)
    known = unknown = 0
    for seed in range(2):
        game = Game(rules, seed)
        bots = seat_bots(rules, ("heuristic",), seed)
        while not game.results:
            hand = game.hand
            if hand.phase.name == "DRAW" and hand.pile:
                n = max(rules.pile_take_counts(len(hand.pile)), default=0)
                seen = seen_pile(obs_from_hand(hand.seat_copy(), hand.actor), n)
                assert len(seen) == min(n, len(hand.pile))
                for c, real in zip(seen, hand.pile[len(hand.pile) - len(seen):], strict=True):
                    if c is None:
                        unknown += 1
                    else:
                        assert c == real
                        known += 1
            game.apply(bots[game.actor].choose(None, game.legal_actions()))
    assert known > 3 * unknown


def test_the_heuristic_leaves_a_pile_of_3s_it_cannot_use() -> None:
    # samba: a pile of black 3s and cards of no use to the hand is not worth a turn
    rules = preset("samba")
    hand = stacked_hand(rules, hands={0: "KH KD 9C 9D 10H JH QS 4C 5D 6H 7S"},
                        stock="8C 8D 8H")
    on_table(hand, 0, "AH AD AS")
    o = obs_from_hand(hand, 0)
    o.history = [(1, Discard(c)) for c in parse_cards("3C 3S 3C 3S 3C 3S 3C 3S 3C 3S 8S 5S KC")]
    o.pile_size, o.pile_top = 13, parse_card("KC")
    assert pile_worth(o) < 0
    o.history = [(1, Discard(c)) for c in parse_cards("KS KC 9H 9S JD 2C 8S 3C 3S 4H JS QH KC")]
    assert pile_worth(o) > 0


def _play_decisions(rules: Rules, deals: int = 2) -> Iterator[tuple[View, Sequence[Action]]]:
    """(view, legal moves) at every play decision of ``deals`` games of heuristic
    players."""
    for seed in range(deals):
        game = Game(rules, seed)
        bots = seat_bots(rules, ("heuristic",), seed)
        while not game.results:
            seat = game.actor
            legal = game.legal_actions()
            view = seat_view(game, seat)
            if view.phase == "play":
                yield view, legal
            game.apply(bots[seat].choose(None, legal), seat)


@pytest.mark.parametrize("name", ["texas-good-sam", "classic"])
def test_the_expert_weighs_throwing_a_wild_only_where_its_policy_would(name: str) -> None:
    # its search scored a wild discard on noise and threw wilds away (issue 17): a wild
    # is among its candidates only as its policy's own first choice
    expert = ExpertBot(1)
    checked = 0
    for view, legal in _play_decisions(preset(name)):
        cands = expert.candidate_actions(view, legal)
        for a in cands[1:]:
            assert not (isinstance(a, Discard) and WILD[a.card]), (cands, view.hand_counts)
        checked += sum(1 for a in legal if isinstance(a, Discard) and WILD[a.card]) > 0
    assert checked > 20


def test_the_expert_weighs_up_to_three_kinds_of_play_against_stopping() -> None:
    # issue 17, third round: at a play decision its candidates are its policy's choice
    # first, then plays of other kinds or on other melds (at most ``plays`` in all,
    # never two on the same meld), then discards; every one of them legal
    narrow, wide = ExpertBot(1, plays=2), ExpertBot(1)
    more = 0
    for view, legal in _play_decisions(preset("classic")):
        cands = wide.candidate_actions(view, legal)
        assert all(a in legal for a in cands)
        plays = [a for a in cands if not isinstance(a, Discard)]
        assert cands[:len(plays)] == plays  # plays first, then discards
        assert len(plays) <= 3
        keys = [(a.kind, getattr(a, "meld", -1)) for a in plays]
        assert len(set(keys)) == len(keys)
        fewer = narrow.candidate_actions(view, legal)
        assert cands[0] == fewer[0]
        assert [a for a in fewer if not isinstance(a, Discard)] == plays[:2]
        more += len(plays) == 3
    assert more > 5


@given(st.integers(0, 2**32), st.lists(st.integers(1, 10**6), min_size=1, max_size=50))
def test_the_random_player_draws_the_numbers_randrange_would(seed: int, sizes: list[int]) -> None:
    # (the random player's choices, and so every recorded sim, stay as they were)
    a, b = random.Random(seed), random.Random(seed)
    assert [below(a, n) for n in sizes] == [b.randrange(n) for n in sizes]


@given(st.integers(0, 2**32),
       st.lists(st.tuples(st.integers(-20, 20), st.integers(0, 40)), min_size=1, max_size=30))
def test_a_deal_draws_the_numbers_randint_would(seed: int,
                                                bounds: list[tuple[int, int]]) -> None:
    # (the grabs and the cut for the first player, drawn compiled: the same deals; a
    # served game's generator, which supplies its own bits, too; and each generator is
    # left where the library's own randint leaves it)
    from handfoot.engine.deal import randint
    from handfoot.game.fair import KeyedRandom
    for make in (random.Random, lambda s: KeyedRandom(s.to_bytes(32, "big"))):
        ours, theirs = make(seed), make(seed)
        assert [randint(ours, a, a + w) for a, w in bounds] == \
            [theirs.randint(a, a + w) for a, w in bounds]
        assert ours.getrandbits(64) == theirs.getrandbits(64)


@given(st.integers(0, 2**32), st.integers(0, 648))
def test_a_deck_is_shuffled_as_the_standard_library_shuffles_it(seed: int, n: int) -> None:
    # (the same seed deals the same hands as before the shuffle was compiled; a served
    # game's generator too, which supplies its own random bits; and each generator is
    # left where the library's own shuffle leaves it, so what is drawn next is the same)
    from handfoot.game.fair import KeyedRandom
    for make in (random.Random, lambda s: KeyedRandom(s.to_bytes(32, "big"))):
        a, b = list(range(n)), list(range(n))
        ours, theirs = make(seed), make(seed)
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getrandbits(64) == theirs.getrandbits(64)


# ------------------------------------------------------------ short openings shown
def _laid_out_short(held: str) -> Hand:
    """texas-good-sam: seat 0 has drawn and laid out K K K and A A A (90 of 120)."""
    rules = preset("texas-good-sam")
    h = stacked_hand(rules, hands={0: held})
    h.apply(DRAW)
    h.apply(LayMeld(tuple(parse_cards("KH KD KS"))))
    h.apply(LayMeld(tuple(parse_cards("AH AD AS"))))
    assert h.short_exposed(0)
    return h


def _play_turn(h: Hand, choose: Callable[[Hand], Action]) -> None:
    """Seat 0 plays on until its turn ends (or its team has gone down)."""
    while h.actor == 0 and not h.opened[0] and h.melds[0]:
        h.apply(choose(h))


@pytest.mark.parametrize("who", ["heuristic", "expert-policy"])
@pytest.mark.parametrize("held", ["KH KD KS AH AD AS 9H 9D 9S 4C 5D",   # a meld of 9s more
                                  "KH KD KS AH AD AS KC QD 7S 4C 5D"])  # or one K more
def test_the_computer_players_go_down_rather_than_take_back_a_short_opening(
        who: str, held: str) -> None:
    # Taking back melds laid out short of the count costs the team 100 points: where the
    # cards held make the opening with them, the player goes down.
    h = _laid_out_short(held)

    def heuristic(h: Hand) -> Action:
        return HeuristicBot(0).choose_in(h)

    def patient(h: Hand) -> Action:
        return decide_patient(obs_from_hand(h, 0), h.is_legal, h.legal_actions())

    _play_turn(h, heuristic if who == "heuristic" else patient)
    if "9S" in held:
        assert h.opened[0] and h.short_openings == [0, 0]
    else:
        # ... which is not enough (100 of 120): they are taken back, charged once
        assert not h.opened[0] and not h.melds[0] and h.short_openings == [1, 0]
        assert sum(isinstance(a, TakeBack) for _, a in h.history) == 2


@pytest.mark.parametrize("name", ["texas-good-sam", "alabama-samboree"])
def test_the_heuristic_never_shows_a_short_opening(name: str) -> None:
    rules = preset(name)
    for i in range(300):
        s = hand_seed(77, i)
        game = play(Game(rules, s), seat_bots(rules, ("heuristic",), s), hands=1)
        assert all(t.penalties == 0 for t in game.results[0].scores), (name, i)
