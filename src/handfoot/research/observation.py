"""A seat's view as a flat numeric vector, the move mask, and the reward.

The vector is built from :func:`handfoot.game.views.seat_view` only, so it holds nothing the
seat may not see. Seats and teams are numbered *from the observer*: seat block 0 is the
observer, 1 the next seat to its left, and so on; team block 0 is the observer's team.
Counts are raw (not scaled). The blocks, in order (``NUM_CARDS`` = 53 kinds of card,
jokers last):

========================  =====================================================
``hand``                  53: how many of each card the seat holds (its foot once
                          picked up)
per seat (``seats``)      4 + 53: cards in hand, cards in the foot (0 once picked
                          up), in the foot (0/1), turns played from the foot, then
                          the cards the table saw go into that hand (from the pile)
per team (``teams``)      7 + 53: opened (0/1), opening minimum, running total,
                          points laid out towards the opening, red threes, melds,
                          complete books, then the cards in the team's melds by card
``pile``                  54 + 4: the top card (one-hot, the last place meaning an
                          empty pile), the pile's size, frozen for the seat (0/1),
                          a wild card in it (0/1), the stock's size
``stack tops``            53: the face-up top cards of the stacks while hands are
                          chosen (``choose_hand = "seeing-tops"``), by card
``turn``                  5 + 6: the phase one-hot (choose, draw, play, ask, over),
                          the seat to act is the observer (0/1), the turn's seat
                          relative to the observer, asked to go out (0/1),
                          permission given (0/1), refused (0/1), hand number
========================  =====================================================

The reward of a team for a hand is its score for the hand minus the mean score of the
other teams (with two teams: the point difference), given to each of its seats.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from handfoot.cards import NUM_CARDS
from handfoot.game.views import View
from handfoot.rules import Rules

SEAT_BLOCK = 4 + NUM_CARDS
TEAM_BLOCK = 7 + NUM_CARDS
PILE_BLOCK = NUM_CARDS + 1 + 4
TURN_BLOCK = 5 + 6
_PHASES = ("choose", "draw", "play", "ask", "over")


def observation_size(rules: Rules) -> int:
    """The length of the vector for a rule set."""
    return (NUM_CARDS + rules.players.seats * SEAT_BLOCK + rules.players.teams * TEAM_BLOCK
            + PILE_BLOCK + NUM_CARDS + TURN_BLOCK)


def observation_vector(view: View, out: npt.NDArray[np.float32] | None = None
                       ) -> npt.NDArray[np.float32]:
    """The vector of a seat's view (see the module's description of the blocks)."""
    if view.seat is None:
        raise ValueError("an observation is of a seat, not of a spectator")
    seats, teams = len(view.players), len(view.teams)
    size = (NUM_CARDS + seats * SEAT_BLOCK + teams * TEAM_BLOCK + PILE_BLOCK + NUM_CARDS
            + TURN_BLOCK)
    vec = np.zeros(size, dtype=np.float32) if out is None else out
    if out is not None:
        vec.fill(0)
    me = view.seat
    my_team = view.players[me].team
    vec[:NUM_CARDS] = view.hand_counts
    pos = NUM_CARDS
    for k in range(seats):
        p = view.players[(me + k) % seats]
        vec[pos:pos + 4] = (p.hand_count, p.foot_count, p.in_foot, p.foot_turns)
        for c in p.known:
            vec[pos + 4 + c] += 1
        pos += SEAT_BLOCK
    for k in range(teams):
        t = view.teams[(my_team + k) % teams]
        books = sum(1 for m in t.melds if m.complete)
        vec[pos:pos + 7] = (t.opened, t.minimum, t.total, t.laid_out_points,
                            len(t.red_threes), len(t.melds), books)
        for m in t.melds:
            for c in m.cards:
                vec[pos + 7 + c] += 1
        pos += TEAM_BLOCK
    vec[pos + (NUM_CARDS if view.pile_top is None else view.pile_top)] = 1
    pos += NUM_CARDS + 1
    vec[pos:pos + 4] = (view.pile_size, view.pile_frozen is not None, view.pile_has_wild,
                        view.stock_size)
    pos += 4
    for a, b in view.stack_tops:
        vec[pos + a] += 1
        vec[pos + b] += 1
    pos += NUM_CARDS
    vec[pos + _PHASES.index(view.phase)] = 1
    pos += 5
    vec[pos:pos + 6] = (view.actor == me, (view.turn - me) % seats, view.asked_to_go_out,
                        view.permission is True, view.permission is False, view.hand_number)
    return vec


def hand_rewards(rules: Rules, team_points: Sequence[int]) -> list[float]:
    """Each seat's reward for a hand (or a game) given each team's points: its team's
    points minus the mean of the other teams' points.

    >>> from handfoot.rules import preset
    >>> hand_rewards(preset("classic"), [300, 120])
    [180.0, -180.0, 180.0, -180.0]
    """
    k = len(team_points)
    total = sum(team_points)
    per_team = [float(p - (total - p) / (k - 1)) if k > 1 else float(p) for p in team_points]
    return [per_team[rules.team_of[s]] for s in range(rules.players.seats)]
