"""The worker processes that keep the tables' games (handfoot.server.offloop.pool): a worker's
copy, sent only what happened since it last heard, answers exactly as the server's own
game does, through hands, time called, a worker killed and a game let go."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Sequence

import pytest

from handfoot.actions import action_to_json
from handfoot.arena import seat_bots
from handfoot.bots import Bot
from handfoot.game import Game
from handfoot.rules import preset
from handfoot.server.offloop.pool import (
    BrokenWorker,
    Origin,
    Pool,
    ServedGame,
    actions_played,
    actions_since,
    rules_from_toml,
)
from handfoot.server.offloop.work import (
    PEOPLE_WORKERS,
    OutOfTime,
    _alarm,
    _budget,
    decide_at,
    list_legal_at,
    people_moves,
    plan_at,
)

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


def _move(game: Game, bots: Sequence[Bot]) -> None:
    """The player to act moves, as its bot chooses."""
    seat = game.actor
    game.apply(bots[seat].choose(None, game.legal_actions()), seat)


def _moves_here(game: Game) -> list[dict[str, object]]:
    return people_moves(game)


def test_a_worker_s_copy_lists_the_moves_the_server_s_game_lists_through_whole_hands() -> None:
    rules = preset("six-deck")
    origin = Origin(rules.to_toml(), 11, None)
    game = ServedGame(rules, 11)
    bots = seat_bots(rules, ["medium"], 11)

    async def run() -> tuple[int, int, int]:
        pool = Pool(PEOPLE_WORKERS)
        asked = 0
        try:
            while len(game.results) < 2 and not game.over:
                # asked now and then (as the server asks when a person is to act)
                if actions_played(game) % 3 == 0:
                    assert await pool.at_table(game, origin, list_legal_at) == \
                        _moves_here(game)
                    asked += 1
                _move(game, bots)
            assert await pool.at_table(game, origin, list_legal_at) == _moves_here(game)
        finally:
            pool.close()
        return asked, pool.sent_whole, pool.sent_since

    asked, whole, since = asyncio.run(run())
    assert len(game.results) == 2  # the copy followed the game into its next hand
    # the game went whole to its worker once; every other call sent only the news
    assert whole == 1 and since == asked


def test_what_a_call_sends_is_the_actions_since_the_worker_last_heard() -> None:
    rules = preset("classic")
    game = ServedGame(rules, 4)
    bots = seat_bots(rules, ["random"], 4)
    for _ in range(30):
        _move(game, bots)
    everything = [a for r in game.results for a in r.actions] + list(game.hand.history)
    assert actions_since(game, 0, actions_played(game)) == everything
    assert actions_since(game, 25, 28) == everything[25:28]
    assert actions_since(game, 30, 30) == []


def test_time_called_reaches_the_worker_s_copy() -> None:
    rules = preset("six-deck")
    origin = Origin(rules.to_toml(), 2, None)
    game = ServedGame(rules, 2)
    bots = seat_bots(rules, ["medium"], 2)

    async def run() -> list[dict[str, object]]:
        pool = Pool(1)
        try:
            for _ in range(12):
                _move(game, bots)
            before = await pool.at_table(game, origin, list_legal_at)
            assert before  # the hand is in play
            game.call_time()  # six-deck: the hand ends as it stands, the game is over
            assert game.over
            return await pool.at_table(game, origin, list_legal_at)  # type: ignore[no-any-return]
        finally:
            pool.close()

    assert asyncio.run(run()) == [] == _moves_here(game)


def test_a_game_let_go_or_a_worker_killed_is_sent_whole_and_answers_the_same() -> None:
    rules = preset("alabama-samboree")
    games = [ServedGame(rules, s) for s in (5, 6)]
    origins = [Origin(rules.to_toml(), s, None) for s in (5, 6)]
    bots = seat_bots(rules, ["medium"], 5)

    async def run() -> tuple[int, int]:
        pool = Pool(1, keep=1)  # one game kept: the two tables take turns to be let go
        try:
            for _ in range(6):
                for game, origin in zip(games, origins, strict=True):
                    _move(game, bots)
                    assert await pool.at_table(game, origin, list_legal_at) == \
                        _moves_here(game)
            whole = pool.sent_whole
            worker = pool._workers[0]
            assert worker is not None
            # killed in the middle of a call: that call fails, and nothing else
            slow = asyncio.ensure_future(pool.call(time.sleep, 30))
            await asyncio.sleep(0.3)
            os.kill(worker.process.pid, signal.SIGKILL)
            with pytest.raises(BrokenWorker):
                await asyncio.wait_for(slow, 10)
            assert not worker.alive
            game, origin = games[0], origins[0]
            # a new worker starts and is sent the game whole
            assert await pool.at_table(game, origin, list_legal_at) == _moves_here(game)
            return whole, pool.sent_whole
        finally:
            pool.close()

    whole, after = asyncio.run(run())
    assert whole >= 11  # each call found the other table's game in its place
    assert after == whole + 1


def test_a_computer_player_decides_in_the_worker_as_it_would_at_home() -> None:
    rules = preset("texas-good-sam")
    origin = Origin(rules.to_toml(), 8, None)
    game = ServedGame(rules, 8)
    here = seat_bots(rules, ["medium"], 8)  # the same players, kept in this process

    async def run() -> int:
        pool = Pool(1)
        n = 0
        try:
            while len(game.results) < 1:
                seat = game.actor
                action, late = await pool.at_table(game, origin, decide_at, seat, "medium",
                                                   8 * 31 + seat, 10.0)
                assert not late
                assert action_to_json(action) == action_to_json(
                    here[seat].choose(None, game.legal_actions()))
                game.apply(action, seat)
                n += 1
            with pytest.raises(RuntimeError, match="not seat"):
                await pool.at_table(game, origin, decide_at, (game.actor + 1) % 4,
                                    "medium", 0, 10.0)
        finally:
            pool.close()
        return n

    assert asyncio.run(run()) > 50  # a whole hand, decision by decision


def test_a_computer_player_plans_its_turn_in_one_question_as_it_decides_move_by_move(
        ) -> None:
    """A computer player asked for the rest of its turn at once (``plan_at``) plans the
    very moves it chooses when asked move by move, seeing each move's outcome: a whole
    game of six-deck played from plans, each plan one player's moves up to another's
    turn, and the worker's copy, kept ahead of the table meanwhile, stays in step (only
    the news sent, never the game again)."""
    rules = preset("six-deck")
    origin = Origin(rules.to_toml(), 9, None)
    game = ServedGame(rules, 9)
    here = seat_bots(rules, ["medium"], 9)  # the same players, kept in this process

    async def run() -> tuple[int, int, int]:
        pool = Pool(1)
        moves = plans = longer = 0
        try:
            while len(game.results) < 2 and not game.over:
                seat = game.actor
                hand = game.hand.hand_number
                planned, late = await pool.at_table(
                    game, origin, plan_at, seat, "medium", 9 * 31 + seat, 10.0,
                    played_ahead=lambda answer: answer[0])
                assert not late and planned
                plans += 1
                longer += len(planned) > 1
                for i, action in enumerate(planned):
                    assert game.actor == seat and game.hand.hand_number == hand
                    assert action_to_json(action) == action_to_json(
                        here[seat].choose(None, game.legal_actions()))
                    game.apply(action, seat)
                    moves += 1
                    if i < len(planned) - 1:
                        assert game.actor == seat  # a plan stops where the turn passes
                # the plan went to the end of the turn (or of the hand)
                assert game.actor != seat or game.hand.hand_number != hand or game.over
                # the worker's copy, ahead of the table, is where the table now is
                assert await pool.at_table(game, origin, list_legal_at) == \
                    _moves_here(game)
        finally:
            pool.close()
        assert pool.sent_whole == 1  # the first question only
        return moves, plans, longer

    moves, plans, longer = asyncio.run(run())
    assert plans < moves and longer > 10  # turns of several moves, each one question


def test_a_plan_the_table_did_not_follow_sends_the_game_whole() -> None:
    """The table plays only the first of a planned turn's moves and then another of its
    own (a seat handed back to its person, say): the worker's copy went another way, so
    the next question sends the game whole, and the answer is the table's. The same
    when time is called in the middle of a turn (a house rule that plays the hand out
    when time is called)."""
    rules = rules_from_toml(preset("classic").to_toml().replace(
        'when_time_is_called = "end-hand"', 'when_time_is_called = "finish-hand"'))
    assert rules.game.when_time_is_called == "finish-hand"
    origin = Origin(rules.to_toml(), 3, None)

    async def run() -> None:
        pool = Pool(1)
        try:
            for time_called in (False, True):
                game = ServedGame(rules, 3)
                bots = seat_bots(rules, ["random"], 3)
                # to a turn of a computer player that plans two moves (a plan the
                # table followed in part, or longer, is found out by its count alone)
                while True:
                    seat = game.actor
                    planned, _ = await pool.at_table(
                        game, origin, plan_at, seat, "random", 77 + seat, 10.0,
                        played_ahead=lambda answer: answer[0])
                    if len(planned) == 2:
                        break
                    for action in planned:
                        game.apply(action, seat)
                game.apply(planned[0], seat)  # the first move as planned, then:
                if time_called:
                    game.call_time()  # the hand goes on to its end
                    game.apply(planned[1], seat)  # the second as planned, time called
                else:
                    others = [a for a in game.legal_actions() if a != planned[1]]
                    game.apply(others[0], seat)  # another move than planned
                before = pool.sent_whole
                assert await pool.at_table(game, origin, list_legal_at) == \
                    _moves_here(game)
                assert pool.sent_whole == before + 1  # sent whole
                if not game.over:  # and the copy goes on in step
                    _move(game, bots)
                    assert await pool.at_table(game, origin, list_legal_at) == \
                        _moves_here(game)
                    assert pool.sent_whole == before + 1
        finally:
            pool.close()

    asyncio.run(run())


def test_the_time_budget_s_alarm_interrupts_only_inside_the_budget() -> None:
    # a signal the kernel sends as the budget ends may be handled after the block: it
    # must then be dropped, not raised in whatever the worker does next (sending its
    # answer, say, which would end the worker)
    with pytest.raises(OutOfTime), _budget(5.0):
        _alarm(signal.SIGPROF, None)
    with _budget(5.0):
        pass
    _alarm(signal.SIGPROF, None)  # late: nothing happens


def test_a_served_game_is_referred_to_weakly_and_forgotten_when_it_is_gone() -> None:
    # Compiled, a Game has no weak references: the pool's map of what each worker was
    # sent refused every served game, and no computer player at a table ever moved.
    import gc
    import pickle
    import weakref

    from handfoot.server.offloop.pool import make_game
    rules = preset("texas-good-sam")
    game = make_game(rules, 3, None)
    bots = seat_bots(rules, ["random"], 3)
    for _ in range(12):
        _move(game, bots)
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is ServedGame
    assert _moves_here(copy) == _moves_here(game)
    assert actions_played(copy) == actions_played(game) == 12
    ref = weakref.ref(game)
    del copy

    async def main(served: ServedGame) -> None:
        pool = Pool(1)
        try:
            origin = Origin(rules.to_toml(), 3, None)
            assert await pool.at_table(served, origin, list_legal_at) == _moves_here(served)
            assert len(pool._sent) == 1
            del served
            gc.collect()
            assert ref() is None
            assert len(pool._sent) == 0
        finally:
            pool.close()
    running = main(game)
    del game  # (the coroutine holds the only reference)
    asyncio.run(running)


def test_a_person_s_moves_are_listed_on_the_loop_for_small_hands_and_in_a_worker_else() -> None:
    """The moves shown to a person holding at most ``Work.list_here`` cards are listed
    on the event loop, larger hands in a worker; both give exactly what the game lists
    (:func:`people_moves`). Here the limit is lowered to 6 cards, so that a six-deck
    hand (11 cards dealt, fewer as they are laid down) crosses it both ways."""
    from handfoot.server.offloop.work import LIST_HERE, Work, listed_here
    rules = preset("six-deck")
    origin = Origin(rules.to_toml(), 5, None)
    game = ServedGame(rules, 5)
    bots = seat_bots(rules, ["medium"], 5)
    assert listed_here(game) and LIST_HERE >= 30  # a hand as dealt, in every preset

    async def run() -> tuple[int, int, int]:
        work = Work(bot_workers=1)
        work.list_here = 6
        here = away = 0
        try:
            for _ in range(120):
                if game.over:
                    break
                small = game.hand.hand_len[game.actor] <= 6
                before = (work.listed_here, work.people.sent_whole + work.people.sent_since)
                assert await work.legal(game, origin) == people_moves(game)
                after = (work.listed_here, work.people.sent_whole + work.people.sent_since)
                assert after == ((before[0] + 1, before[1]) if small
                                 else (before[0], before[1] + 1))
                here += small
                away += not small
                _move(game, bots)
        finally:
            work.close()
        return here, away, work.listed_here

    here, away, counted = asyncio.run(run())
    assert here > 10 and away > 10 and counted == here
