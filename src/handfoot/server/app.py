"""The ASGI application: the JSON API, the WebSocket protocol and the web page.

WebSocket ``/ws/{table}?token=T`` (no token: a spectator). Client to server::

    {"type": "action", "action": {...}}     an action in the record's JSON form
    {"type": "preview", "action": {...}}    what it would be worth, and the engine's word
    {"type": "computer", "on": true}        hand my seat to a computer player (or back)
    {"type": "chat", "text": "..."}         say something to the table (or "reaction")
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
import logging
import mimetypes
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import tomli_w
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from handfoot.actions import ActionSyntaxError, action_from_json
from handfoot.engine import IllegalAction
from handfoot.game.fair import new_secret
from handfoot.game.records import commitments_json, dumps, game_record
from handfoot.game.views import public_view
from handfoot.rules import PRESET_NAMES, Rules, RulesError, preset
from handfoot.rules.form import form, setting_named, settings_from_form
from handfoot.rules.words import rules_in_words
from handfoot.server import collector
from handfoot.server.club.routes import event_routes
from handfoot.server.club.service import EventService
from handfoot.server.diagnostics import cpu, loopsteps
from handfoot.server.diagnostics.metrics import MetricsMiddleware
from handfoot.server.guard import RateLimits, SameOriginMiddleware, client_address
from handfoot.server.live.chat import Chat
from handfoot.server.live.compression import WRITE_NOW
from handfoot.server.live.manager import Manager
from handfoot.server.live.outbox import Connection
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
from handfoot.server.offloop.work import Work, check_record
from handfoot.server.processes import steering
from handfoot.server.processes.peers import follow
from handfoot.server.processes.sync import Bus, Keepers, new_origin
from handfoot.server.routes.hosting import host_routes, invite_token
from handfoot.server.routes.http import ApiError, json_body, parse_json, seed_value
from handfoot.server.routes.metrics import metrics_routes
from handfoot.server.routes.replay import replay_step
from handfoot.server.storage.store import RuleSetTaken, Store

log = logging.getLogger("handfoot.server")

STATIC = Path(__file__).parent / "static"
# the page's scripts are ES modules: served as JavaScript whatever the system's MIME table says
mimetypes.add_type("text/javascript", ".js")
MAX_MESSAGE = 64 * 1024  #: the largest WebSocket message a client may send
MAX_BODY = 256 * 1024
LOBBY_PAGE = 50  #: tables on one page of the lobby
RECENT = dt.timedelta(days=14)  #: finished tables stay in the lobby this long


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    return await json_body(request, MAX_BODY)


def _rules_named(store: Store, name: str) -> Rules:
    """A preset, or a rule set saved in the database (read there: call it in a thread,
    or use :func:`_rules`)."""
    if name in PRESET_NAMES:
        return preset(name)
    saved = None if len(name) > 80 or "\x00" in name else store.rule_set(name)
    if saved is None:
        raise ApiError(f"There is no rule set called {name[:80]!r}.", 404)
    return Rules.from_toml(saved[1])


async def _rules(store: Store, name: str) -> Rules:
    """:func:`_rules_named` from the event loop: a saved rule set is read (and its TOML
    read) in a thread, so that the loop never waits for the database."""
    if name in PRESET_NAMES:
        return preset(name)
    return await asyncio.to_thread(_rules_named, store, name)


def _valid_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 32 and table_id.isascii() and table_id.isalnum()


def _changes(rules: Rules, base: Rules) -> list[dict[str, Any]]:
    return [{"setting": k, "from": a, "to": b} for k, a, b in rules.changes_from(base)]


def _changes_toml(changes: list[dict[str, Any]]) -> str:
    """The changes as the TOML a club would write: only what differs."""
    out: dict[str, dict[str, Any]] = {}
    for c in changes:
        section, key = c["setting"].split(".", 1)
        out.setdefault(section, {})[key] = c["to"]
    return tomli_w.dumps(out)


def create_app(db_url: str, bot_delay: float = 0.6, public_url: str = "",
               minute: float = 60.0, limits: RateLimits | None = None,
               address_header: str = "", work: Work | None = None,
               worker: int | None = None) -> Starlette:
    """``minute``: seconds in a minute of an event round's clock (tests shorten it);
    ``limits``: what one address may create in an hour; ``address_header``: the header
    in which the operator's proxy gives the client's address (none: the peer's);
    ``worker``: this process's index among ``serve --workers`` (named in its origin, so
    that the others know where to send a table's sockets: :mod:`.steering`)."""
    if os.environ.get("HANDFOOT_LOOP_STEPS"):  # a diagnostic: the loop's CPU, step by step
        loopsteps.install()
    store = Store(db_url)
    #: this process, in notices and in ``hello``
    origin = store.origin = new_origin() + (f"w{worker}" if worker is not None else "")
    manager = Manager(store, bot_delay=bot_delay, work=work)
    limits = limits or RateLimits()
    events = EventService(store, manager, public_url, minute, limits=limits,
                          address_header=address_header)
    chat = Chat(store)

    async def get_table(table_id: str) -> LiveTable:
        table = await manager.aload(table_id) if _valid_id(table_id) else None
        if table is None:
            raise ApiError("There is no such table.", 404)
        if manager.bus is not None and not manager.bus.healthy:
            async with table.lock:  # not hearing of other processes' changes: read them
                await manager.resync(table)
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
                        seed: int | None, wait: bool = False) -> dict[str, Any]:
        """``wait``: the game starts when every person has joined (or the host starts
        it); else at once."""
        rules = await _rules(store, rules_name)
        n = rules.players.seats
        if len(seats) != n:
            raise ApiError(f"These rules seat {n} players; {len(seats)} seats were given.")
        tid = secrets.token_hex(6)
        # the host's token; each invite is derived from it, so the host can see them again
        creator = new_token()
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
        who = limit(request, "tables", "Too many tables were started from here")
        # without an explicit seed the deals come from a secret of 256 bits, shown
        # to nobody while the game is played
        secret = new_secret() if seed is None else None
        try:  # (written in a thread: the loop never waits for the database)
            await asyncio.to_thread(
                store.create_table, rules_name, rules.to_toml(), seed or 0, stored,
                table_id=tid, secret=secret, creator_hash=token_hash(creator),
                waiting=wait and any(t is not None for t in tokens))
        except Exception:
            limits.give_back("tables", who)
            raise
        table = await get_table(tid)
        if manager.keepers.shared:
            # kept here from the start: the table's sockets are handed to this process
            # as they come, even those that come before its first computer moves
            with contextlib.suppress(Exception):
                await manager.keepers.take(tid)
        manager.kick_bots(table)
        return {"id": tid, "rules": rules_name, "creator": creator, "waiting": table.waiting,
                "invites": [{"seat": i, "name": stored[i]["name"], "token": t,
                             "url": invite(request, tid, t)}
                            for i, t in enumerate(tokens) if t is not None]}

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def api_presets(request: Request) -> Response:
        out = [{"name": n, "title": preset(n).title, "seats": preset(n).players.seats,
                "teams": preset(n).players.teams, "saved": False} for n in PRESET_NAMES]

        def saved() -> list[dict[str, Any]]:  # (the database read in a thread)
            found = []
            for name, base in store.rule_sets():
                rules = _rules_named(store, name)
                found.append({"name": name, "title": f"house rules from {base}",
                              "seats": rules.players.seats, "teams": rules.players.teams,
                              "saved": True})
            return found

        out += await asyncio.to_thread(saved)
        return JSONResponse({"rule_sets": out, "levels": offered_levels(),
                             "all_levels": levels(), "default_level": default_level()})

    async def api_rules(request: Request) -> Response:
        rules = await _rules(store, request.path_params["name"])
        return JSONResponse({"name": rules.name, "toml": rules.to_toml()})

    async def api_rules_form(request: Request) -> Response:
        """A rule set as the house rules form shows it: its settings grouped, each with
        its explanation and value."""
        rules = await _rules(store, request.path_params["name"])
        return JSONResponse({"name": request.path_params["name"], "groups": form(rules)})

    async def api_check_rules(request: Request) -> Response:
        """Check house rules (TOML changes on a base rule set, or the form's changed
        ``settings``) and, with a name, save them. A saved rule set belongs to whoever
        saved it (the ``owner`` token their browser keeps; a new one is given with the
        first save): the same name from anyone else is refused. A refusal names the
        ``setting`` it is about, for the form to show it next to that setting."""
        data = await _body(request)
        base_name = str(data.get("base", ""))
        text = data.get("toml", "")
        settings = data.get("settings")
        name = data.get("name")
        owner = data.get("owner")
        if not isinstance(text, str):
            raise ApiError("The changes must be TOML text.")
        if settings is not None and not isinstance(settings, dict):
            raise ApiError("The settings must be an object of setting: value.")
        if owner is not None and (not isinstance(owner, str) or not 0 < len(owner) <= 100):
            raise ApiError("The owner token is not valid.")
        base = await _rules(store, base_name)
        try:
            rules = (Rules.from_dict(settings_from_form(settings), base=base)
                     if settings is not None else Rules.from_toml(text, base=base))
        except RulesError as e:
            named = setting_named(str(e), list(settings or {}))
            return JSONResponse({"error": f"These rules are refused: {e}",
                                 "message": str(e), "setting": named}, status_code=400)
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
            exists = await asyncio.to_thread(store.rule_set, name) is not None
            who = "" if exists else limit(request, "rule_sets",
                                          "Too many rule sets were saved from here")
            try:
                await asyncio.to_thread(store.save_rule_set, name, base_name,
                                        rules.to_toml(), token_hash(owner))
            except RuleSetTaken:
                if who:
                    limits.give_back("rule_sets", who)
                raise ApiError(f"Someone else saved a rule set called {name!r}; choose "
                               "another name.", 409) from None
        return JSONResponse({"ok": True, "name": name, "base": base_name, "changes": changes,
                             "toml": _changes_toml(changes),
                             **({"owner": owner} if name is not None else {})})

    def owned_rule_set(data: dict[str, Any]) -> tuple[str, str]:
        name, owner = data.get("name"), data.get("owner")
        if not isinstance(name, str) or not 0 < len(name) <= 80:
            raise ApiError("Say which rule set.")
        if not isinstance(owner, str) or not 0 < len(owner) <= 100:
            raise ApiError("Only the person who saved a rule set, from the browser they "
                           "saved it in, can delete it.", 403)
        return name, token_hash(owner)

    async def api_delete_rule_set(request: Request) -> Response:
        """Delete a saved rule set: only whoever saved it (tables keep their rules)."""
        name, owner_hash = owned_rule_set(await _body(request))
        if await asyncio.to_thread(store.rule_set, name) is None:
            raise ApiError(f"There is no rule set called {name!r}.", 404)
        if not await asyncio.to_thread(store.delete_rule_set, name, owner_hash):
            raise ApiError("Only the person who saved a rule set, from the browser they "
                           "saved it in, can delete it.", 403)
        return JSONResponse({"ok": True, "deleted": name})

    async def api_my_rule_sets(request: Request) -> Response:
        """The saved rule sets this browser's owner token saved."""
        data = await _body(request)
        owner = data.get("owner")
        if not isinstance(owner, str) or not 0 < len(owner) <= 100:
            return JSONResponse({"names": []})
        h = token_hash(owner)

        def mine() -> list[str]:
            return [n for n, _ in store.rule_sets() if store.rule_set_owner(n) == h]

        return JSONResponse({"names": await asyncio.to_thread(mine)})

    def summary(row: Any) -> dict[str, Any]:
        """A table in the lobby: from memory if it is live, else from its row (a table
        is not loaded to be listed)."""
        table = manager.live.get(row.id)
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
            seq = store.action_count(row.id)
            waiting = seq == 0 and store.is_waiting(row.id)
            out = {"seq": seq, "over": False, "started": seq > 0, "hand_number": None,
                   "totals": None, "winners": []}
        return {"id": row.id, "rules": row.rules_name, "created": row.created.isoformat(),
                **out, "waiting": waiting,
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
            wait = data.get("wait", False)
            if not isinstance(wait, bool):
                raise ApiError("Say wait: true (the game starts when everyone has joined) "
                               "or false.")
            return JSONResponse(await new_table(request, str(data.get("rules", "")), seats,
                                                seed, wait))
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
        rules = await _rules(store, rules_name)
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
                          "level": level_word(s.get("level")) if s["kind"] == "bot" else None}
                         for i, s in enumerate(table.seats)]}
        if table.game.over:
            msg["fair"] = await verified(table)
        return JSONResponse(msg)

    def record_of(table: LiveTable) -> dict[str, Any]:
        names = [s.get("name") or (f"computer ({level_word(s.get('level'))})"
                                   if s["kind"] == "bot"
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
        logged = [(a.seat, a.action) for a in await asyncio.to_thread(store.actions, table.id)]
        time_seq = await asyncio.to_thread(store.time_called, table.id)
        names = [s.get("name") or (f"Computer {i + 1}" if s["kind"] == "bot" else
                                   f"Seat {i + 1}") for i, s in enumerate(table.seats)]
        out = await manager.work.run("people", replay_step, table.row.rules_toml,
                                     table.row.seed, table.row.secret, logged, time_seq,
                                     step, names)
        return JSONResponse({**out, "total": table.seq, "names": names,
                             "rules": table.row.rules_name})

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
        # (written at once through the protocol when nothing waits: see outbox)
        write_now = ws.scope.get("extensions", {}).get(WRITE_NOW)
        conn = Connection(seat, ws.send_text, close, token, write_now=write_now)
        conn.start()
        table.connections.append(conn)
        try:
            conn.push(await _hello(table, seat))
            if seat is not None:  # (after joining the connections: a revocation finds it)
                await manager.join(table, seat)
                await manager.tell_here(table)
                await chat.welcome(table, conn)
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
                    await manager.tell_here(table)
                    await manager.broadcast(table)
                    await manager.next_hand(table, None)  # nobody waits for who left

    async def _hello(table: LiveTable, seat: int | None) -> dict[str, Any]:
        if table.club_event is None:
            table.club_event = await asyncio.to_thread(
                lambda: store.event_table(table.id) is not None)
        return {"type": "hello", "table": table.id, "seat": seat,
                "rules": table.row.rules_name, "process": origin,
                # "This table's rules" in plain words; hints are off at club events
                "rules_words": rules_in_words(table.rules), "hint": not table.club_event}

    async def api_server(request: Request) -> Response:
        """This server process: how many tables it has in memory and keeps (runs the
        computer players of), what its computer players did; its process ids only to
        a client on the same machine (the load test measures their CPU)."""
        bus = manager.bus
        out: dict[str, Any] = {
            "process": origin, "shared": store.postgres, "in_step": manager.in_step(),
            "live": len(manager.live),
            "kept": len(manager.keepers.kept) if manager.keepers.shared
            else sum(1 for t in manager.live.values() if not t.game.over),
            # the computer players' moves decided, in how many questions (a turn each)
            "decisions": manager.work.decisions, "plans": manager.work.plans,
            # the people's moves listed on the event loop (the rest in a worker)
            "listed_here": manager.work.listed_here,
            "bot_actions": manager.bot_actions,
            "bot_lost": manager.bot_lost, "heard": 0 if bus is None else bus.heard,
            # games sent whole to the worker processes, and calls that sent only news
            "sent_whole": manager.work.bots.sent_whole + manager.work.people.sent_whole,
            "sent_since": manager.work.bots.sent_since + manager.work.people.sent_since,
            **collector.figures(),
            # sockets handed to the worker keeping their table, and handed to this one
            "steering": steering.COUNTS,
            # actions appended from the loop, and the statements that wrote them
            "appends": None if manager.appender is None else {
                "actions": manager.appender.appended,
                "statements": manager.appender.statements},
            # CPU seconds: the process, its event loop, and the loop's busiest steps
            "cpu": cpu.report(),
            # the event loop it runs on: "uvloop" or "asyncio" (.eventloop)
            "event_loop": type(asyncio.get_running_loop()).__module__.split(".")[0]}
        if loopsteps.installed():
            out["loop_steps"] = loopsteps.report()
        tid = request.query_params.get("table", "")
        if tid:
            out["keeps"] = _valid_id(tid) and manager.keepers.keeps(tid)
        host = request.client.host if request.client else ""
        if host in ("127.0.0.1", "::1"):
            out["pid"] = os.getpid()
            out["root"] = int(os.environ.get("HANDFOOT_SUPERVISOR", "0")) or os.getpid()
        return JSONResponse(out)

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
        # another server process sharing the database: heard of as it is made, or read
        # here when the notices are not heard)
        if kind == "computer" or (kind == "action" and not manager.in_step()):
            await manager.refresh_seats(table)
        if conn.token is None or table.seat_of_token(conn.token) != seat:
            message = "This invite link was replaced; ask the organiser for the new one."
            conn.drop(message, code=4403,
                      farewell={"type": "error", "fatal": True, "message": message})
            return None
        if kind == "chat":
            return await chat.handle(table, seat, msg)
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
        if table.waiting:
            return {"type": "error", "message": "The game starts when everyone has joined, "
                    "or when the person who set up the table starts it."}
        try:
            await manager.act(table, seat, action)
        except IllegalAction as e:
            return {"type": "error", "message": str(e)}
        return None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if store.postgres:  # other processes may share the database
            bus = manager.bus = Bus(store.url, origin)
            follow(manager, bus)
            events.follow(bus)
            bus.start()
            await bus.started()
            keepers = manager.keepers = Keepers(store.url, origin=origin)
            # the unfinished tables nobody else keeps; the processes still running
            keepers.start(manager.keep, manager.forget_stopped)
        else:
            manager.resume_all()
        await events.start()
        sweeper = asyncio.get_running_loop().create_task(manager.sweep())
        collecting = asyncio.get_running_loop().create_task(collector.full_passes())
        yield
        sweeper.cancel()
        collecting.cancel()
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
        Route("/api/server", api_server),
        Route("/api/rules/{name}", api_rules),
        Route("/api/rule-sets/check", api_check_rules, methods=["POST"]),
        Route("/api/rule-sets/delete", api_delete_rule_set, methods=["POST"]),
        Route("/api/rule-sets/mine", api_my_rule_sets, methods=["POST"]),
        Route("/api/rules-form/{name}", api_rules_form),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/play", api_play, methods=["POST"]),
        Route("/api/tables/{id}", api_table),
        Route("/api/tables/{id}/record", api_record),
        Route("/api/tables/{id}/replay", api_replay),
        WebSocketRoute("/ws/{id}", ws_endpoint),
        *host_routes(store, manager, get_table, invite),
        *event_routes(events),
        *metrics_routes(manager),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ApiError: on_api_error},
                    middleware=[Middleware(MetricsMiddleware),
                                Middleware(SameOriginMiddleware, public_url=public_url)])
    app.state.manager = manager
    app.state.events = events
    return app
