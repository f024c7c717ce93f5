"""The ``handfoot`` command: variants, rules, replay, review, score, sim, play and watch."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from handfoot import __version__
from handfoot.actions import Action
from handfoot.arena import (
    Summary,
    play,
    seat_bots,
    simulate,
    summary_json,
    summary_text,
)
from handfoot.arena.plots import plot_differences
from handfoot.bots import BOTS, is_bot_file, make_bot
from handfoot.cli.show import describe, score_table
from handfoot.game import Game
from handfoot.game.records import RecordError, load, replay
from handfoot.rules import PRESET_NAMES, RulesError, Words, preset
from handfoot.scorekeeper import ScoredTeam, ScoreSheetError, score_file


def _console() -> Console:
    return Console(highlight=False)


def cmd_variants(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name in PRESET_NAMES:
        r = preset(name)
        rows.append({
            "name": name, "title": r.title, "source": r.source,
            "players": r.players.seats, "teams": r.players.teams, "decks": r.num_decks,
            "hand_size": r.deal.hand_size, "foot_size": r.deal.foot_size, "hands": r.game.hands,
            "opening_minimums": list(r.opening.minimums),
        })
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    # The name is what people type: never cut short. On a narrow terminal the title,
    # the one long column, gives way (to its own line below the table's numbers).
    console = _console()
    wide = console.width >= 100
    table = Table(title="Built-in rule sets", title_justify="left")
    table.add_column("name", no_wrap=True)
    if wide:
        table.add_column("title")
    for col in ("players", "decks", "hand/foot", "hands"):
        table.add_column(col, justify="right", no_wrap=True)
    table.add_column("to open", no_wrap=True)
    for row in rows:
        cells = [row["name"], *([row["title"]] if wide else []), str(row["players"]),
                 str(row["decks"]), f"{row['hand_size']}/{row['foot_size']}", str(row["hands"]),
                 "/".join(str(m) for m in row["opening_minimums"])]
        table.add_row(*cells)
    console.print(table)
    if not wide:
        for row in rows:
            console.print(f"  {row['name']}: {row['title']}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    try:
        rules = preset(args.name)
    except RulesError as e:
        print(f"handfoot: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(rules.to_toml())
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = load(args.file)
    except RecordError as e:
        print(f"handfoot: {e}", file=sys.stderr)
        return 2
    report = replay(record)
    print(("OK: " if report.ok else "FAILED: ") + report.message)
    return 0 if report.ok else 1


def cmd_review(args: argparse.Namespace) -> int:
    from handfoot.bots.review import ReviewError, review, review_text

    try:
        record = load(args.file)
        if args.worlds < 2 or args.search < 2:
            raise RecordError("--worlds and --search must be 2 or more")
        result = review(record, worlds=args.worlds, search=args.search)
    except (RecordError, ReviewError) as e:
        print(f"handfoot: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        players = record.get("players")
        names = [str(p) for p in players] if isinstance(players, list) else []
        print(review_text(result, names))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    try:
        rules, teams = score_file(args.file)
    except ScoreSheetError as e:
        print(f"handfoot: {e}", file=sys.stderr)
        return 2
    if args.json:
        out: list[dict[str, Any]] = [{"name": t.name, **t.score.to_json()} for t in teams]
        print(json.dumps({"variant": rules.name, "teams": out}, indent=1))
        return 0
    _print_scores(rules.title or rules.name, teams, rules.words)
    return 0


def _print_scores(title: str, teams: Sequence[ScoredTeam], words: Words) -> None:
    _console().print(score_table(title, [t.name for t in teams], [t.score for t in teams],
                                 words))


def cmd_sim(args: argparse.Namespace) -> int:
    try:
        rules = preset(args.variant)
    except RulesError as e:
        print(f"handfoot: {e}", file=sys.stderr)
        return 2
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in names if b not in BOTS and not is_bot_file(b)]
    if unknown or not names:
        print(f"handfoot: unknown bot(s) {', '.join(unknown)}; the bots are {', '.join(BOTS)}",
              file=sys.stderr)
        return 2
    for name in names:
        if is_bot_file(name):
            try:
                make_bot(name)
            except (ValueError, SyntaxError, ImportError) as e:
                print(f"handfoot: the bot {name} cannot be loaded: {e}", file=sys.stderr)
                return 2
    teams = rules.players.teams
    if len(names) > teams:
        print(f"handfoot: {len(names)} bots for {teams} teams; give one bot per team",
              file=sys.stderr)
        return 2
    count = args.games if args.games is not None else args.hands
    if count < 1 or args.jobs < 1:
        print(f"handfoot: --{'games' if args.games is not None else 'hands'} and --jobs "
              "must be at least 1", file=sys.stderr)
        return 2
    record_dir = Path(args.record_dir) if args.record_dir else None
    options: dict[str, Any] = {"games": args.games is not None, "duplicate": args.duplicate}
    run: Callable[..., Summary]
    if args.ray is not None:  # spread over a Ray cluster (a local one with no address)
        try:
            import ray  # noqa: F401

            from handfoot.research.ray_sim import simulate_ray
        except ImportError:
            print("handfoot: --ray needs Ray: pip install 'handfoot[research]'",
                  file=sys.stderr)
            return 2
        options["address"] = args.ray or None
        run = simulate_ray
    else:
        options["jobs"] = args.jobs
        run = simulate
    if sys.stdout.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
        with Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), transient=True) as bar:
            task = bar.add_task(f"{'games' if options['games'] else 'hands'} of "
                                f"{rules.name}", total=count)
            summary = run(rules, count, args.seed, names, record_dir,
                          progress=lambda n: bar.advance(task, n), **options)
    elif args.ray is not None:  # a long run on a cluster: progress on stderr
        done = [0]

        def report(n: int) -> None:
            done[0] += n
            print(f"{done[0]}/{count} {'games' if options['games'] else 'hands'}",
                  file=sys.stderr, flush=True)

        summary = run(rules, count, args.seed, names, record_dir, progress=report, **options)
    else:
        summary = run(rules, count, args.seed, names, record_dir, **options)
    print(summary_json(summary) if args.json else summary_text(summary))
    if args.plot:
        plot_differences(summary, args.plot)
        if not args.json:
            print(f"plot: {args.plot}")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    """Bots play a whole game, shown in the terminal."""
    try:
        rules = preset(args.variant)
    except RulesError as e:
        print(f"handfoot: {e}", file=sys.stderr)
        return 2
    console = _console()
    game = Game(rules, args.seed)
    bots = seat_bots(rules, [args.bots], args.seed)
    console.rule(f"[bold]{rules.title}[/bold]: bots play a game (seed {args.seed})")
    state = {"hand": 0}

    def show(g: Game, seat: int, action: Action) -> None:
        if g.results and len(g.results) > state["hand"]:
            r = g.results[-1]
            state["hand"] = len(g.results)
            how = {"out": f"seat {(r.went_out or 0) + 1} went out", "stock": "the stock ran out",
                   "time": "time was called"}[r.ended_by]
            console.print(f"[bold]Hand {r.number} is over: {how}.[/bold]")
            names = [f"Team {t + 1}" for t in range(rules.players.teams)]
            console.print(score_table(f"Hand {r.number}", names, r.scores, rules.words))
            if not g.over:
                console.rule(f"Hand {g.hand.hand_number}: opening minimum "
                             f"{g.hand.minimums[0]}")
            return
        if action.kind in ("lay-down", "meld", "take-back", "go-down", "add", "take-pile",
                           "pick-up-foot", "ask", "answer") or args.verbose:
            console.print(f"  Seat {seat + 1} (team {rules.team_of[seat] + 1}) "
                          f"{describe(action)}")
        if args.delay:
            time.sleep(args.delay)

    console.rule(f"Hand 1: opening minimum {game.hand.minimums[0]}")
    play(game, bots, hands=None, on_action=show)
    winners = ", ".join(f"team {t + 1}" for t in game.winners)
    console.print(f"[bold]Game over. Totals {game.totals}; winner: {winners}.[/bold]")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """One person plays in the terminal with a bot partner against bots."""
    from handfoot.cli.terminal import TerminalGame, level_bot

    try:
        rules = preset(args.variant)
        level_bot(args.partner)
        level_bot(args.opponents)
    except (RulesError, ValueError) as e:
        print(f"handfoot: {e}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else time.time_ns() % 1_000_000
    return TerminalGame(rules, seed, args.partner, args.opponents,
                        autoplay=args.autoplay, echo=not sys.stdin.isatty()).run()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="handfoot", description="Hand and Foot, by the rules.")
    parser.add_argument("--version", action="version", version=f"handfoot {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("variants", help="list the built-in rule sets")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_variants)
    p = sub.add_parser("rules", help="print a rule set as TOML")
    p.add_argument("name")
    p.set_defaults(func=cmd_rules)
    p = sub.add_parser("replay", help="replay a game record and check it")
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("review", help="the hard player's review of a game record: the "
                       "costliest decisions of each hand")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--worlds", type=int, default=48,
                   help="sampled worlds to weigh a move against the one preferred (more: "
                   "steadier figures, slower)")
    p.add_argument("--search", type=int, default=32,
                   help="sampled worlds of the hard player's own search at each decision")
    p.set_defaults(func=cmd_review)
    p = sub.add_parser("score", help="score a hand played at a real table")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)
    p = sub.add_parser("sim", help="bots play many hands (or games); prints a summary")
    p.add_argument("--variant", required=True)
    p.add_argument("--bots", default="random,random",
                   help="one bot per team, comma-separated: team 1's first (a bot may be "
                   "PATH.py:Class, another version of a bot saved in a file)")
    p.add_argument("--hands", type=int, default=100, help="single hands to play")
    p.add_argument("--games", type=int, help="whole games (the preset's hands) instead")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="processes to spread the deals over")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="spread the deals over a Ray cluster (a local one when no address "
                        "is given); the same results as --jobs (needs handfoot[research])")
    p.add_argument("--duplicate", action="store_true",
                   help="play every deal again with the teams' seats swapped")
    p.add_argument("--record-dir", help="write one game record per hand (game) here")
    p.add_argument("--json", action="store_true")
    p.add_argument("--plot", metavar="FILE", help="a PNG histogram of score differences")
    p.set_defaults(func=cmd_sim)
    p = sub.add_parser("play", help="play in the terminal with a bot partner against bots")
    p.add_argument("--variant", default="classic")
    p.add_argument("--partner", default="medium", help="easy, medium, hard (or a bot's name)")
    p.add_argument("--opponents", default="medium", help="easy, medium, hard (or a bot's name)")
    p.add_argument("--seed", type=int, help="the deals' seed (default: from the clock)")
    p.add_argument("--autoplay", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("watch", help="watch bots play a whole game in the terminal")
    p.add_argument("--variant", default="classic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="random")
    p.add_argument("--delay", type=float, default=0.0)
    p.add_argument("--verbose", action="store_true")
    p.set_defaults(func=cmd_watch)
    from handfoot.server.command import add_serve_parser
    add_serve_parser(sub)
    from handfoot.server.diagnostics.loadtest import add_parser as add_loadtest_parser
    add_loadtest_parser(sub)
    from handfoot.arena.bench import add_parser as add_bench_parser
    add_bench_parser(sub)
    from handfoot.club.command import add_parser as add_event_parser
    add_event_parser(sub)
    from handfoot.server.storage.command import add_parser as add_db_parser
    add_db_parser(sub)
    from handfoot.server.diagnostics.status import add_parser as add_status_parser
    add_status_parser(sub)
    from handfoot.server.people.command import add_parser as add_ratings_parser
    add_ratings_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
