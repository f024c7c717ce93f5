"""The game for research (docs/research.md): the PettingZoo environment and the OpenSpiel
game pass their libraries' own checks in every preset and in random valid house rules,
nothing they hand a seat reaches a card it cannot see, OpenSpiel's ISMCTS plays a whole
hand against the heuristic, and ``sim --ray`` gives what ``--jobs`` gives."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from handfoot.arena import seat_bots, simulate  # noqa: E402
from handfoot.game.views import seat_view  # noqa: E402
from handfoot.research.encoding import MoveCodec  # noqa: E402
from handfoot.research.ismcts import play_hand  # noqa: E402
from handfoot.research.observation import observation_size  # noqa: E402
from handfoot.research.openspiel_game import (  # noqa: E402
    HandAndFootState,
    config_of,
    rules_param,
)
from handfoot.research.pettingzoo_env import HandAndFootEnv, env_for  # noqa: E402
from handfoot.research.steps import listed_steps  # noqa: E402
from handfoot.rules import PRESET_NAMES, Rules, preset  # noqa: E402
from hidden import hidden_objects, reachable  # noqa: E402
from strategies import rule_sets  # noqa: E402

FEW = settings(max_examples=3, deadline=None, derandomize=True,
               suppress_health_check=list(HealthCheck))


# ------------------------------------------------------------------ PettingZoo


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_pettingzoo_api_and_seed_tests_pass(name: str) -> None:
    api_test(env_for(name, max_hands=1), num_cycles=400)
    seed_test(lambda: env_for(name, max_hands=1), num_cycles=200)


@FEW
@given(rule_sets())
def test_pettingzoo_api_and_seed_tests_pass_in_house_rules(rules: Rules) -> None:
    api_test(HandAndFootEnv(rules, max_hands=1), num_cycles=200)
    seed_test(lambda: HandAndFootEnv(rules, max_hands=1), num_cycles=100)


def _play_env(env: HandAndFootEnv, seed: int, check_every: int = 0) -> dict[str, float]:
    """Random legal numbers until the episode ends; the rewards each agent received."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    got = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter(max_iter=200_000):
        obs, reward, term, trunc, _info = env.last()
        got[agent] += reward
        if check_every and steps % check_every == 0:
            game = env.game
            assert game is not None
            for other in env.possible_agents:
                seat = int(other.rsplit("_", 1)[1])
                hidden = hidden_objects(game, seat)
                for x in reachable(env.observe(other), env.infos.get(other, {})):
                    assert id(x) not in hidden, f"{other} can reach {hidden[id(x)]}"
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) >= 1
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 20
    return got


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_pettingzoo_rewards_are_the_hands_point_difference(name: str) -> None:
    env = env_for(name, max_hands=1)
    got = _play_env(env, 11)
    game = env.game
    assert game is not None and len(game.results) == 1
    scores = [sc.total for sc in game.results[0].scores]
    for s, agent in enumerate(env.possible_agents):
        mine = scores[game.rules.team_of[s]]
        others = [v for t, v in enumerate(scores) if t != game.rules.team_of[s]]
        assert got[agent] == pytest.approx(mine - sum(others) / len(others))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_observations_never_reach_a_card_the_seat_cannot_see(name: str) -> None:
    _play_env(env_for(name, max_hands=1), 5, check_every=9)


def test_observation_vector_holds_the_seat_s_hand_and_the_table() -> None:
    env = env_for("classic", max_hands=1)
    env.reset(seed=2)
    game = env.game
    assert game is not None
    for agent in env.possible_agents:
        seat = int(agent.rsplit("_", 1)[1])
        vec = env.observe(agent)["observation"]
        assert vec.shape == (observation_size(game.rules),)
        assert list(vec[:53]) == list(seat_view(game, seat).hand_counts)
    # the same seed deals the same game; another seed another one
    again = env_for("classic", max_hands=1)
    again.reset(seed=2)
    assert np.array_equal(again.observe("seat_0")["observation"],
                          env.observe("seat_0")["observation"])
    again.reset(seed=3)
    assert not np.array_equal(again.observe("seat_0")["observation"],
                              env.observe("seat_0")["observation"])


def test_an_illegal_number_is_refused_and_changes_nothing() -> None:
    env = env_for("texas-good-sam", max_hands=1)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(ValueError):
        env.step(illegal)
    assert np.array_equal(env.observe(agent)["observation"], before)


# ------------------------------------------------------------------ OpenSpiel


def _load(name: str | Rules, **params: Any) -> Any:
    if isinstance(name, Rules):
        return pyspiel.load_game("python_handfoot", {"rules": rules_param(name), **params})
    return pyspiel.load_game("python_handfoot", {"variant": name, **params})


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_openspiel_random_simulation_with_serialisation_and_cloning(name: str) -> None:
    game = _load(name, max_hands=1)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@settings(max_examples=2, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(rule_sets())
def test_openspiel_random_simulation_in_house_rules(rules: Rules) -> None:
    game = _load(rules, max_hands=1)
    assert game.num_players() == rules.players.seats
    assert game.num_distinct_actions() == MoveCodec(rules).size
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _random_play(state: Any, rng: random.Random) -> tuple[int, int]:
    """Play to the end; how many chance nodes and player moves there were."""
    chance = moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return chance, moves


def test_openspiel_states_are_fixed_by_their_history() -> None:
    game = _load("classic", max_hands=1)
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(300):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    for p in range(game.num_players()):
        assert again.information_state_string(p) == state.information_state_string(p)
        assert again.observation_tensor(p) == state.observation_tensor(p)
    clone = state.clone()
    a = clone.legal_actions()[0]
    clone.apply_action(a)
    assert clone.history() == [*state.history(), a]  # the clone is independent
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state)


def test_a_reshuffle_is_a_chance_node() -> None:
    """In classic the pile is shuffled into a new stock when the stock runs out: the
    move that makes the shuffle waits for a chance node."""
    game = _load("classic", max_hands=1, shuffles=5)
    for seed in range(6):
        state = game.new_initial_state()
        chance, _ = _random_play(state, random.Random(seed))
        if chance > 1:
            table = state.table
            assert table.results[0].deal.shuffles  # the engine shuffled, seeded by chance
            return
    pytest.fail("no reshuffle in six random hands")


def test_openspiel_returns_are_the_point_difference() -> None:
    game = _load("texas-good-sam", max_hands=1)
    state = game.new_initial_state()
    _random_play(state, random.Random(1))
    scores = [sc.total for sc in state.table.results[0].scores]
    rules = preset("texas-good-sam")
    assert state.returns() == [float(scores[rules.team_of[s]] - scores[1 - rules.team_of[s]])
                               for s in range(4)]
    assert sum(state.returns()) == 0


def test_openspiel_observations_never_reach_a_hidden_card() -> None:
    game = _load("six-deck", max_hands=1)
    state = game.new_initial_state()
    rng = random.Random(2)
    info = pyspiel.IIGObservationType(perfect_recall=True)
    observer = game.make_py_observer(info)
    steps = 0
    while not state.is_terminal() and steps < 400:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        if steps % 11 == 0:
            for p in range(game.num_players()):
                observer.set_from(state, p)
                text = observer.string_from(state, p)
                hidden = hidden_objects(state.table, p)
                for x in reachable(observer.tensor, observer.dict, text):
                    assert id(x) not in hidden
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


def test_resampling_keeps_what_the_player_knows() -> None:
    game = _load("classic", max_hands=1)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(120):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    sampled = state.resample_from_infostate(p, rng.random)
    assert sampled.information_state_string(p) == state.information_state_string(p)
    assert sampled.legal_actions() == state.legal_actions()
    others = [s for s in range(4) if s != p]
    assert any(sampled.table.hand.hands[s] != state.table.hand.hands[s] for s in others)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_heuristic_plays_a_hand_through_numbered_moves(name: str) -> None:
    """Every move the heuristic makes is made of moves the engine lists, numbered."""
    game = _load(name, max_hands=1)
    cfg = config_of(game.get_parameters())
    state: HandAndFootState = game.new_initial_state()
    state.apply_action(7)
    bots = seat_bots(cfg.rules, ("heuristic",), 7)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
            continue
        table = state.table
        seat = table.actor
        move = bots[seat].choose(seat_view(table, seat), table.legal_actions())
        for step in listed_steps(table.hand, move):
            number = cfg.codec.encode(step, state.table.hand.pile_top)
            assert number in state.legal_actions()
            state.apply_action(number)
    assert state.table.results[0].ended_by in ("out", "stock")


def test_ismcts_plays_a_whole_hand_against_the_heuristic() -> None:
    scores = play_hand("texas-good-sam", seed=5, simulations=10)
    assert len(scores) == 2 and scores != (0, 0)


# ------------------------------------------------------------------ Ray


def test_ray_gives_the_same_summary_and_records_as_jobs(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from handfoot.research.ray_sim import simulate_ray

    rules = preset("texas-good-sam")
    seen: list[int] = []
    a = simulate_ray(rules, 6, 9, ["heuristic", "random"], tmp_path / "ray", num_cpus=2,
                     progress=seen.append)
    b = simulate(rules, 6, 9, ["heuristic", "random"], tmp_path / "jobs", jobs=2)
    assert sum(seen) == 6
    skip = {"seconds", "hands_per_second", "jobs"}
    assert {k: v for k, v in a.to_json().items() if k not in skip} == \
        {k: v for k, v in b.to_json().items() if k not in skip}
    names = sorted(p.name for p in (tmp_path / "ray").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "jobs").iterdir()) and len(names) == 6
    for n in names:
        assert json.loads((tmp_path / "ray" / n).read_text()) == \
            json.loads((tmp_path / "jobs" / n).read_text())


def test_sim_ray_on_the_command_line_matches_jobs(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    from handfoot.cli import main

    common = ["sim", "--variant", "six-deck", "--bots", "random,heuristic", "--hands", "3",
              "--seed", "4", "--json"]
    assert main([*common, "--ray", "--record-dir", str(tmp_path / "ray")]) == 0
    out = capsys.readouterr()
    ray_summary = json.loads(out.out)
    assert "3/3 hands" in out.err  # progress
    assert main([*common, "--jobs", "2", "--record-dir", str(tmp_path / "jobs")]) == 0
    jobs_summary = json.loads(capsys.readouterr().out)
    for key in ("wins", "ties", "mean_points", "mean_difference", "ended_by", "mean_turns"):
        assert ray_summary[key] == jobs_summary[key]
    for p in (tmp_path / "jobs").iterdir():
        assert (tmp_path / "ray" / p.name).read_text() == p.read_text()


def test_bench_reports_rollout_steps_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    from handfoot.cli import main

    assert main(["bench", "--json", "--variant", "texas-good-sam", "--hands", "1",
                 "--decisions", "2"]) == 0
    row = json.loads(capsys.readouterr().out)["texas-good-sam"]
    for key in ("engine_steps_per_s", "pettingzoo_steps_per_s", "openspiel_steps_per_s"):
        assert row[key] > 0


def test_pettingzoo_a_whole_game_ends_in_termination_with_the_win_reward() -> None:
    """texas-good-sam is one hand: the game ends with it, the winners get win_reward."""
    env = env_for("texas-good-sam", win_reward=1000.0)
    got = _play_env(env, 3)
    game = env.game
    assert game is not None and game.over
    scores = [sc.total for sc in game.results[0].scores]
    for s, agent in enumerate(env.possible_agents):
        team = game.rules.team_of[s]
        bonus = 1000.0 if team in game.winners else -1000.0
        assert got[agent] == pytest.approx(scores[team] - scores[1 - team] + bonus)
