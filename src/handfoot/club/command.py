"""``handfoot event ...``: run a club event from the command line (docs/club.md)."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from handfoot.club.draw import draw_round
from handfoot.club.event import Event, EventError, RoundDraw, players_csv, read_players_csv
from handfoot.club.store import ClubStore


def _store(args: argparse.Namespace) -> ClubStore:
    return ClubStore(args.db)


def _fail(message: str) -> int:
    print(f"handfoot: {message}", file=sys.stderr)
    return 2


def _read(path: str) -> str:
    try:
        return Path(path).read_text("utf-8")
    except OSError as e:
        raise EventError(f"cannot read {path}: {e.strerror}") from e


def draw_text(event: Event, draw: RoundDraw) -> str:
    lines = [f"{event.name}, round {draw.round} (seed {draw.seed})"]
    for t in draw.tables:
        kind = " (individuals)" if t.individuals else ""
        teams = "  v  ".join(event.team_name(m) for m in t.team_list())
        lines.append(f"  Table {t.number}{kind}: {teams}")
    if draw.byes:
        lines.append("  Bye: " + ", ".join(event.name_of(p) for p in draw.byes))
    lines.extend(f"  Note: {n}" for n in draw.notes)
    return "\n".join(lines)


def cmd_create(args: argparse.Namespace) -> int:
    rules = _read(args.rules) if args.rules else args.variant
    event = Event.create(args.name, rules, args.rounds, seats=args.seats,
                         time_limit_minutes=args.time_limit,
                         time_warning_minutes=args.warning, partner_policy=args.partners,
                         odd_players=args.odd, avoid_same_chapter=args.not_same_chapter)
    password = args.password or secrets.token_urlsafe(9)
    _store(args).create(event, password)
    r = event.rules
    print(f"Created {event.name!r}: {r.title or r.name}, {event.rounds} round(s), "
          f"{r.players.seats} seats a table, partners {event.partner_policy}, "
          f"left-over players: {event.odd_players}"
          + (f", time limit {event.time_limit_minutes} min" if event.time_limit_minutes
             else ""))
    if not args.password:
        print(f"Organiser's password (keep it; it is not shown again): {password}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    for name in _store(args).names():
        print(name)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    store = _store(args)
    event = store.load(args.name)
    players = read_players_csv(_read(args.file))
    event.set_players(players)
    event.forbidden_pairs()
    store.save_settings(event)
    chapters = {p.chapter for p in players if p.chapter}
    restricted = sum(1 for p in players if p.not_partners)
    print(f"{len(players)} players from {len(chapters)} chapter(s); {restricted} with "
          "not-partner restrictions")
    return 0


def cmd_add_player(args: argparse.Namespace) -> int:
    store = _store(args)
    event = store.load(args.name)
    for other in args.not_partner:
        event.by_name(other)
    event.add_player(args.player, args.chapter, args.not_partner)
    store.save_settings(event)
    print(f"{args.player} added; {len(event.players)} players")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    sys.stdout.write(players_csv(_store(args).load(args.name).players))
    return 0


def cmd_draw(args: argparse.Namespace) -> int:
    store = _store(args)
    event = store.load(args.name)
    draw = draw_round(event, args.round, args.seed)
    store.save_draw(event, draw)
    print(draw_text(event, draw))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    event = _store(args).load(args.name)
    if args.round not in event.draws:
        raise EventError(f"round {args.round} has not been drawn")
    print(draw_text(event, event.draws[args.round]))
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    from handfoot.club.results import result_from_record, result_from_sheets
    from handfoot.scorekeeper import ScoreSheetError, read_sheet
    store = _store(args)
    event = store.load(args.name)
    if bool(args.sheet) == bool(args.record):
        raise EventError("give either --sheet FILE... (one per hand) or --record FILE")
    if args.record:
        try:
            record = json.loads(_read(args.record))
        except json.JSONDecodeError as e:
            raise EventError(f"{args.record} is not a game record: {e}") from e
        result = result_from_record(event, args.round, args.table, record)
    else:
        sheets = []
        for path in args.sheet:
            try:
                sheets.append(read_sheet(_read(path), "json" if path.endswith(".json")
                                         else "toml"))
            except ScoreSheetError as e:
                raise EventError(f"{path}: {e}") from e
        result = result_from_sheets(event, args.round, args.table, sheets, args.time_called)
    store.add_result(event, result)
    table = event.draws[args.round].table(args.table)
    for t, members in enumerate(table.team_list()):
        hands = " + ".join(str(h[t]) for h in result.hands)
        print(f"  {event.team_name(members)}: {hands} = {result.totals[t]}")
    if result.time_called:
        print("  (time was called)")
    missing = event.missing_results()
    print(f"Round {args.round}, table {args.table} entered; "
          + (f"{len(missing)} table(s) still to come." if missing else "every table is in."))
    return 0


def standings_text(event: Event) -> str:
    from handfoot.club.standings import standings
    st = standings(event)
    out = []
    for kind, lines in (("Teams", st.teams), ("Players", st.players),
                        ("Chapters (average per player)", st.chapters)):
        if not lines:
            continue
        out.append(kind)
        width = max(len(x.name) for x in lines)
        for x in lines:
            pts = f"{x.points:g}" if isinstance(x.points, float) else str(x.points)
            note = f"  {x.note}" if x.note else ""
            if x.bye_credit:
                note += f"  (bye credit {x.bye_credit})"
            out.append(f"  {x.place_text:>4}  {x.name:<{width}}  {pts:>8}  "
                       f"{x.games} game(s){note}")
    if st.missing:
        out.append("Still to come: " + ", ".join(f"round {r} table {t}" for r, t in st.missing))
    for kind in st.pending:
        out.append(f"A tie for first place among {kind}s is to be broken "
                   f"(handfoot event tiebreak {event.name!r} --kind {kind} ...)")
    return "\n".join(out)


def cmd_standings(args: argparse.Namespace) -> int:
    event = _store(args).load(args.name)
    if args.csv:
        from handfoot.club.printing import standings_csv
        sys.stdout.write(standings_csv(event))
    else:
        print(standings_text(event))
    return 0


def cmd_tiebreak(args: argparse.Namespace) -> int:
    from handfoot.club.standings import check_tie_break, high_card_draw, record_playoff
    store = _store(args)
    event = store.load(args.name)
    # The same checks as the organiser's page: as the rule set says, once the event is
    # over, and only a tie still to be broken.
    check_tie_break(event, args.kind, playoff=bool(args.winner))
    if args.winner:
        tb = record_playoff(event, args.kind, args.winner)
    elif args.seed is not None:
        tb = high_card_draw(event, args.kind, args.seed)
    else:
        raise EventError("give --seed S for a high-card draw, or --winner NAME for the "
                         "winner of a play-off")
    store.add_tie_break(event, tb)
    for line in tb.detail:
        print(f"  {line}")
    from handfoot.club.standings import standings
    first = standings(event).by_kind(args.kind)[0]
    print(f"First place ({args.kind}): {first.name}")
    return 0


def cmd_print(args: argparse.Namespace) -> int:
    from handfoot.club import printing
    event = _store(args).load(args.name)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    if args.round is not None:
        r = args.round
        files[f"assignments-round{r}.html"] = printing.assignments_html(event, r)
        files[f"assignments-round{r}.csv"] = printing.assignments_csv(event, r)
        files[f"score-sheets-round{r}.html"] = printing.score_sheets_html(event, r)
        for t in event.draws[r].tables if r in event.draws else ():
            files[f"round{r}-table{t.number}.toml"] = printing.sheet_template(event, r, t)
    files["results.html"] = printing.results_html(event)
    files["standings.csv"] = printing.standings_csv(event)
    for name, text in files.items():
        (out / name).write_text(text, "utf-8")
        print(out / name)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Computer players play every table of a drawn round (to try an event out)."""
    from handfoot.club.results import play_table, result_from_game
    store = _store(args)
    event = store.load(args.name)
    if args.round not in event.draws:
        raise EventError(f"round {args.round} has not been drawn")
    for t in event.draws[args.round].tables:
        if event.result(args.round, t.number) is not None:
            continue
        game = play_table(event, args.round, t.number, [args.bots],
                          args.seed * 1000 + t.number, args.minutes_per_turn)
        store.add_result(event, result_from_game(event, args.round, t.number, game))
        print(f"  Table {t.number}: {list(game.totals)}"
              + (" (time called)" if game.time_called else ""))
    return 0


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except EventError as e:
            return _fail(str(e))
    return run


def add_parser(sub: Any) -> None:
    """Add ``handfoot event`` and its commands to the main parser's subparsers."""
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=None,
                    help="database URL (default: the game server's, in your data folder)")
    p = sub.add_parser("event", help="club events: players, the draw, results, standings")
    ev = p.add_subparsers(dest="event_command", required=True)

    c = ev.add_parser("create", parents=[db], help="create an event")
    c.add_argument("name")
    c.add_argument("--variant", default="classic", help="the preset played")
    c.add_argument("--rules", metavar="FILE", help="house rules as TOML (instead of --variant)")
    c.add_argument("--rounds", type=int, default=1)
    c.add_argument("--password", help="the organiser's password (default: one is made up)")
    c.add_argument("--seats", type=int, choices=(4, 6), help="seats a table (6: teams of 3)")
    c.add_argument("--time-limit", type=int, metavar="MIN",
                   help="minutes a game may last (default: the rule set's)")
    c.add_argument("--warning", type=int, metavar="MIN",
                   help="warn players this many minutes before time (default: rule set's)")
    c.add_argument("--partners", default="redraw",
                   help="later rounds: redraw (new partners) or keep (teams move tables); "
                        "or one for each of rounds 2, 3, ...: keep,redraw")
    c.add_argument("--odd", choices=("bye", "individuals"), default="bye",
                   help="players left over: a bye, or a table of individuals")
    c.add_argument("--not-same-chapter", action="store_true",
                   help="partners must come from different chapters")
    c.set_defaults(func=_guard(cmd_create))

    c = ev.add_parser("list", parents=[db], help="the events in the database")
    c.set_defaults(func=_guard(cmd_list))
    c = ev.add_parser("import", parents=[db], help="the players from CSV "
                      "(name,chapter,not_partner_with)")
    c.add_argument("name")
    c.add_argument("file")
    c.set_defaults(func=_guard(cmd_import))
    c = ev.add_parser("add-player", parents=[db], help="register one player (a late arrival)")
    c.add_argument("name")
    c.add_argument("player")
    c.add_argument("--chapter", default="")
    c.add_argument("--not-partner", action="append", default=[], metavar="NAME",
                   help="someone who may not be their partner (repeat for more)")
    c.set_defaults(func=_guard(cmd_add_player))
    c = ev.add_parser("export", parents=[db], help="the players as CSV")
    c.add_argument("name")
    c.set_defaults(func=_guard(cmd_export))
    c = ev.add_parser("draw", parents=[db], help="draw a round's partners and tables")
    c.add_argument("name")
    c.add_argument("--round", type=int, required=True)
    c.add_argument("--seed", type=int, required=True, help="announce it: the draw repeats")
    c.set_defaults(func=_guard(cmd_draw))
    c = ev.add_parser("show", parents=[db], help="show a round's draw")
    c.add_argument("name")
    c.add_argument("--round", type=int, required=True)
    c.set_defaults(func=_guard(cmd_show))
    c = ev.add_parser("result", parents=[db], help="enter a table's result")
    c.add_argument("name")
    c.add_argument("--round", type=int, required=True)
    c.add_argument("--table", type=int, required=True)
    c.add_argument("--sheet", nargs="+", metavar="FILE",
                   help="score sheets (handfoot score format), one per hand, in order")
    c.add_argument("--time-called", action="store_true",
                   help="time was called before every hand was played")
    c.add_argument("--record", metavar="FILE", help="a game record (played online)")
    c.set_defaults(func=_guard(cmd_result))
    c = ev.add_parser("standings", parents=[db], help="standings by team, player, chapter")
    c.add_argument("name")
    c.add_argument("--csv", action="store_true")
    c.set_defaults(func=_guard(cmd_standings))
    c = ev.add_parser("tiebreak", parents=[db], help="break a tie for first place")
    c.add_argument("name")
    c.add_argument("--kind", choices=("team", "player", "chapter"), default="team")
    c.add_argument("--seed", type=int, help="a high-card draw with this seed")
    c.add_argument("--winner", help="the winner of a play-off, as the standings name them")
    c.set_defaults(func=_guard(cmd_tiebreak))
    c = ev.add_parser("print", parents=[db], help="pages to print (HTML) and CSV")
    c.add_argument("name")
    c.add_argument("--round", type=int, help="the round's assignments and score sheets")
    c.add_argument("--out", required=True, metavar="DIR")
    c.set_defaults(func=_guard(cmd_print))
    c = ev.add_parser("simulate", parents=[db],
                      help="computer players play every table of a drawn round")
    c.add_argument("name")
    c.add_argument("--round", type=int, required=True)
    c.add_argument("--bots", default="random")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--minutes-per-turn", type=float, default=0.0,
                   help="a simulated clock, for the time limit")
    c.set_defaults(func=_guard(cmd_simulate))
