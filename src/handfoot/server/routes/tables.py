"""The tables: set one up (seats for people, with their invite links, and for computer
players), play against the computer, the lobby, and a table's state, record and replay.
What its host may do is in :mod:`.hosting`."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import logging
import secrets
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.game.fair import new_secret
from handfoot.game.records import commitments_json, dumps, game_record
from handfoot.game.views import public_view
from handfoot.rules import PRESET_NAMES, Rules
from handfoot.server.live.presence import check_settings
from handfoot.server.live.table import (
    LiveTable,
    default_level,
    level_word,
    levels,
    new_token,
    offered_levels,
    salt_of,
    token_hash,
)
from handfoot.server.live.table_log import seat_names
from handfoot.server.offloop.pool import rules_from_toml
from handfoot.server.offloop.work import check_record
from handfoot.server.routes.hosting import invite_token
from handfoot.server.routes.http import ApiError, json_body, seed_value
from handfoot.server.routes.replay import replay_step
from handfoot.server.routes.rule_sets import rules_of
from handfoot.server.services import Services, services
from handfoot.server.storage.store import TableRow

log = logging.getLogger("handfoot.server")

MAX_BODY = 256 * 1024
LOBBY_PAGE = 50  #: tables on one page of the lobby
RECENT = dt.timedelta(days=14)  #: finished tables stay in the lobby this long


def seat_rows(seats: list[Any], tid: str, creator: str
              ) -> tuple[list[dict[str, Any]], list[str | None]]:
    """The seats as stored, and each person's invite token (None for a computer's seat),
    derived from the host's token so that the host can see them again."""
    stored: list[dict[str, Any]] = []
    tokens: list[str | None] = []
    for i, s in enumerate(seats):
        if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
            raise ApiError(f"Seat {i + 1} must be a person or a computer player.")
        level = s.get("level", default_level())
        if s["kind"] == "bot" and level not in levels():
            raise ApiError(f"There is no computer player called {level!r}; "
                           f"the levels are {', '.join(offered_levels())}.")
        name = s.get("name", "")
        if not isinstance(name, str):
            raise ApiError(f"The name of seat {i + 1} must be text.")
        name = " ".join(name.split())[:40]
        if s["kind"] == "human":
            tok = invite_token(creator, tid, i, 0)
            stored.append({"kind": "human", "name": name, "token_hash": token_hash(tok),
                           "level": level if level in levels() else default_level()})
            tokens.append(tok)
        else:
            stored.append({"kind": "bot", "level": level, "name": name})
            tokens.append(None)
    return stored, tokens


def friendly(rules: Rules, name: str) -> Rules:
    """A table set up in the lobby from a built-in rule set is a friendly one: this
    turn's plays may be taken back until the discard (``turn.take_back_turn``; a club
    event's tables, and a club's own saved rule set, keep what their rules say)."""
    if name not in PRESET_NAMES:
        return rules
    return dataclasses.replace(rules, turn=dataclasses.replace(rules.turn,
                                                               take_back_turn=True))


async def new_table(request: Request, rules_name: str, seats: list[Any],
                    seed: int | None, wait: bool = False,
                    settings: dict[str, int] | None = None) -> dict[str, Any]:
    """A table set up, with its host's token and the invites. ``wait``: the game
    starts when every person has joined (or the host starts it); else at once."""
    svc = services(request)
    rules = friendly(await rules_of(svc.store, rules_name), rules_name)
    n = rules.players.seats
    if len(seats) != n:
        raise ApiError(f"These rules seat {n} players; {len(seats)} seats were given.")
    tid = secrets.token_hex(6)
    creator = new_token()  # the host's token; each invite is derived from it
    stored, tokens = seat_rows(seats, tid, creator)
    who = svc.limit(request, "tables", "Too many tables were started from here")
    # without an explicit seed the deals come from a secret of 256 bits, shown
    # to nobody while the game is played
    secret = new_secret() if seed is None else None
    try:  # (written in a thread: the loop never waits for the database)
        await asyncio.to_thread(
            svc.store.create_table, rules_name, rules.to_toml(), seed or 0, stored,
            table_id=tid, secret=secret, creator_hash=token_hash(creator),
            waiting=wait and any(t is not None for t in tokens), settings=settings)
    except Exception:
        svc.limits.give_back("tables", who)
        raise
    svc.lobby.forget()
    table = await svc.table(tid)
    if svc.manager.keepers.shared:
        # kept here from the start: the table's sockets are handed to this process
        # as they come, even those that come before its first computer moves
        with contextlib.suppress(Exception):
            await svc.manager.keepers.take(tid)
    svc.manager.kick_bots(table)
    return {"id": tid, "rules": rules_name, "creator": creator, "waiting": table.waiting,
            "invites": [{"seat": i, "name": stored[i]["name"], "token": t,
                         "url": svc.invite_url(request, tid, t)}
                        for i, t in enumerate(tokens) if t is not None]}


async def api_tables(request: Request) -> Response:
    """GET: the lobby; POST: set up a table."""
    if request.method == "POST":
        return await create(request)
    return await lobby(request)


async def create(request: Request) -> Response:
    data = await json_body(request, MAX_BODY)
    seats = data.get("seats")
    seed = seed_value(data.get("seed"))
    if not isinstance(seats, list):
        raise ApiError("Say who sits in each seat.")
    wait = data.get("wait", False)
    if not isinstance(wait, bool):
        raise ApiError("Say wait: true (the game starts when everyone has joined) "
                       "or false.")
    try:
        settings = check_settings(data.get("settings"))
    except ValueError as e:
        raise ApiError(str(e)) from None
    return JSONResponse(await new_table(request, str(data.get("rules", "")), seats,
                                        seed, wait, settings))


async def lobby(request: Request) -> Response:
    """Open tables and those finished lately, newest first, a page at a time."""
    svc = services(request)
    try:
        page = max(0, min(int(request.query_params.get("page", "0")), 10**6))
    except ValueError:
        raise ApiError("The page must be a whole number.") from None
    since = dt.datetime.now(dt.UTC).replace(tzinfo=None) - RECENT

    def listing() -> bytes:
        rows = svc.store.lobby(since, limit=LOBBY_PAGE, offset=page * LOBBY_PAGE)
        out, total = [summary(svc, r) for r in rows], svc.store.lobby_count(since)
        return orjson.dumps({"tables": out, "page": page, "per_page": LOBBY_PAGE,
                             "total": total, "pages": max(1, -(-total // LOBBY_PAGE))},
                            option=orjson.OPT_NON_STR_KEYS)

    # made in a thread, once for all who ask for the page meanwhile
    body = await svc.lobby.get(page, lambda: asyncio.to_thread(listing))
    return Response(body, media_type="application/json")


def summary(svc: Services, row: TableRow) -> dict[str, Any]:
    """A table in the lobby: from memory if it is live, else from its row (a table
    is not loaded to be listed; read in a thread)."""
    table = svc.manager.live.get(row.id)
    waiting = False
    if row.result is not None:  # finished: the lobby needs no replay
        out = {"seq": row.result["seq"], "over": True, "started": True,
               "hand_number": row.result["hand_number"],
               "totals": row.result["totals"], "winners": row.result["winners"]}
    elif table is not None:
        g = table.game
        out = {"seq": table.seq, "over": g.over, "started": table.seq > 0,
               "hand_number": g.hand_number, "totals": list(g.totals),
               "winners": list(g.winners)}
        waiting = table.waiting
    else:
        seq = svc.store.action_count(row.id)
        waiting = seq == 0 and svc.store.is_waiting(row.id)
        out = {"seq": seq, "over": False, "started": seq > 0, "hand_number": None,
               "totals": None, "winners": []}
    return {"id": row.id, "rules": row.rules_name, "created": row.created.isoformat(),
            **out, "waiting": waiting, "next": row.next_table,
            "seats": [{"kind": s["kind"], "computer": bool(s["kind"] == "bot"
                                                           or s.get("computer")),
                       "name": s.get("name", ""), "called": called, "team": team}
                      for s, called, team in zip(row.seats, seat_names(row.seats),
                                                 rules_from_toml(row.rules_toml).team_of,
                                                 strict=True)]}


async def api_play(request: Request) -> Response:
    """Play against the computer: you and a computer partner against two computers."""
    data = await json_body(request, MAX_BODY)
    rules_name = str(data.get("rules", "texas-good-sam"))
    level = str(data.get("level", default_level()))
    rules = await rules_of(services(request).store, rules_name)
    player = await services(request).people.player(request, required=False)
    name = player.name if player is not None else str(data.get("name", "You"))
    seats: list[Any] = [{"kind": "human", "name": name}]
    seats += [{"kind": "bot", "level": level} for _ in range(rules.players.seats - 1)]
    out = await new_table(request, rules_name, seats, seed_value(data.get("seed")))
    inv = out["invites"][0]
    return JSONResponse({"id": out["id"], "seat": 0, "token": inv["token"],
                         "url": inv["url"], "creator": out["creator"]})


async def api_table(request: Request) -> Response:
    """The table as anyone may see it; once the game is over, its deals verified."""
    svc = services(request)
    table = await svc.table(request.path_params["id"])
    msg = {"id": table.id, "rules": table.row.rules_name, "seq": table.seq,
           "over": table.game.over, "view": public_view(table.game).to_json(),
           "seats": [{"kind": s["kind"], "computer": table.is_bot(i),
                      "level": level_word(s.get("level")) if s["kind"] == "bot" else None}
                     for i, s in enumerate(table.seats)]}
    if table.game.over:
        msg["fair"] = await verified(svc, table)
    return JSONResponse(msg)


async def verified(svc: Services, table: LiveTable) -> dict[str, Any]:
    """The finished game's deals checked against the commitments shown when each hand
    was dealt (as ``handfoot replay`` checks its record; in a worker process, once)."""
    if table.fair is None and not table.row.secret:
        table.fair = {"verified": False, "hands": 0, "seeded": True,
                      "message": "dealt from a seed chosen when the table was set up, "
                                 "so whoever chose it could know every card"}
    if table.fair is None:
        rec = record_of(table)
        ok, hands, message = await svc.manager.work.run("people", check_record, rec)
        table.fair = {"verified": ok and hands == len(rec["hands"]), "hands": hands,
                      "message": "deal verified" if ok else message}
    return table.fair


def record_of(table: LiveTable) -> dict[str, Any]:
    """The finished game's record, with every hand's salt revealed."""
    names = seat_names(table.seats)
    rec = game_record(table.game, names, {"table": table.id})
    # the game is over: the salts are revealed, and anyone can check every deal
    rec["commitments"] = commitments_json(table.game, salt_of(table.row))
    return rec


async def api_record(request: Request) -> Response:
    """The finished game's record, as a file to download."""
    table = await services(request).table(request.path_params["id"])
    if not table.game.over:
        raise ApiError("The record is available once the game is over.", 403)
    return Response(dumps(record_of(table)), media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="handfoot-{table.id}.json"'})


async def api_replay(request: Request) -> Response:
    """A finished game, step by step: every seat's view after ``step`` actions (made in
    a worker process, once: a finished game never changes)."""
    svc = services(request)
    table = await svc.table(request.path_params["id"])
    if not table.game.over:
        raise ApiError("A game can be replayed once it is over.", 403)
    try:
        step = int(request.query_params.get("step", "0"))
    except ValueError:
        raise ApiError("The step must be a whole number.") from None
    step = max(0, min(step, table.seq))

    async def make() -> bytes:
        logged, time_seq = await asyncio.to_thread(
            lambda: ([(a.seat, a.action) for a in svc.store.actions(table.id)],
                     svc.store.time_called(table.id)))
        names = seat_names(table.seats)
        out = await svc.manager.work.run("people", replay_step, table.row.rules_toml,
                                         table.row.seed, table.row.secret, logged,
                                         time_seq, step, names)
        return await asyncio.to_thread(orjson.dumps, {
            **out, "total": table.seq, "names": names, "rules": table.row.rules_name},
            option=orjson.OPT_NON_STR_KEYS)
    body = await svc.replays.get((table.id, step), make)
    return Response(body, media_type="application/json")


async def api_review(request: Request) -> Response:
    """The hard player's review of a finished game (``handfoot review --json``): worked
    out once, in the reviews' worker process, and kept with the game. Until it is kept:
    ``{"status": "working"}`` (asked again later)."""
    svc = services(request)
    table = await svc.table(request.path_params["id"])
    if not table.game.over:
        raise ApiError("A game is reviewed once it is over.", 403)
    kept = await asyncio.to_thread(svc.store.review, table.id)
    if kept is not None:
        return Response('{"status": "ready", "review": ' + kept + "}",
                        media_type="application/json")
    if table.id not in svc.reviewing:
        task = asyncio.get_running_loop().create_task(_review(svc, table))
        svc.reviewing[table.id] = task
        task.add_done_callback(lambda _t: svc.reviewing.pop(table.id, None))
    return Response('{"status": "working"}', media_type="application/json")


async def _review(svc: Services, table: LiveTable) -> None:
    """Work the review out in a worker and keep it (a failure is logged and forgotten:
    the next request starts again)."""
    try:
        text = await svc.manager.work.review(record_of(table))
        await asyncio.to_thread(svc.store.save_review, table.id, text)
    except Exception:
        log.exception("the review of table %s failed", table.id)


routes: list[BaseRoute] = [
    Route("/api/tables", api_tables, methods=["GET", "POST"]),
    Route("/api/play", api_play, methods=["POST"]),
    Route("/api/tables/{id}", api_table),
    Route("/api/tables/{id}/record", api_record),
    Route("/api/tables/{id}/replay", api_replay),
    Route("/api/tables/{id}/review", api_review),
]
