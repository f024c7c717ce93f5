"""People's routes: who this browser is (``/api/me``: their name, games and ratings),
taking one's seat at a table under one's name, Play again, the optional password for
signing in on another device, the ratings of a rule set and the pages ``/me`` and
``/leaderboard``.

The player key is sent in the ``hf_player`` cookie (HttpOnly, SameSite=Strict, Secure
behind HTTPS; set by ``POST /api/me`` and by signing in) or, for other clients, in the
``X-Player-Key`` header."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.rules import PRESET_NAMES
from handfoot.server.guard import client_address
from handfoot.server.live import seats
from handfoot.server.live.table import LiveTable, new_token, token_hash
from handfoot.server.people.service import COOKIE, clean_name
from handfoot.server.routes.http import ApiError, json_body
from handfoot.server.routes.pages import STATIC
from handfoot.server.services import Services, services
from handfoot.server.storage.people import Player

MAX_BODY = 16 * 1024
KEY_DAYS = 400  #: how long a browser keeps its player key cookie


def with_key(body: dict[str, Any], key: str, secure: bool) -> Response:
    """The answer, and the player key kept by the browser (its cookie; in the answer
    too, ``key``, for a client that sends it in the header)."""
    resp = JSONResponse({**body, "key": key})
    resp.set_cookie(COOKIE, key, max_age=KEY_DAYS * 86400, path="/", httponly=True,
                    samesite="strict", secure=secure)
    return resp


async def api_me(request: Request) -> Response:
    """GET: this person (their name, games and ratings); POST: say one's name (a new
    player key the first time) or whether to appear on the leaderboard."""
    svc = services(request)
    if request.method == "GET":
        player = await svc.people.player(request)
        assert player is not None
        return JSONResponse(await svc.people.me_json(player))
    data = await json_body(request, MAX_BODY)
    player = await svc.people.player(request, required=False)
    board = data.get("leaderboard")
    if board is not None and not isinstance(board, bool):
        raise ApiError("Say leaderboard: true (show me on the leaderboard) or false.")
    name = clean_name(data["name"]) if "name" in data else None
    if player is None:
        if name is None:
            raise ApiError("Say your name: the others at the table will see it.")
        svc.limit(request, "players", "Too many new players were made from here")
        made, key = await asyncio.to_thread(svc.people.people.new_player, name)
        if board:
            await asyncio.to_thread(svc.people.people.update, made.id, leaderboard=True)
        return with_key(await svc.people.me_json(made), key, svc.people.secure)
    changes: dict[str, Any] = {}
    if name is not None and name != player.name:
        if player.password_hash is not None:
            await check_name_free(svc, player, name)
        changes["name"] = name
    if board is not None:
        changes["leaderboard"] = board
    if changes:
        await asyncio.to_thread(svc.people.people.update, player.id, **changes)
    now = await asyncio.to_thread(svc.people.people.player, player.id)
    assert now is not None
    return JSONResponse(await svc.people.me_json(now))


async def check_name_free(svc: Services, player: Player, name: str) -> None:
    others = await asyncio.to_thread(svc.people.people.named_with_password, name)
    if any(p.id != player.id for p in others):
        raise ApiError(f"Someone else signs in as {name!r}; choose another name.", 409)


def password_of(data: dict[str, Any]) -> str:
    password = data.get("password")
    if not isinstance(password, str) or not password:
        raise ApiError("Say the password.")
    if len(password) > 200:
        raise ApiError("A password may have at most 200 characters.")
    return password


async def api_password(request: Request) -> Response:
    """Set (or change) the password for signing in as oneself on another device."""
    svc = services(request)
    player = await svc.people.player(request)
    assert player is not None
    data = await json_body(request, MAX_BODY)
    password = password_of(data)
    if len(password) < 8:
        raise ApiError("Choose a password of at least 8 characters.")
    await svc.people.set_password(player, password)
    return JSONResponse({"ok": True, "name": player.name})


async def api_sign_in(request: Request) -> Response:
    """Sign in on this device as the person of that name and password: a new player
    key for this browser."""
    svc = services(request)
    data = await json_body(request, MAX_BODY)
    name = clean_name(data.get("name"))
    password = password_of(data)
    player, key = await svc.people.sign_in(name, password,
                                           client_address(request, svc.addresses))
    return with_key(await svc.people.me_json(player), key, svc.people.secure)


def seat_of(table: LiveTable, data: dict[str, Any]) -> int | None:
    """The seat whose invite token the request carries (None: none)."""
    token = data.get("token")
    if token is None:
        return None
    if not isinstance(token, str) or not 0 < len(token) <= 100:
        raise ApiError("That is not an invite token.")
    seat = table.seat_of_token(token)
    if seat is None:
        raise ApiError("This invite link is not valid for this table.", 403)
    return seat


async def api_sit(request: Request) -> Response:
    """Take one's seat under one's name: the person of the player key (or, with none,
    a new person named as the seat is) sits where the invite token says."""
    svc = services(request)
    table = await svc.table(request.path_params["id"])
    data = await json_body(request, MAX_BODY)
    seat = seat_of(table, data)
    if seat is None:
        raise ApiError("Say which seat: the token of its invite link.")
    known = await svc.people.player(request, required=False)
    key = ""
    if known is None:
        name = data.get("name") or table.seats[seat].get("name") or ""
        if not name or name == "You":
            # asked only where other people will see it (alone with computers, a person
            # stays unnamed until they say their name in the lobby)
            others = any(s.get("kind") == "human" for i, s in enumerate(table.seats)
                         if i != seat)
            return JSONResponse({"need_name": others})
        svc.limit(request, "players", "Too many new players were made from here")
        player, key = await asyncio.to_thread(svc.people.people.new_player,
                                              clean_name(name))
    else:
        player = known
    await svc.people.sit(table, seat, player)
    body = {"seat": seat, "name": player.name, "id": player.id}
    return with_key(body, key, svc.people.secure) if key else JSONResponse(body)


async def api_again(request: Request) -> Response:
    """Play again: the next game, the same people in the same seats."""
    svc = services(request)
    table = await svc.table(request.path_params["id"])
    data = await json_body(request, MAX_BODY)
    seat = seat_of(table, data)
    if seat is None:
        player = await svc.people.player(request, required=False)
        if player is not None:
            seated = await asyncio.to_thread(svc.people.people.seat_players, table.id)
            seat = next((s for s, p in seated.items() if p == player.id), None)
    if seat is None:
        raise ApiError("Only the people seated at this table can start its next game.",
                       403)
    new = await svc.people.again(table, seat)
    svc.lobby.forget()
    return JSONResponse({"id": new, "url": f"/table/{new}"})


async def api_rejoin(request: Request) -> Response:
    """A person's seat at a live table, opened on this device: a new invite link for
    the seat they sit in (the old one stops), while they are not at the table."""
    svc = services(request)
    table = await svc.table(request.path_params["id"])
    player = await svc.people.player(request)
    assert player is not None
    seated = await asyncio.to_thread(svc.people.people.seat_players, table.id)
    seat = next((s for s, p in seated.items() if p == player.id), None)
    if seat is None:
        raise ApiError("You do not sit at this table.", 403)
    if table.game.over:
        raise ApiError("This game is over; its replay is on your page.", 409)
    await svc.manager.ask_who(table)
    if seat in table.connected():
        raise ApiError("You are at this table on another device now; close it there "
                       "first.", 409)
    token = new_token()
    async with table.lock, seats.changing(svc.store, table) as new:
        new[seat].update(link=int(new[seat].get("link", 0)) + 1,
                         token_hash=token_hash(token))
    svc.manager.close_seat(table, seat, "Your seat was opened on another device.")
    return JSONResponse({"seat": seat, "token": token,
                         "url": svc.invite_url(request, table.id, token)})


async def api_ratings(request: Request) -> Response:
    """The ratings of a rule set: the people who chose to appear, and the computer
    levels."""
    svc = services(request)
    rules = request.query_params.get("rules", "")
    if not rules:
        raise ApiError("Say which rule set: ?rules=NAME (one of "
                       f"{', '.join(PRESET_NAMES)}).")
    if rules not in PRESET_NAMES:
        raise ApiError(f"There is no rule set called {rules[:80]!r} with ratings; games "
                       f"are rated under {', '.join(PRESET_NAMES)}.", 404)
    return JSONResponse(await svc.people.ratings_json(rules))


async def me_page(request: Request) -> Response:
    return FileResponse(STATIC / "me.html")


async def leaderboard_page(request: Request) -> Response:
    return FileResponse(STATIC / "leaderboard.html")


routes: list[BaseRoute] = [
    Route("/me", me_page),
    Route("/leaderboard", leaderboard_page),
    Route("/api/me", api_me, methods=["GET", "POST"]),
    Route("/api/me/password", api_password, methods=["POST"]),
    Route("/api/me/sign-in", api_sign_in, methods=["POST"]),
    Route("/api/tables/{id}/sit", api_sit, methods=["POST"]),
    Route("/api/tables/{id}/again", api_again, methods=["POST"]),
    Route("/api/tables/{id}/rejoin", api_rejoin, methods=["POST"]),
    Route("/api/ratings", api_ratings),
]
