"""The club events' pages and JSON API (routes of :class:`EventService`): the
organiser's actions behind the event's password, the players' public answers, the pages
to print. Every request that changes something is sent as JSON from the server's own
pages (see :mod:`handfoot.server.guard`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.club import printing
from handfoot.club.event import Event, EventError, players_csv
from handfoot.server.club.service import (
    MAX_BODY,
    STATIC,
    EventApiError,
    EventService,
    cookie_name,
    event_key,
)
from handfoot.server.guard import client_address
from handfoot.server.routes.http import ApiError, json_body
from handfoot.server.routes.http import whole_number as _int
from handfoot.server.services import services


async def _body(request: Request) -> dict[str, Any]:
    return await json_body(request, MAX_BODY)


Handler = Callable[[Request], Awaitable[Response]]


def _answer(func: Handler) -> Handler:
    """Errors in players' words: EventError (a setting, list or sheet refused) as 400."""
    async def run(request: Request) -> Response:
        try:
            return await func(request)
        except ApiError as e:
            return JSONResponse({"error": str(e)}, status_code=e.status)
        except EventError as e:
            text = str(e)
            return JSONResponse({"error": text[:1].upper() + text[1:]}, status_code=400)
    return run


def _html_page(func: Callable[[Request], Awaitable[str]]) -> Handler:
    """A page to print, for the organiser; a plain page when not logged in."""
    async def run(request: Request) -> Response:
        try:
            return HTMLResponse(await func(request))
        except (ApiError, EventError) as e:
            status = e.status if isinstance(e, ApiError) else 400
            key = request.path_params.get("key", "")
            return HTMLResponse(
                "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<title>Hand and Foot</title><link rel=\"stylesheet\" "
                "href=\"/static/style.css\"></head><body><main><p style=\"font-size:1.3em\">"
                f"{_escape(str(e))}</p><p><a href=\"/events/{_escape(key)}/organiser\">"
                "The organiser's page</a></p></main></body></html>", status_code=status)
    return run


def club_of(request: Request) -> EventService:
    """The club events of the application the request reached."""
    return services(request).club


# (every read and write of the club's database below is done in a thread)
async def _event(request: Request) -> Event:
    """The event the request's address names."""
    return await asyncio.to_thread(club_of(request).event, request.path_params["key"])


async def _organiser(request: Request) -> Event:
    """The event, if the request comes from its logged-in organiser."""
    return await asyncio.to_thread(club_of(request).organiser, request,
                                   request.path_params["key"])


def _escape(text: str) -> str:
    from html import escape
    return escape(text)


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "events.html")


@_answer
async def api_events(request: Request) -> Response:
    """GET: the events on this server; POST: a new event, its organiser logged in."""
    if request.method == "POST":
        return await new_event(request)
    club = club_of(request).club

    def listing() -> list[dict[str, Any]]:
        out = []
        for name in club.names():
            with contextlib.suppress(Exception):
                ev = club.load(name)
                out.append({"key": event_key(name), "name": name,
                            "rules": ev.rules.title or ev.rules_name, "rounds": ev.rounds,
                            "players": len(ev.players), "drawn": len(ev.draws)})
        return out
    return JSONResponse({"events": await asyncio.to_thread(listing)})


async def new_event(request: Request) -> Response:
    svc = club_of(request)
    data = await _body(request)
    who = client_address(request, svc.addresses)
    if not svc.limits.take("events", who):
        raise EventApiError("Too many events were created from here (at most "
                            f"{svc.limits.events} an hour from one address); please "
                            "try again later.", 429)
    try:
        # the password's hash is slow on purpose: worked out off the event loop
        event, token = await svc.hashes.run(svc.create, data)
    except BaseException:
        svc.limits.give_back("events", who)
        raise
    key = event_key(event.name)
    resp = JSONResponse({"key": key, "name": event.name})
    _set_cookie(resp, key, token, svc.secure)
    return resp


@_answer
async def api_event(request: Request) -> Response:
    svc = club_of(request)
    return JSONResponse(await asyncio.to_thread(svc.public_json, await _event(request)))


@_answer
async def api_find(request: Request) -> Response:
    svc = club_of(request)
    event = await _event(request)
    return JSONResponse(await asyncio.to_thread(
        svc.find_json, event, request.query_params.get("name", "")[:100]))


@_answer
async def api_login(request: Request) -> Response:
    svc = club_of(request)
    key = request.path_params["key"]
    event = await _event(request)
    who = client_address(request, svc.addresses)
    data = await _body(request)
    password = data.get("password")
    svc.throttle(key, who)  # counted before the hash, forgotten if right
    ok = isinstance(password, str) and len(password) < 1000 and await svc.hashes.run(
        svc.club.check_password, event.name, password)
    if not ok:
        raise EventApiError("That is not the password of this event. Please try "
                            "again.", 403)
    svc.failures.pop((key, who), None)  # the right password: a clean slate
    resp = JSONResponse({"ok": True, "name": event.name})
    _set_cookie(resp, key, await asyncio.to_thread(svc.club.new_session, event.name),
                svc.secure)
    return resp


@_answer
async def api_logout(request: Request) -> Response:
    svc = club_of(request)
    key = request.path_params["key"]
    token = request.cookies.get(cookie_name(key))
    if token:
        await asyncio.to_thread(svc.club.end_session, token)
    resp = JSONResponse({"ok": True})
    resp.delete_cookie(cookie_name(key), path="/")
    return resp


@_answer
async def api_manage(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    return JSONResponse(await svc.manage_json(event))


@_answer
async def api_players(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    data = await _body(request)
    return JSONResponse({"message": await asyncio.to_thread(svc.set_players, event, data)})


@_answer
async def api_draw(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    data = await _body(request)
    return JSONResponse(await asyncio.to_thread(svc.draw, event, data))


@_answer
async def api_online(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    return JSONResponse(await svc.start_online(request, event, await _body(request)))


@_answer
async def api_chat(request: Request) -> Response:
    """Chat at the event's tables: on (the default) or off."""
    svc = club_of(request)
    event = await _organiser(request)
    on = (await _body(request)).get("on")
    if not isinstance(on, bool):
        raise ApiError("Say on: true or on: false.")
    await asyncio.to_thread(svc.store.set_event_chat, event.name, on)
    return JSONResponse({"chat": on})


@_answer
async def api_invite(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    return JSONResponse(await svc.new_invite(request, event, await _body(request)))


@_answer
async def api_paper(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    if request.method == "GET":  # the sheets entered, to correct them
        query = request.query_params
        return JSONResponse(await asyncio.to_thread(
            svc.paper_sheets, event, {"round": query.get("round"),
                                      "table": query.get("table")}))
    data = await _body(request)
    return JSONResponse(await asyncio.to_thread(svc.paper, event, data))


@_answer
async def api_tiebreak(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    data = await _body(request)
    return JSONResponse(await asyncio.to_thread(svc.tie_break, event, data))


@_answer
async def api_clock(request: Request) -> Response:
    svc = club_of(request)
    event = await _organiser(request)
    data = await _body(request)
    rnd = _int(data, "round", "The round", None, 1, event.rounds)
    if rnd not in event.draws:
        raise EventApiError(f"Round {rnd} has not been drawn.")
    what = data.get("do")
    if what == "start":
        if not event.time_limit_minutes:
            raise EventApiError("This event has no time limit; call time when it is "
                                "time.")
        clock = await asyncio.to_thread(svc.clock_json, event, rnd)
        if clock is not None and clock["called"]:
            raise EventApiError(f"Time was already called for round {rnd}.")
        started = await asyncio.to_thread(svc.club.start_clock, event.name, rnd)
        await svc.clock_started(event, rnd, started)
        message = f"The clock of round {rnd} is running."
    elif what == "warn":
        message = f"The warning went to {await svc.warn(event, rnd)} table(s)."
    elif what == "call":
        n = await svc.call_time(event, rnd)
        message = f"Time is called at {n} table(s) playing online."
    else:
        raise EventApiError("Say what to do with the clock: start, warn or call.")
    return JSONResponse({"message": message,
                         "clock": await asyncio.to_thread(svc.clock_json, event, rnd)})


async def players_file(request: Request) -> str:
    return players_csv((await _organiser(request)).players)


@_answer
async def api_players_csv(request: Request) -> Response:
    text = await players_file(request)
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": 'attachment; filename="players.csv"'})


@_html_page
async def print_assignments(request: Request) -> str:
    event = await _organiser(request)
    return printing.assignments_html(event, int(request.path_params["round"]))


@_html_page
async def print_sheets(request: Request) -> str:
    event = await _organiser(request)
    return printing.score_sheets_html(event, int(request.path_params["round"]))


@_html_page
async def print_results(request: Request) -> str:
    event = await _organiser(request)
    return printing.results_html(event)


routes: list[BaseRoute] = [
    Route("/events", page),
    Route("/events/{key}", page),
    Route("/events/{key}/organiser", page),
    Route("/events/{key}/print/assignments/{round:int}", print_assignments),
    Route("/events/{key}/print/score-sheets/{round:int}", print_sheets),
    Route("/events/{key}/print/results", print_results),
    Route("/events/{key}/players.csv", api_players_csv),
    Route("/api/events", api_events, methods=["GET", "POST"]),
    Route("/api/events/{key}", api_event),
    Route("/api/events/{key}/find", api_find),
    Route("/api/events/{key}/login", api_login, methods=["POST"]),
    Route("/api/events/{key}/logout", api_logout, methods=["POST"]),
    Route("/api/events/{key}/manage", api_manage),
    Route("/api/events/{key}/players", api_players, methods=["POST"]),
    Route("/api/events/{key}/draw", api_draw, methods=["POST"]),
    Route("/api/events/{key}/online", api_online, methods=["POST"]),
    Route("/api/events/{key}/invite", api_invite, methods=["POST"]),
    Route("/api/events/{key}/chat", api_chat, methods=["POST"]),
    Route("/api/events/{key}/paper", api_paper, methods=["GET", "POST"]),
    Route("/api/events/{key}/tiebreak", api_tiebreak, methods=["POST"]),
    Route("/api/events/{key}/clock", api_clock, methods=["POST"]),
]


def _set_cookie(resp: Response, key: str, token: str, secure: bool = False) -> None:
    """The organiser's session: HttpOnly, SameSite=Strict, and Secure when the server is
    reached over HTTPS (its public address says so)."""
    resp.set_cookie(cookie_name(key), token, max_age=24 * 3600, path="/", httponly=True,
                    samesite="strict", secure=secure)
