"""``handfoot ratings``: the computer levels rated on the people's scale, from arena
matches, and stored in the server's database (``computer_ratings``), so that a person
reads "about as strong as the medium computer".

Each ordered pair of levels plays ``--games`` whole games (team one all of the first
level, team two all of the second; each deal from ``--seed``), spread over ``--jobs``
processes; the games are then rated in order with OpenSkill's Plackett-Luce model, each
team of two or three as its members (every member of a level at the level's rating,
which moves by their mean change), so a level's rating is on the scale of one player,
as a person's is. The same seed gives the same ratings.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from handfoot.server.people.ratings import DEFAULT, LEVELS, rate_teams, rating_json
from handfoot.server.storage.people import Rating


def play_match(rules_name: str, first: str, second: str, seed: int) -> list[int]:
    """One whole game, ``first``'s level at team one's seats, ``second``'s at the
    others': the teams' totals."""
    from handfoot.arena import play, seat_bots
    from handfoot.game import Game
    from handfoot.rules import preset
    rules = preset(rules_name)
    game = play(Game(rules, seed=seed), seat_bots(rules, [first, second], seed), hands=None)
    return list(game.totals)


def matches(levels: list[str], games: int, seed: int) -> list[tuple[str, str, int]]:
    """Every game to play, in the order its result is rated."""
    pairs = list(itertools.permutations(levels, 2))
    return [(a, b, seed * 1_000_003 + i * len(pairs) + k)
            for i in range(games) for k, (a, b) in enumerate(pairs)]


def rate_levels(rules_name: str, levels: list[str], played: list[tuple[str, str, list[int]]]
                ) -> dict[str, Rating]:
    """The levels' ratings after these games, rated in order."""
    from handfoot.rules import preset
    team_of = preset(rules_name).team_of
    size = [team_of.count(t) for t in range(max(team_of) + 1)]
    now = {level: replace(DEFAULT, rules=rules_name) for level in levels}
    for first, second, totals in played:
        teams = [[now[first]] * size[0]] + [[now[second]] * n for n in size[1:]]
        after = rate_teams(teams, totals)
        for level, new in ((first, after[0]), (second, after[1])):
            mu = sum(r.mu for r in new) / len(new)
            sigma = sum(r.sigma for r in new) / len(new)
            now[level] = Rating(rules_name, mu, sigma, now[level].games + 1)
    return now


def compute(rules_name: str, levels: list[str], games: int, seed: int, jobs: int
            ) -> dict[str, Rating]:
    todo = matches(levels, games, seed)
    args = ([rules_name] * len(todo), [a for a, _, _ in todo], [b for _, b, _ in todo],
            [s for _, _, s in todo])
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            totals = list(pool.map(play_match, *args))
    else:
        totals = list(map(play_match, *args))
    return rate_levels(rules_name, levels, [(a, b, t) for (a, b, _), t
                                            in zip(todo, totals, strict=True)])


def cmd_ratings(args: argparse.Namespace) -> int:
    from handfoot.rules import PRESET_NAMES
    from handfoot.server.storage.command import database_errors
    from handfoot.server.storage.database import default_url
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    wrong = [x for x in levels if x not in LEVELS] + [r for r in args.rules
                                                      if r not in PRESET_NAMES]
    if wrong or len(levels) < 2 or args.games < 1:
        print(f"handfoot ratings: choose two or more levels of {', '.join(LEVELS)}, rule "
              f"sets of {', '.join(PRESET_NAMES)} and at least one game"
              + (f" ({', '.join(wrong)}: not one)" if wrong else ""), file=sys.stderr)
        return 2
    url = str(args.db or default_url())

    def run() -> int:
        from handfoot.server.storage.people import People
        from handfoot.server.storage.store import Store
        store = Store(url)
        try:
            out = {}
            for rules_name in args.rules or list(PRESET_NAMES):
                rated = compute(rules_name, levels, args.games, args.seed, args.jobs)
                People(store).set_computers(rules_name, rated)
                out[rules_name] = {k: rating_json(v) for k, v in rated.items()}
                if not args.json:
                    print(rules_name + ": " + ", ".join(
                        f"{k} {v.mu:.1f} ± {2 * v.sigma:.1f}" for k, v in rated.items()))
        finally:
            store.close()
        if args.json:
            print(json.dumps(out, indent=2))
        return 0
    return database_errors("ratings", url, run)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("ratings", help="rate the computer levels from arena matches and "
                                       "store them for the server")
    p.add_argument("--rules", action="append", default=[],
                   help="a preset (again for more; default: every preset)")
    p.add_argument("--levels", default=",".join(LEVELS), help="levels to rate (easy,medium,hard)")
    p.add_argument("--games", type=int, default=20, help="games for each ordered pair of levels")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    p.add_argument("--db", help="the server's database URL (default: the data folder's SQLite)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_ratings)
