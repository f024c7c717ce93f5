"""The ASGI application: the JSON API, the WebSocket protocol and the web page.

WebSocket ``/ws/{table}?token=T`` (no token: a spectator). Client to server::

    {"type": "action", "action": {...}}     an action in the record's JSON form
    {"type": "preview", "action": {...}}    what it would be worth, and the engine's word
    {"type": "computer", "on": true}        hand my seat to a computer player (or back)
    {"type": "next-hand"}                   ready for the next hand (after one ended)
    {"type": "hint"}                        what the medium computer player would do now

Server to client: ``{"type": "state", ...}`` after every change (only this seat's view),
``{"type": "preview", ...}`` and ``{"type": "error", "message": ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import gc
import logging
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.actions import ActionSyntaxError, action_from_json
from handfoot.engine import IllegalAction
from handfoot.fair import new_secret
from handfoot.records import commitments_json, dumps, game_record
from handfoot.rules import PRESET_NAMES, Rules, RulesError, preset
from handfoot.rules_words import rules_in_words
from handfoot.server.event_routes import event_routes
from handfoot.server.events import EventService
from handfoot.server.guard import RateLimits, SameOriginMiddleware, client_address
from handfoot.server.http import ApiError, json_body, parse_json, seed_value
from handfoot.server.outbox import Connection
from handfoot.server.store import RuleSetTaken, Store
from handfoot.server.tables import (
    LiveTable,
    Manager,
    default_level,
    levels,
    new_token,
    offered_levels,
    salt_of,
    token_hash,
)
from handfoot.server.work import Work, check_record
from handfoot.views import public_view, seat_view

log = logging.getLogger("handfoot.server")

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 64 * 1024  #: the largest WebSocket message a client may send
MAX_BODY = 256 * 1024
LOBBY_PAGE = 50  #: tables on one page of the lobby
RECENT = dt.timedelta(days=14)  #: finished tables stay in the lobby this long


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    return await json_body(request, MAX_BODY)


def _rules_named(store: Store, name: str) -> Rules:
    if name in PRESET_NAMES:
        return preset(name)
    saved = None if len(name) > 80 or "\x00" in name else store.rule_set(name)
    if saved is None:
        raise ApiError(f"There is no rule set called {name[:80]!r}.", 404)
    return Rules.from_toml(saved[1])


def _valid_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 32 and table_id.isascii() and table_id.isalnum()


def _changes(rules: Rules, base: Rules) -> list[dict[str, Any]]:
    return [{"setting": k, "from": a, "to": b} for k, a, b in rules.changes_from(base)]


def create_app(db_url: str, bot_delay: float = 0.6, public_url: str = "",
               minute: float = 60.0, limits: RateLimits | None = None,
               address_header: str = "", work: Work | None = None) -> Starlette:
    """``minute``: seconds in a minute of an event round's clock (tests shorten it);
    ``limits``: what one address may create in an hour; ``address_header``: the header
    in which the operator's proxy gives the client's address (none: the peer's)."""
    store = Store(db_url)
    manager = Manager(store, bot_delay=bot_delay, work=work)
    limits = limits or RateLimits()
    events = EventService(store, manager, public_url, minute, limits=limits,
                          address_header=address_header)

    async def get_table(table_id: str) -> LiveTable:
        table = await manager.aload(table_id) if _valid_id(table_id) else None
        if table is None:
            raise ApiError("There is no such table.", 404)
        return table

    def limit(request: Request, what: str, message: str) -> str:
        who = client_address(request, address_header)
        if not limits.take(what, who):
            raise ApiError(message + f" (at most {limits.limit(what)} an hour from one "
                           "address); please try again later.", 429)
        return who

    def invite(request: Request, table_id: str, token: str) -> str:
        base = public_url or str(request.base_url).rstrip("/")
        return f"{base}/table/{table_id}?token={token}"

    async def new_table(request: Request, rules_name: str, seats: list[dict[str, Any]],
                        seed: int | None) -> dict[str, Any]:
        rules = _rules_named(store, rules_name)
        n = rules.players.seats
        if len(seats) != n:
            raise ApiError(f"These rules seat {n} players; {len(seats)} seats were given.")
        stored: list[dict[str, Any]] = []
        tokens: list[str | None] = []
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
                raise ApiError(f"Seat {i + 1} must be a person or a computer player.")
            level = s.get("level", default_level())
            if s["kind"] == "bot" and level not in levels():
                raise ApiError(f"There is no computer player called {level!r}; "
                               f"the levels are {', '.join(levels())}.")
            name = str(s.get("name", ""))[:40]
            if s["kind"] == "human":
                tok = new_token()
                stored.append({"kind": "human", "name": name, "token_hash": token_hash(tok),
                               "level": level if level in levels() else default_level()})
                tokens.append(tok)
            else:
                stored.append({"kind": "bot", "level": level, "name": name})
                tokens.append(None)
        who = limit(request, "tables", "Too many tables were started from here")
        # without an explicit seed the deals come from a secret of 256 bits, shown
        # to nobody while the game is played
        secret = new_secret() if seed is None else None
        creator = new_token()
        try:
            tid = store.create_table(rules_name, rules.to_toml(), seed or 0, stored,
                                     secret=secret, creator_hash=token_hash(creator))
        except Exception:
            limits.give_back("tables", who)
            raise
        table = await get_table(tid)
        manager.kick_bots(table)
        return {"id": tid, "rules": rules_name, "creator": creator, "invites": [
            {"seat": i, "token": t, "url": invite(request, tid, t)}
            for i, t in enumerate(tokens) if t is not None]}

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def api_presets(request: Request) -> Response:
        out = [{"name": n, "title": preset(n).title, "seats": preset(n).players.seats,
                "saved": False} for n in PRESET_NAMES]
        for name, base in store.rule_sets():
            out.append({"name": name, "title": f"house rules from {base}",
                        "seats": _rules_named(store, name).players.seats, "saved": True})
        return JSONResponse({"rule_sets": out, "levels": offered_levels(),
                             "all_levels": levels(), "default_level": default_level()})

    async def api_rules(request: Request) -> Response:
        rules = _rules_named(store, request.path_params["name"])
        return JSONResponse({"name": rules.name, "toml": rules.to_toml()})

    async def api_check_rules(request: Request) -> Response:
        """Check house rules (TOML changes on a base rule set) and, with a name, save them.
        A saved rule set belongs to whoever saved it (the ``owner`` token their browser
        keeps; a new one is given with the first save): the same name from anyone else
        is refused."""
        data = await _body(request)
        base_name = str(data.get("base", ""))
        text = data.get("toml", "")
        name = data.get("name")
        owner = data.get("owner")
        if not isinstance(text, str):
            raise ApiError("The changes must be TOML text.")
        if owner is not None and (not isinstance(owner, str) or not 0 < len(owner) <= 100):
            raise ApiError("The owner token is not valid.")
        base = _rules_named(store, base_name)
        try:
            rules = Rules.from_toml(text, base=base)
        except RulesError as e:
            raise ApiError(f"These rules are refused: {e}") from None
        except (RecursionError, ValueError, TypeError):
            raise ApiError("These rules are refused: the TOML is nested too deeply or is "
                           "not valid.") from None
        changes = _changes(rules, base)
        if name is not None:
            if not isinstance(name, str) or not name.strip() or len(name) > 60:
                raise ApiError("Give the rule set a name (at most 60 characters).")
            name = name.strip()
            if name in PRESET_NAMES:
                raise ApiError(f"{name!r} is a preset's name; choose another.")
            owner = owner or new_token()
            rules = dataclasses.replace(rules, name=name)
            exists = store.rule_set(name) is not None
            who = "" if exists else limit(request, "rule_sets",
                                          "Too many rule sets were saved from here")
            try:
                store.save_rule_set(name, base_name, rules.to_toml(), token_hash(owner))
            except RuleSetTaken:
                if who:
                    limits.give_back("rule_sets", who)
                raise ApiError(f"Someone else saved a rule set called {name!r}; choose "
                               "another name.", 409) from None
        return JSONResponse({"ok": True, "name": name, "base": base_name, "changes": changes,
                             **({"owner": owner} if name is not None else {})})

    def summary(row: Any) -> dict[str, Any]:
        """A table in the lobby: from memory if it is live, else from its row (a table
        is not loaded to be listed)."""
        table = manager.live.get(row.id)
        if row.result is not None:  # finished: the lobby needs no replay
            out = {"seq": row.result["seq"], "over": True, "started": True,
                   "hand_number": row.result["hand_number"],
                   "totals": row.result["totals"], "winners": row.result["winners"]}
        elif table is not None:
            g = table.game
            out = {"seq": table.seq, "over": g.over, "started": table.seq > 0,
                   "hand_number": g.hand_number, "totals": list(g.totals),
                   "winners": list(g.winners)}
        else:
            seq = store.action_count(row.id)
            out = {"seq": seq, "over": False, "started": seq > 0, "hand_number": None,
                   "totals": None, "winners": []}
        return {"id": row.id, "rules": row.rules_name, "created": row.created.isoformat(),
                **out,
                "seats": [{"kind": s["kind"], "computer": bool(s["kind"] == "bot"
                                                               or s.get("computer")),
                           "name": s.get("name", "")} for s in row.seats]}

    async def api_tables(request: Request) -> Response:
        if request.method == "POST":
            data = await _body(request)
            seats = data.get("seats")
            seed = seed_value(data.get("seed"))
            if not isinstance(seats, list):
                raise ApiError("Say who sits in each seat.")
            return JSONResponse(await new_table(request, str(data.get("rules", "")), seats,
                                                seed))
        # the lobby: open tables and those finished lately, newest first, a page at a time
        try:
            page = max(0, min(int(request.query_params.get("page", "0")), 10**6))
        except ValueError:
            raise ApiError("The page must be a whole number.") from None
        since = dt.datetime.now(dt.UTC).replace(tzinfo=None) - RECENT

        def listing() -> tuple[list[dict[str, Any]], int]:
            rows = store.lobby(since, limit=LOBBY_PAGE, offset=page * LOBBY_PAGE)
            return [summary(r) for r in rows], store.lobby_count(since)

        out, total = await asyncio.to_thread(listing)
        return JSONResponse({"tables": out, "page": page, "per_page": LOBBY_PAGE,
                             "total": total,
                             "pages": max(1, -(-total // LOBBY_PAGE))})

    async def api_play(request: Request) -> Response:
        """Play against the computer: you and a computer partner against two computers."""
        data = await _body(request)
        rules_name = str(data.get("rules", "texas-good-sam"))
        level = str(data.get("level", default_level()))
        rules = _rules_named(store, rules_name)
        seats: list[dict[str, Any]] = [{"kind": "human", "name": str(data.get("name", "You"))}]
        seats += [{"kind": "bot", "level": level} for _ in range(rules.players.seats - 1)]
        out = await new_table(request, rules_name, seats, seed_value(data.get("seed")))
        inv = out["invites"][0]
        return JSONResponse({"id": out["id"], "seat": 0, "token": inv["token"],
                             "url": inv["url"], "creator": out["creator"]})

    async def verified(table: LiveTable) -> dict[str, Any]:
        """The finished game's deals checked against the commitments shown when each hand
        was dealt (as ``handfoot replay`` checks its record; in a worker process, once)."""
        if table.fair is None:
            rec = record_of(table)
            ok, hands, message = await manager.work.run("people", check_record, rec)
            table.fair = {"verified": ok and hands == len(rec["hands"]), "hands": hands,
                          "message": "deal verified" if ok else message}
        return table.fair

    async def api_table(request: Request) -> Response:
        table = await get_table(request.path_params["id"])
        msg = {"id": table.id, "rules": table.row.rules_name, "seq": table.seq,
               "over": table.game.over, "view": public_view(table.game).to_json(),
               "seats": [{"kind": s["kind"], "computer": table.is_bot(i),
                          "level": s.get("level") if s["kind"] == "bot" else None}
                         for i, s in enumerate(table.seats)]}
        if table.game.over:
            msg["fair"] = await verified(table)
        return JSONResponse(msg)

    def record_of(table: LiveTable) -> dict[str, Any]:
        names = [s.get("name") or (f"computer ({s.get('level')})" if s["kind"] == "bot"
                                   else f"seat {i + 1}") for i, s in enumerate(table.seats)]
        rec = game_record(table.game, names, {"table": table.id})
        # the game is over: the salts are revealed, and anyone can check every deal
        rec["commitments"] = commitments_json(table.game, salt_of(table.row))
        return rec

    async def api_record(request: Request) -> Response:
        table = await get_table(request.path_params["id"])
        if not table.game.over:
            raise ApiError("The record is available once the game is over.", 403)
        return Response(dumps(record_of(table)), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="handfoot-{table.id}.json"'})

    async def api_replay(request: Request) -> Response:
        """A finished game, step by step: every seat's view after ``step`` actions."""
        table = await get_table(request.path_params["id"])
        if not table.game.over:
            raise ApiError("A game can be replayed once it is over.", 403)
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            raise ApiError("The step must be a whole number.") from None
        step = max(0, min(step, table.seq))
        logged = [(a.seat, a.action) for a in store.actions(table.id)[:step]]
        game = await manager.work.rebuild(table.row.rules_toml, table.row.seed,
                                          table.row.secret, logged, None)
        views = [seat_view(game, s).to_json() for s in range(table.rules.players.seats)]
        return JSONResponse({"step": step, "total": table.seq, "views": views})

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        table_id = ws.path_params["id"]
        try:
            table = await manager.aload(table_id) if _valid_id(table_id) else None
        except Exception:
            table = None
        if table is None:
            await ws.send_json({"type": "error", "message": "There is no such table."})
            await ws.close(4404)
            return
        token = ws.query_params.get("token")
        seat: int | None = None
        if token is not None:
            seat = table.seat_of_token(token)
            if seat is None:
                await ws.send_json({"type": "error", "fatal": True,
                                    "message": "This invite link is not valid for this table."})
                await ws.close(4403)
                return

        async def close(code: int, reason: str) -> None:
            await ws.close(code)

        manager.kick_bots(table)  # a table unloaded while idle: its computers go on
        conn = Connection(seat, ws.send_text, close, token)
        conn.start()
        table.connections.append(conn)
        try:
            conn.push(await _hello(table, seat))
            await manager.broadcast(table)  # this one's view, and everyone sees who is here
            while not conn.dropped:
                raw = await ws.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                text = raw.get("text")
                if text is None:
                    data_bytes = raw.get("bytes") or b""
                    text = None if len(data_bytes) > MAX_MESSAGE else data_bytes.decode(
                        "utf-8", "replace")
                if text is None or len(text) > MAX_MESSAGE:
                    conn.push({"type": "error", "message": "That message is too large."})
                    continue
                try:
                    reply = await _handle(table, conn, text)
                except Exception:  # never the socket's end: the person hears of it
                    log.exception("a message at table %s", table.id)
                    reply = {"type": "error", "message": "That message could not be "
                             "handled; nothing was changed."}
                if reply is not None:
                    conn.push(reply)
        except WebSocketDisconnect:
            pass
        finally:
            with contextlib.suppress(ValueError):
                table.connections.remove(conn)
            await conn.stop()
            if seat is not None and not manager.closing:
                with contextlib.suppress(Exception):
                    await manager.broadcast(table)
                    await manager.next_hand(table, None)  # nobody waits for who left

    async def _hello(table: LiveTable, seat: int | None) -> dict[str, Any]:
        if table.club_event is None:
            table.club_event = await asyncio.to_thread(
                lambda: store.event_table(table.id) is not None)
        return {"type": "hello", "table": table.id, "seat": seat,
                "rules": table.row.rules_name,
                # "This table's rules" in plain words; hints are off at club events
                "rules_words": rules_in_words(table.rules), "hint": not table.club_event}

    def _may_hand_over(table: LiveTable, conn: Connection, target: int, creator: Any) -> bool:
        """Who may hand an absent seat to the computer: its own holder, or the table's
        creator (with the creator's token)."""
        if target == conn.seat:
            return True
        return (isinstance(creator, str) and table.row.creator_hash is not None
                and len(creator) <= 100
                and secrets.compare_digest(token_hash(creator), table.row.creator_hash))

    async def _handle(table: LiveTable, conn: Connection, text: str) -> dict[str, Any] | None:
        try:
            msg = parse_json(text)
        except ApiError as e:
            return {"type": "error", "message": str(e)}
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return {"type": "error", "message": "A message must be an object with a 'type'."}
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        seat = conn.seat
        if seat is None:
            return {"type": "error", "message": "Spectators cannot play; open your invite link."}
        # the invite link may have been revoked since the socket opened (here, or by
        # another server process sharing the database)
        if kind in ("action", "computer"):
            await asyncio.to_thread(manager.refresh_seats, table)
        if conn.token is None or table.seat_of_token(conn.token) != seat:
            message = "This invite link was replaced; ask the organiser for the new one."
            conn.drop(message, code=4403,
                      farewell={"type": "error", "fatal": True, "message": message})
            return None
        if kind == "computer":
            on = msg.get("on")
            target = msg.get("seat", seat)
            if not isinstance(on, bool):
                return {"type": "error", "message": "Say on: true or on: false."}
            if not isinstance(target, int) or isinstance(target, bool) \
                    or not 0 <= target < len(table.seats):
                return {"type": "error", "message": "There is no such seat."}
            if table.seats[target]["kind"] != "human":
                return {"type": "error", "message": "This seat is a computer player's."}
            if target != seat and (not on or any(c.seat == target for c in table.connections)):
                return {"type": "error", "message": "Only a person who has left can have "
                        "their seat played by the computer; only they can take it back."}
            if not _may_hand_over(table, conn, target, msg.get("creator")):
                return {"type": "error", "message": "Only the person who set up this table "
                        "can hand another person's seat to the computer."}
            async with table.lock:
                manager.set_computer(table, target, on)
            await manager.broadcast(table)
            manager.kick_bots(table)
            await manager.next_hand(table, None)  # nobody waits for a computer player
            return None
        if kind == "next-hand":
            await manager.next_hand(table, seat)
            return None
        if kind == "hint":
            return await manager.hint(table, seat)
        if kind not in ("action", "preview"):
            return {"type": "error", "message": f"Unknown message type {kind!r}."}
        try:
            action = action_from_json(msg.get("action"))
        except ActionSyntaxError as e:
            return {"type": "error", "message": str(e)}
        if kind == "preview":
            return manager.preview(table, seat, action)
        if table.is_bot(seat):
            return {"type": "error",
                    "message": "A computer player holds your seat; take it back first."}
        try:
            await manager.act(table, seat, action)
        except IllegalAction as e:
            return {"type": "error", "message": str(e)}
        return None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        manager.resume_all()
        await events.start()
        sweeper = asyncio.get_running_loop().create_task(manager.sweep())
        yield
        sweeper.cancel()
        await manager.close()
        await events.close()
        store.close()

    async def on_api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(str(exc), exc.status)

    routes = [
        Route("/", index),
        Route("/table/{id}", index),
        Route("/favicon.ico", favicon),
        Route("/api/rule-sets", api_presets),
        Route("/api/rules/{name}", api_rules),
        Route("/api/rule-sets/check", api_check_rules, methods=["POST"]),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/play", api_play, methods=["POST"]),
        Route("/api/tables/{id}", api_table),
        Route("/api/tables/{id}/record", api_record),
        Route("/api/tables/{id}/replay", api_replay),
        WebSocketRoute("/ws/{id}", ws_endpoint),
        *event_routes(events),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ApiError: on_api_error},
                    middleware=[Middleware(SameOriginMiddleware, public_url=public_url)])
    app.state.manager = manager
    app.state.events = events
    return app


def serve(host: str, port: int, db_url: str, bot_delay: float = 0.6,
          minute: float = 60.0, public_url: str = "", limits: RateLimits | None = None,
          address_header: str = "", decision_budget: float = 10.0) -> None:
    import uvicorn
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"handfoot: open http://{shown}:{port}/ in your browser "
          f"(database: {db_url}; stop with Ctrl+C); club events at "
          f"http://{shown}:{port}/events", flush=True)
    app = create_app(db_url, bot_delay=bot_delay, minute=minute, public_url=public_url,
                     limits=limits, address_header=address_header,
                     work=Work(budget=decision_budget))
    # the cyclic garbage collector's full passes over every live game were the loop's
    # longest pauses: what exists at start is left out of them, and they come less often
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20)
