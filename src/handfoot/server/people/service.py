"""People across tables: the person behind a request (the player key their browser
keeps, in the ``hf_player`` cookie or the ``X-Player-Key`` header), the seat a person
sits in (named with their name), Play again, a person's games, and their ratings,
updated when a game ends (in a thread: the event loop never waits for it).

A player key is made when a person first says their name (or opens an invite whose
seat has one); only its hash is stored. The first person to open a seat's invite link
sits there: the seat takes their name, and the game is theirs on ``/me``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from typing import Any

from starlette.requests import HTTPConnection

from handfoot.club.store import hash_password, verify_password
from handfoot.game.fair import new_secret
from handfoot.server.guard import HashPool
from handfoot.server.live import seats
from handfoot.server.live.manager import Manager
from handfoot.server.live.table import LiveTable
from handfoot.server.live.table_log import seat_names
from handfoot.server.offloop.pool import rules_from_toml
from handfoot.server.people.ratings import (
    DEFAULT,
    LEVELS,
    ordinal,
    rate_teams,
    rated_under,
    rating_json,
)
from handfoot.server.protocol import AgainOut, notice_of
from handfoot.server.routes.http import ApiError
from handfoot.server.storage.people import NAME_LENGTH, Game, People, Player, Rating
from handfoot.server.storage.store import Store

log = logging.getLogger("handfoot.server.people")

COOKIE = "hf_player"
HEADER = "x-player-key"
SIGN_IN_TRIES = 5  #: wrong passwords allowed per minute from one address for one name
SIGN_IN_WINDOW = 60.0


def clean_name(value: Any) -> str:
    """A name a person chose: text, spaces collapsed, control characters dropped, at
    most :data:`NAME_LENGTH` characters; refused in words when empty."""
    if not isinstance(value, str):
        raise ApiError("Your name must be text.")
    name = " ".join("".join(ch for ch in value if ch.isprintable()).split())
    if not name:
        raise ApiError("Say your name: the others at the table will see it.")
    if len(name) > NAME_LENGTH:
        raise ApiError(f"A name may have at most {NAME_LENGTH} characters.")
    return name


class PeopleService:
    """People for one server process."""

    def __init__(self, store: Store, manager: Manager, hashes: HashPool,
                 secure: bool = False) -> None:
        self.store = store
        self.people = People(store)
        self.manager = manager
        self.hashes = hashes  #: the password hashes, shared with the organisers'
        self.secure = secure
        self.failures: dict[tuple[str, str], list[float]] = {}
        self._rating: set[asyncio.Task[None]] = set()
        manager.on_over.append(self.game_over)

    # --------------------------------------------------------------- who
    @staticmethod
    def key_of(conn: HTTPConnection) -> str:
        return conn.headers.get(HEADER) or conn.cookies.get(COOKIE, "")

    async def player(self, conn: HTTPConnection, required: bool = True) -> Player | None:
        """The person whose player key the request carries; refused (401) when it
        carries none (``required``) or one this server does not know."""
        key = self.key_of(conn)
        if not key:
            if required:
                raise ApiError("This browser has no player key here yet: say your name "
                               "first (or sign in).", 401)
            return None
        found = await asyncio.to_thread(self.people.player_of_key, key)
        if found is None:
            raise ApiError("This player key is not known on this server.", 401)
        return found

    def throttle(self, name: str, who: str) -> None:
        """Count a sign-in before its password is checked (forgotten if right)."""
        now = time.monotonic()
        key = (name, who)
        tries = [t for t in self.failures.get(key, []) if now - t < SIGN_IN_WINDOW]
        self.failures[key] = tries
        if len(tries) >= SIGN_IN_TRIES:
            raise ApiError("Too many wrong passwords. Please wait a minute and try "
                           "again.", 429)
        tries.append(now)

    async def set_password(self, player: Player, password: str) -> None:
        others = await asyncio.to_thread(self.people.named_with_password, player.name)
        if any(p.id != player.id for p in others):
            raise ApiError(f"Someone else signs in as {player.name!r}; choose another "
                           "name before you set a password.", 409)
        digest = await self.hashes.run(hash_password, password)
        await asyncio.to_thread(self.people.update, player.id, password_hash=digest)

    async def sign_in(self, name: str, password: str, who: str) -> tuple[Player, str]:
        """A new player key for the person of that name and password."""
        self.throttle(name.casefold(), who)
        found = await asyncio.to_thread(self.people.named_with_password, name)
        ok = False
        for p in found:
            assert p.password_hash is not None
            if await self.hashes.run(verify_password, password, p.password_hash):
                ok = True
                break
        if not ok:
            raise ApiError("That name and password do not match anyone here.", 403)
        self.failures.pop((name.casefold(), who), None)
        return p, await asyncio.to_thread(self.people.new_key, p.id)

    # ------------------------------------------------------------- seats
    async def sit(self, table: LiveTable, seat: int, player: Player) -> None:
        """``player`` opened the seat's invite link: they sit there (unless someone else
        did first: 409), and the seat shows their name."""
        sat = await asyncio.to_thread(self.people.sit, table.id, seat, player.id)
        if not sat:
            raise ApiError("Someone else sat in this seat first. If that was you on "
                           "another device, sign in there with your password (your "
                           "page: /me).", 409)
        table.players[seat] = player.id
        if table.seats[seat].get("name") != player.name:
            async with table.lock, seats.changing(self.store, table) as new:
                new[seat]["name"] = player.name
        await self.show_ratings(table)
        await self.manager.broadcast(table)

    async def show_ratings(self, table: LiveTable) -> None:
        """Each seated person's rating at the table's rule set, beside their name."""
        if table.rated is None:
            base = await asyncio.to_thread(self.store.rule_set, table.row.rules_name)
            table.rated = rated_under(table.row.rules_name, table.row.rules_toml,
                                      base[0] if base else None) or ""
        if not table.rated or not table.players:
            return
        found = await asyncio.to_thread(self.people.ratings_in, table.rated,
                                        list(table.players.values()))
        for seat, pid in table.players.items():
            r = found.get(pid)
            table.seat_extra.setdefault(seat, {})["rating"] = (
                None if r is None else round(r.mu, 1))

    # -------------------------------------------------------- play again
    async def again(self, table: LiveTable, seat: int) -> str:
        """The next game after ``table``'s, started by the person at ``seat``: the same
        rules, people and seats, a new deal and secret (the same invite links open the
        same seats). Pressed twice, or by two people at once: one next game."""
        if not table.game.over:
            raise ApiError("Play again starts a new game once this one is over.", 409)
        if table.row.next_table:
            return table.row.next_table
        if table.club_event is None:
            table.club_event = await asyncio.to_thread(
                lambda: self.store.event_table(table.id) is not None)
        if table.club_event:
            raise ApiError("A club event's next games are drawn by its organiser.", 409)
        kept = [{k: v for k, v in s.items()
                 if k in ("kind", "name", "level", "token_hash")} for s in table.seats]
        sat = await asyncio.to_thread(self.people.seat_players, table.id)
        new = await asyncio.to_thread(
            self.people.play_again, table.id, secrets.token_hex(6), table.row.rules_name,
            table.row.rules_toml, kept, new_secret(), table.row.creator_hash,
            table.row.settings, sat)
        await self.moved(table, new)
        if self.manager.bus is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.notify, {"k": "again", "t": table.id,
                                                            "n": new})
        log.info("table %s: seat %s started the next game, %s", table.id, seat, new)
        return new

    async def moved(self, table: LiveTable, new: str) -> None:
        """Everyone at the table is told of the next game (their pages go there)."""
        table.row = dataclasses.replace(table.row, next_table=new)
        out: AgainOut = {"type": "again", "table": new}
        for conn in list(table.connections):
            conn.push(out)

    # --------------------------------------------------------------- /me
    async def me_json(self, player: Player) -> dict[str, Any]:
        """What ``/api/me`` answers (read and written in a thread)."""
        return await asyncio.to_thread(self._me, player)

    def _me(self, player: Player) -> dict[str, Any]:
        mine = self.people.ratings_of(player.id)
        computers = {r.rules: self.people.computers(r.rules) for r in mine}
        return {"id": player.id, "name": player.name, "leaderboard": player.leaderboard,
                "password": player.password_hash is not None,
                "ratings": [rating_json(r, computers[r.rules]) for r in mine],
                "games": [self.game_json(g) for g in self.people.games(player.id)]}

    @staticmethod
    def game_json(g: Game) -> dict[str, Any]:
        """One of a person's games as ``/api/me`` lists it."""
        team_of = rules_from_toml(g.rules_toml).team_of
        out: dict[str, Any] = {
            "table": g.table_id, "rules": g.rules_name, "created": g.created.isoformat(),
            "seat": g.seat, "team": team_of[g.seat], "names": seat_names(g.seats),
            "partners": [n for i, n in enumerate(seat_names(g.seats))
                         if i != g.seat and team_of[i] == team_of[g.seat]],
            "over": g.result is not None, "next": g.next_table,
            "url": f"/table/{g.table_id}"}
        if g.result is not None:
            out.update(totals=g.result["totals"], winners=g.result["winners"],
                       won=team_of[g.seat] in g.result["winners"],
                       replay=f"/?replay={g.table_id}")
        return out

    # ------------------------------------------------------------ ratings
    def game_over(self, table: LiveTable) -> None:
        """A game ended: its ratings, in a thread (called on the loop, or outside it
        when a finished table is read)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # read outside the loop (starting): rated when next over here
        task = loop.create_task(self._rate(table))
        self._rating.add(task)
        task.add_done_callback(self._rating.discard)

    async def _rate(self, table: LiveTable) -> None:
        try:
            changed = await asyncio.to_thread(self.rate_game, table)
        except Exception:
            log.exception("table %s: the ratings were not updated", table.id)
            return
        if changed:
            await self.show_ratings(table)
            await self.manager.broadcast(table)

    def rate_game(self, table: LiveTable) -> bool:
        """Rate a finished game (in a thread): once, and only if it counts."""
        people = self.people
        if people.was_rated(table.id):
            return False
        base = self.store.rule_set(table.row.rules_name)
        rules = (None if not table.row.secret or self.store.event_table(table.id)
                 else rated_under(table.row.rules_name, table.row.rules_toml,
                                  base[0] if base else None))
        sat = people.seat_players(table.id)
        if rules is None or not sat:
            return people.rate(table.id, None, {}) and False
        have = people.ratings_in(rules, list(sat.values()))
        computers = people.computers(rules)
        teams_n = len(table.game.totals)
        members: list[list[tuple[str | None, Rating]]] = [[] for _ in range(teams_n)]
        for i, s in enumerate(table.seats):
            pid = sat.get(i)
            if pid is not None:
                r = have.get(pid, dataclasses.replace(DEFAULT, rules=rules))
            else:
                level = s.get("level") if s["kind"] == "bot" else None
                r = computers.get(level or "", dataclasses.replace(DEFAULT, rules=rules))
            members[table.rules.team_of[i]].append((pid, r))
        new = rate_teams([[r for _, r in team] for team in members], table.game.totals)
        out = {pid: r for team, after in zip(members, new, strict=True)
               for (pid, _), r in zip(team, after, strict=True) if pid is not None}
        return people.rate(table.id, rules, out)

    async def ratings_json(self, rules: str) -> dict[str, Any]:
        board, computers = await asyncio.gather(
            asyncio.to_thread(self.people.leaderboard, rules),
            asyncio.to_thread(self.people.computers, rules))
        board.sort(key=lambda x: -ordinal(x[1]))
        return {"rules": rules,
                "people": [{"name": p.name, **rating_json(r, computers)} for p, r in board],
                "computers": {level: rating_json(computers[level])
                              for level in LEVELS if level in computers}}

    async def tell(self, table: LiveTable, text: str, but: int | None = None) -> None:
        """A word to everyone at the table (but the seat ``but``)."""
        for conn in list(table.connections):
            if but is None or conn.seat != but:
                conn.push(notice_of(text))

    async def close(self) -> None:
        if self._rating:
            await asyncio.wait(list(self._rating), timeout=10)
