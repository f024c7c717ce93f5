"""What knowing the hidden cards would be worth to the hard player: an instrument, never
a player.

The expert (:class:`~handfoot.bots.expert.ExpertBot`) weighs its candidates in worlds
that deal the cards its seat cannot see at random. :class:`SeeingExpert` is the same
search with its worlds dealt from the true hand instead, as far as ``sees`` says:

- ``nothing``: the ordinary worlds (the expert itself);
- ``partner``: its partners' hands shown; the opponents' hands, every foot and the stock
  dealt at random;
- ``opponents``: the opponents' hands shown; the partners' hands, the feet and the stock
  dealt at random;
- ``hands``: every hand shown; the feet and the stock dealt at random;
- ``feet``: every hand and foot shown; the stock's order dealt anew in each world;
- ``stock``: everything, the order of the stock too.

Played against the medium player in duplicate deals (the deals, seats and bots' seeds of
``handfoot sim --duplicate --bots expert,heuristic``, so ``nothing`` wins exactly the
hands the expert wins there), the difference is what the search would gain by knowing
those cards: a bound on what better guesses of them can give it (docs/bots.md).

    python -m handfoot.research.seeing --variant classic --seed 96000 --deals 50 --sees feet
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import time
from collections.abc import Sequence
from typing import Final

from handfoot.arena import hand_seed, play, team_entries, wilson
from handfoot.bots import Bot, make_bot
from handfoot.bots.expert import ExpertBot, sample_world
from handfoot.cards import sorted_from_counts
from handfoot.engine import Hand
from handfoot.game import Game
from handfoot.game.views import View
from handfoot.rules import Rules, preset

#: what the search may be shown, least first
SEES: Final = ("nothing", "partner", "opponents", "hands", "feet", "stock")


def shown_view(view: View, hand: Hand, partners: bool, opponents: bool) -> View:
    """``view`` with the hands of the seat's partners and (or) of its opponents shown,
    as if the whole table had seen every card go into them."""
    assert view.seat is not None
    team = view.players[view.seat].team
    players = tuple(
        p._replace(known=tuple(sorted_from_counts(hand.hands[p.seat])))
        if p.seat != view.seat and (partners if p.team == team else opponents) else p
        for p in view.players)
    return dataclasses.replace(view, players=players)


def seen_world(view: View, hand: Hand, sees: str, rng: random.Random) -> Hand | None:
    """A world for the search of the seat ``view`` belongs to, ``hand`` being the true
    one: the cards ``sees`` does not show dealt at random (:func:`sample_world`)."""
    if sees in ("partner", "opponents", "hands"):
        shown = shown_view(view, hand, sees != "opponents", sees != "partner")
        world = sample_world(shown, hand.rules, rng)
        if world is not None:
            # (shown to the search, not to the seats it plays in its worlds: what each
            # of them knows of the others is what the table saw)
            world.known = [list(x) for x in hand.known]
            world.known_version += 1
        return world
    if sees == "nothing":
        return sample_world(view, hand.rules, rng)
    world = hand.clone()  # (feet or stock)
    # (a clone draws on its original's generator: a reshuffle in the search would move
    # the true hand's on)
    world.rng = random.Random(rng.getrandbits(32))
    if sees == "feet":
        stock = list(world.stock)
        rng.shuffle(stock)
        world.stock = stock
    return world


class SeeingExpert(ExpertBot):
    """The expert whose search is shown the true hand of ``game`` as far as ``sees``
    says (everything else, its candidates and its policy, as the expert's)."""

    def __init__(self, seed: int, game: Game, sees: str) -> None:
        if sees not in SEES:
            raise ValueError(f"sees must be one of {', '.join(SEES)}, not {sees!r}")
        super().__init__(seed)
        self.game = game
        self.sees = sees

    def world(self, view: View, rules: Rules, rng: random.Random) -> Hand | None:
        return seen_world(view, self.game.hand, self.sees, rng)


def play_seeing(rules: Rules, seed: int, index: int, copy: int, sees: str
                ) -> tuple[int, int]:
    """Deal ``index`` of ``seed``, copy ``copy``, as ``handfoot sim --duplicate`` plays
    it with ``--bots expert,heuristic``, the expert's seats played by
    :class:`SeeingExpert`. Returns the points of the expert's team and the medium's."""
    s = hand_seed(seed, index)
    entry_of = team_entries(2, copy)
    game = Game(rules, s)
    bots: list[Bot] = [
        SeeingExpert(s * 31 + seat, game, sees) if entry_of[rules.team_of[seat]] == 0
        else make_bot("heuristic", s * 31 + seat)
        for seat in range(rules.players.seats)]
    play(game, bots, hands=1)
    totals = [sc.total for sc in game.results[0].scores]
    points = [0, 0]
    for t in range(2):
        points[entry_of[t]] = totals[t]
    return points[0], points[1]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="the hard player shown hidden cards, "
                                            "against the medium player")
    p.add_argument("--variant", default="classic")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--first", type=int, default=0, help="the first deal")
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--sees", choices=SEES, default="feet")
    p.add_argument("--json", action="store_true", help="a line of JSON a hand")
    args = p.parse_args(argv)
    rules = preset(args.variant)
    if rules.players.teams != 2:
        p.error("the seeing expert plays rule sets of two teams")
    start = time.perf_counter()
    wins, hands, lead = 0.0, 0, 0
    for i in range(args.first, args.first + args.deals):
        for copy in range(2):
            mine, theirs = play_seeing(rules, args.seed, i, copy, args.sees)
            hands += 1
            lead += mine - theirs
            wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            if args.json:
                print(json.dumps({"deal": i, "copy": copy, "points": [mine, theirs]}),
                      flush=True)
    lo, hi = wilson(round(wins), hands)
    print(f"the expert seeing {args.sees} won {wins:g} of {hands} hands against the "
          f"medium player ({100 * wins / hands:.2f}%, 95% CI {100 * lo:.1f}–{100 * hi:.1f}%), "
          f"mean lead {lead / hands:+.0f}, in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
