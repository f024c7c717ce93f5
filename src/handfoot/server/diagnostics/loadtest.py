"""``handfoot loadtest URL --tables N --seconds S``: live tables at human pace against a
running server on this machine, and how long people wait for the push after they act.

Each table has the rule set's seats: one or two people (played here), computer players at the
others (played by the server, at ``--level``), and zero to two spectators. A person
acts a couple of seconds after their turn comes (``--think``, 1.5 to 3 s; the next
action of the same turn after 0.5 to 1.5 s): draws, lays down a meld or two now and
then, discards; and presses Next hand, after a think, when a hand is over. A table whose
game is over is replaced by a new one.

What it measures, once the tables are warm (``--warmup``), for ``--seconds``:

* **action to push**: from a person sending an action to the new state arriving on that
  person's socket (p50, p90, p99, max);
* **seen by the others**: from the same moment to the new state on the other people's
  and the spectators' sockets at the table, apart for sockets served by the same
  server process as the person and by another (several processes: ``hello`` names
  the process);
* errors (error messages, failed requests), sockets closed by the server
  (disconnects; they are opened again), games finished;
* CPU: the server processes' (the process tree of the server whose ``/api/server``
  answers, all its processes included, and any ``--server-pid`` given), this load
  test's own, the whole machine's, and its load average; and this load test's own
  event loop lag, which adds to every figure measured here.

Only a server on this machine (127.0.0.1, localhost, ::1) is tested. Start it with
``--limit-tables 0`` (the load test starts many tables from one address).

The load test shares the machine with the server, so its own CPU is kept low: its
sockets are aiohttp's (frames read by compiled code, compressed as a browser's are) on
uvloop's event loop, some 0.6 of the CPU a message of the websockets library on
asyncio's loop (the ``bench`` extra: ``pip install 'handfoot[bench]'``). Its own
pauses would be measured as the server's, so its garbage collector makes no passes
while it runs (they held its loop up to 0.4 s at 1,000 tables).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import sys
import time
import timeit
import urllib.error
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
MELDS = ("meld", "add", "lay-down")
FIRST = ("choose-hand", "draw", "pick-up-foot")


#: how a state message begins (the server writes its keys in this order)
_STATE_HEAD = re.compile(r'\{"type":"state","table":"[^"\\]*","seq":(\d+),')


def glance(raw: str | bytes) -> tuple[int, bool, bool, bool] | None:
    """What the load test needs of a state message, without reading all of it: its
    seq, whether the game is over, whether it lists moves for the seat, and whether
    the table waits for its people to press Next hand; None for any other message (or
    a state not written as expected), which is read whole.

    Inside a JSON string a quote is escaped, so ``"game_over":`` and ``"legal":`` are
    found only as keys; the state has no other key of those names, the server writes
    ``"legal"`` after the view, and ``"waiting"`` last. So the message is searched only
    up to its moves (the move log after them is most of it), and its end is looked at.

    >>> glance('{"type":"state","table":"t1","seq":12,"view":{"game_over":false},'
    ...        '"legal":[],"waiting":null}')
    (12, False, False, False)
    >>> glance('{"type":"state","table":"t1","seq":3,"view":{"game_over":true},'
    ...        '"legal":[{}],"waiting":{"hand":1}}')
    (3, True, True, True)
    >>> glance('{"type":"hello","process":"a"}') is None
    True
    """
    text = raw if isinstance(raw, str) else raw.decode()
    head = _STATE_HEAD.match(text)
    if head is None:
        return None
    over_at = text.find('"game_over":', head.end())
    legal_at = text.find('"legal":', over_at)
    if over_at < 0 or legal_at < 0:
        return None
    paused = not text.endswith('"waiting":null}') and '"waiting":null' not in text
    return (int(head.group(1)), text.startswith("true", over_at + 12),
            not text.startswith("[]", legal_at + 8), paused)


def legal_of(text: str) -> list[dict[str, Any]] | None:
    """The moves a state message lists for the seat, read without reading the rest of
    it (a whole state message took some 70 µs of the load test's CPU to read, its moves
    alone a few): the server writes ``"legal"`` just before ``"last_hand"``, and inside
    a JSON string a quote is escaped, so ``"legal":[`` and ``],"last_hand":`` are found
    only as keys. None when the message is not written so (then it is read whole).

    >>> legal_of('{"type":"state","seq":4,"legal":[{"type":"draw"}],"last_hand":null}')
    [{'type': 'draw'}]
    >>> legal_of('{"type":"state","seq":4,"legal":[]}') is None
    True
    """
    start = text.find('"legal":[')
    end = text.find('],"last_hand":', start)
    if start < 0 or end < 0:
        return None
    try:
        legal = orjson.loads(text[start + 8:end + 1])
    except orjson.JSONDecodeError:
        return None
    return legal if isinstance(legal, list) else None


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def summary_ms(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), **{f"p{p}": round(percentile(values, p) * 1000, 1)
                                  for p in (50, 90, 99)},
            "max": round(max(values) * 1000, 1) if values else float("nan")}


def choose(legal: list[dict[str, Any]], melded: int, rng: random.Random) -> dict[str, Any]:
    """A person's move: draw first, a meld or two now and then, then a discard."""
    kinds: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in legal:
        kinds[a["type"]].append(a)
    for kind in FIRST:
        if kinds[kind]:
            return kinds[kind][0]
    if kinds["go-down"]:
        return kinds["go-down"][0]
    melds = [a for k in MELDS for a in kinds[k]]
    if melds and melded < 2 and rng.random() < 0.5:
        return rng.choice(melds)
    if kinds["discard"]:
        return rng.choice(kinds["discard"])
    if kinds["answer"]:
        return rng.choice(kinds["answer"])
    rest = [a for a in legal if a["type"] not in (*MELDS, "take-back", "ask")]
    return rng.choice(rest or kinds["take-back"] or legal)


# ------------------------------------------------------------------ CPU


def _ticks(pid: int) -> tuple[int, int] | None:
    """(CPU ticks, parent pid) of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12]), int(fields[1])


def tree_ticks(roots: list[int]) -> dict[int, int]:
    """CPU ticks of each process in the trees under ``roots``."""
    procs: dict[int, tuple[int, int]] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                got = _ticks(int(name))
                if got is not None:
                    procs[int(name)] = got
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (_, ppid) in procs.items():
        children[ppid].append(pid)
    out: dict[int, int] = {}
    todo = [r for r in roots if r in procs]
    while todo:
        pid = todo.pop()
        if pid in out:
            continue
        out[pid] = procs[pid][0]
        todo.extend(children[pid])
    return out


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine."""
    try:
        with open("/proc/stat") as f:
            values = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


def _hz() -> int:
    try:
        return int(os.sysconf("SC_CLK_TCK"))
    except (ValueError, OSError, AttributeError):
        return 100


# ---------------------------------------------------------------- the run


@dataclass
class Stats:
    measuring: bool = False
    acted: list[float] = field(default_factory=list)
    seen_same: list[float] = field(default_factory=list)
    seen_other: list[float] = field(default_factory=list)
    errors: int = 0
    error_texts: dict[str, int] = field(default_factory=dict)
    disconnects: int = 0
    games: int = 0
    lag: list[float] = field(default_factory=list)

    def error(self, text: str) -> None:
        self.errors += 1
        key = text[:80]
        self.error_texts[key] = self.error_texts.get(key, 0) + 1


class Runner:
    def __init__(self, base: str, args: argparse.Namespace, stats: Stats) -> None:
        self.base = base.rstrip("/")
        self.ws_base = "ws" + self.base[4:]
        self.args = args
        self.stats = stats
        self.rng = random.Random(args.seed)
        self.stop = asyncio.Event()
        self.seats = 4  #: the rule set's (asked of the server)
        self.session: Any = None  #: every socket's aiohttp session (made in :func:`run`)

    # http, in a thread (a few requests a table)
    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())

    async def request(self, method: str, path: str, body: Any = None) -> Any:
        return await asyncio.to_thread(self._request, method, path, body)

    async def new_table(self) -> dict[str, Any]:
        rng = self.rng
        people = rng.choice(self.args.people_choices)
        seats: list[dict[str, Any]] = [{"kind": "bot", "level": self.args.level}
                                       for _ in range(self.seats)]
        for s in rng.sample(range(self.seats), min(people, self.seats)):
            seats[s] = {"kind": "human", "name": f"person {s + 1}"}
        try:
            return dict(await self.request("POST", "/api/tables",
                                           {"rules": self.args.rules, "seats": seats}))
        except urllib.error.HTTPError as e:
            if e.code == 429:
                raise SystemExit("handfoot loadtest: the server refuses more tables from "
                                 "this address; start it with --limit-tables 0") from None
            raise

    async def table(self, index: int) -> None:
        """One table after another, for as long as the run lasts."""
        await asyncio.sleep(index * self.args.ramp / max(1, self.args.tables))
        while not self.stop.is_set():
            try:
                made = await self.new_table()
            except SystemExit:
                raise
            except Exception as e:
                self.stats.error(f"starting a table: {e}")
                await asyncio.sleep(1.0)
                continue
            await Table(self, made).play()

    async def lag(self) -> None:
        while not self.stop.is_set():
            start = time.monotonic()
            await asyncio.sleep(0.05)
            if self.stats.measuring:
                self.stats.lag.append(time.monotonic() - start - 0.05)


class Table:
    """One table's sockets: its people and spectators."""

    def __init__(self, runner: Runner, made: dict[str, Any]) -> None:
        self.runner = runner
        self.id = str(made["id"])
        self.people = {int(i["seat"]): str(i["token"]) for i in made["invites"]}
        self.spectators = runner.rng.choice(runner.args.spectator_choices)
        self.over = asyncio.Event()
        #: people's actions in flight: the seq they make -> (when sent, the server
        #: process of the person's socket, the seat, the sockets that have seen it)
        self.sent: dict[int, tuple[float, str, int, set[int]]] = {}

    async def play(self) -> None:
        sockets = [self.socket(k, seat, tok) for k, (seat, tok)
                   in enumerate(self.people.items())]
        sockets += [self.socket(len(self.people) + k, None, None)
                    for k in range(self.spectators)]
        tasks = [asyncio.ensure_future(s) for s in sockets]
        stop = asyncio.ensure_future(self.runner.stop.wait())
        over = asyncio.ensure_future(self.over.wait())
        await asyncio.wait([stop, over], return_when=asyncio.FIRST_COMPLETED)
        for t in (*tasks, stop, over):
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        if self.over.is_set() and self.runner.stats.measuring:
            self.runner.stats.games += 1

    async def socket(self, key: int, seat: int | None, token: str | None) -> None:
        import aiohttp

        runner, stats = self.runner, self.runner.stats
        url = f"{runner.ws_base}/ws/{self.id}" + (f"?token={token}" if token else "")
        rng = random.Random(runner.rng.random())
        while not runner.stop.is_set() and not self.over.is_set():
            why = ""
            try:
                # as a browser: compressed (the server's window), pings answered
                async with runner.session.ws_connect(
                        url, compress=15, max_msg_size=1 << 24, autoping=True) as ws:
                    if await self.session(ws, key, seat, rng):
                        return
                    why = f"closed by the server ({ws.close_code})"
            except (aiohttp.ClientError, OSError, TimeoutError, AssertionError) as e:
                # (aiohttp asserts, rather than raise, when the server closes a socket just
                # after its handshake: as a table ends, say)
                why = type(e).__name__
            if runner.stop.is_set() or self.over.is_set():
                return
            if stats.measuring:
                stats.disconnects += 1
                name = f"socket closed: {why}"
                stats.error_texts[name] = stats.error_texts.get(name, 0) + 1
            await asyncio.sleep(0.5)

    def _seen(self, key: int, seat: int | None, process: str, seq: int, now: float) -> None:
        stats = self.runner.stats
        for s in [s for s in self.sent if s <= seq]:
            sent, where, actor, seen = self.sent[s]
            if key in seen:
                continue
            seen.add(key)
            if stats.measuring:
                if actor == seat:
                    stats.acted.append(now - sent)
                else:
                    (stats.seen_same if where == process else stats.seen_other).append(
                        now - sent)
            if now - sent > 60:
                del self.sent[s]
        if len(self.sent) > 16:
            for s in sorted(self.sent)[:-8]:
                del self.sent[s]

    async def session(self, ws: Any, key: int, seat: int | None,
                      rng: random.Random) -> bool:
        """Read the socket, and act for the seat; True when done with the table."""
        think, more = self.runner.args.think, self.runner.args.think_more
        stats = self.runner.stats
        process = ""
        waiting = -1  # the seq our action in flight makes
        last_made = -2  # the seq our last action made (the next one: same turn)
        melded = 0
        acting: asyncio.Task[None] | None = None

        pressed: set[int] = set()  # the hands after which Next hand was pressed

        async def press(delay: float) -> None:
            await asyncio.sleep(delay)
            await ws.send_str(json.dumps({"type": "next-hand"}))

        async def act(state: dict[str, Any], delay: float) -> None:
            nonlocal waiting, last_made, melded
            await asyncio.sleep(delay)
            action = choose(state["legal"], melded, rng)
            melded += action["type"] in MELDS
            made = int(state["seq"]) + 1
            assert seat is not None
            self.sent[made] = (time.monotonic(), process, seat, set())
            waiting = last_made = made
            await ws.send_str(json.dumps({"type": "action", "action": action}))

        try:
            async for message in ws:
                now = time.monotonic()
                raw = message.data
                if not isinstance(raw, str | bytes):  # not a text message: the end
                    break
                # the load test's own time counts too: most states are only glanced at
                glanced = glance(raw)
                msg: dict[str, Any] | None = None
                if glanced is None:  # not a state written as expected: read it whole
                    msg = orjson.loads(raw)
                    kind = msg.get("type")
                    if kind == "hello":
                        process = str(msg.get("process", ""))
                    elif kind == "error":
                        if stats.measuring:
                            stats.error(str(msg.get("message", "")))
                        if msg.get("fatal"):
                            return True
                        self.sent.pop(waiting, None)
                        waiting = -1  # refused: the person chooses again
                    if kind != "state":
                        continue
                    glanced = (int(msg["seq"]), bool(msg["view"].get("game_over")),
                               bool(msg["legal"]), bool(msg.get("waiting")))
                seq, over, listed, paused = glanced
                self._seen(key, seat, process, seq, now)
                if over:
                    self.over.set()
                    return True
                if seq >= waiting:
                    waiting = -1
                busy = waiting >= 0 or (acting is not None and not acting.done())
                if seat is None or not (listed or paused) or (busy and not paused):
                    continue
                if msg is None and not paused:  # only its moves are needed
                    listed_moves = legal_of(raw if isinstance(raw, str) else raw.decode())
                    if listed_moves is not None:
                        msg = {"seq": seq, "legal": listed_moves, "waiting": None}
                if msg is None:
                    msg = orjson.loads(raw)
                pause = msg["waiting"]
                if pause:  # the hand is over: press Next hand, once, after a while
                    if seat in pause["people"] and seat not in pause["ready"] \
                            and pause["hand"] not in pressed:
                        pressed.add(pause["hand"])
                        if acting is not None:
                            acting.cancel()  # a move chosen before the hand ended
                        acting = asyncio.get_running_loop().create_task(
                            press(rng.uniform(*think)))
                    continue
                if seq != last_made:  # a new turn
                    melded = 0
                delay = rng.uniform(*(more if seq == last_made else think))
                acting = asyncio.get_running_loop().create_task(act(msg, delay))
        finally:
            if acting is not None:
                acting.cancel()
        return False


async def run(base: str, args: argparse.Namespace) -> dict[str, Any]:
    import aiohttp

    stats = Stats()
    runner = Runner(base, args, stats)
    # The load test stands in for the people's own machines, and its collector's pauses
    # were measured as the server's: at 1,000 tables a young pass held its loop 4 ms on
    # average, a middle one 32 ms, a full one up to 0.4 s, every push arriving meanwhile
    # waiting with them (5.6 s of pauses in a run of 150 s). So while it runs, it makes
    # no passes: what it holds when it starts is frozen, garbage held in a cycle waits
    # for the end, and the result counts both (``loadtest_collector``).
    passes = [0]

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            passes[0] += 1

    gc.collect()
    gc.freeze()
    enabled = gc.isenabled()
    gc.disable()
    gc.callbacks.append(count)
    try:
        # no limit on connections; 30 s to open one, none on how long it lasts
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0),
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=30)) as session:
            runner.session = session
            result = await _run(runner, base, args)
    finally:
        gc.callbacks.remove(count)
        gc.unfreeze()
        if enabled:
            gc.enable()
    during = passes[0]
    result["loadtest_collector"] = {
        "passes": during, "garbage_at_end": gc.collect(),
        # (Linux counts it in KiB)
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
    return result


async def _run(runner: Runner, base: str, args: argparse.Namespace) -> dict[str, Any]:
    stats = runner.stats
    info = await runner.request("GET", "/api/server")
    offered = await runner.request("GET", "/api/rule-sets")
    runner.seats = next((int(r["seats"]) for r in offered["rule_sets"]
                         if r["name"] == args.rules), 4)
    roots = [int(info["root"])] if "root" in info else []
    roots += args.server_pid
    speed_before = machine_speed_us()
    lag = asyncio.ensure_future(runner.lag())
    tables = [asyncio.ensure_future(runner.table(i)) for i in range(args.tables)]
    await asyncio.sleep(args.warmup)
    hz = _hz()
    t0 = time.monotonic()
    server0, me0, machine0 = tree_ticks(roots), os.times(), machine_ticks()
    db0 = tree_ticks(args.db_pid)
    stats.measuring = True
    done, _ = await asyncio.wait([*tables], timeout=args.seconds,
                                 return_when=asyncio.FIRST_EXCEPTION)
    stats.measuring = False
    elapsed = time.monotonic() - t0
    server1, me1, machine1 = tree_ticks(roots), os.times(), machine_ticks()
    db1 = tree_ticks(args.db_pid)
    runner.stop.set()
    for t in (*tables, lag):
        t.cancel()
    for t in done:
        if t.exception() is not None:
            raise t.exception()  # type: ignore[misc]
    await asyncio.gather(*tables, lag, return_exceptions=True)
    speed_after = machine_speed_us()
    per_process = {pid: round((server1[pid] - server0.get(pid, 0)) / hz / elapsed, 2)
                   for pid in server1}
    server_cores = sum(per_process.values())
    busy = machine1[0] - machine0[0]
    total = machine1[1] - machine0[1]
    return {
        "tables": args.tables, "seconds": round(elapsed, 1),
        "ramp_s": args.ramp, "warmup_s": args.warmup, "rules": args.rules,
        "level": args.level, "people_actions": len(stats.acted),
        "actions_per_second": round(len(stats.acted) / elapsed, 1),
        "action_to_push_ms": summary_ms(stats.acted),
        "seen_same_process_ms": summary_ms(stats.seen_same),
        "seen_other_process_ms": summary_ms(stats.seen_other),
        "errors": stats.errors, "error_kinds": stats.error_texts,
        "disconnects": stats.disconnects, "games_finished": stats.games,
        "server_cpu_cores": round(server_cores, 2),
        # the server's CPU for each person's action (with the computer players' moves
        # between them), and the machine's speed: what the same load costs moves with it
        "server_cpu_ms_per_action": round(1000 * server_cores * elapsed / len(stats.acted), 2)
        if stats.acted else None,
        "machine_speed_us": {"before": speed_before, "after": speed_after},
        "server_processes": len(per_process),
        "server_cpu_by_process": {str(k): v for k, v in sorted(per_process.items()) if v},
        "database_cpu_cores": round(sum(v - db0.get(k, 0) for k, v in db1.items())
                                    / hz / elapsed, 2) if args.db_pid else None,
        "loadtest_cpu_cores": round((me1.user + me1.system - me0.user - me0.system)
                                    / elapsed, 2),
        "machine_busy": round(busy / total, 3) if total else None,
        "machine_cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "loadtest_loop_lag_ms": summary_ms(stats.lag),
    }


#: :func:`machine_speed_us`'s loop, and its time on this machine on a good day
SPEED_LOOP = "sum(range(10000))"
SPEED_GOOD_DAY_US = 185


def machine_speed_us() -> float:
    """How fast this machine runs Python now: the best of five timings of
    :data:`SPEED_LOOP`, in µs (about 0.3 s; measured before the tables start and after
    they stop). On a shared machine it moves by half from one hour to the next, and the
    load a run holds moves with it."""
    times = timeit.repeat(SPEED_LOOP, number=200, repeat=5)
    return round(min(times) / 200 * 1e6, 1)


def _range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def _choices(text: str) -> list[int]:
    low, high = _range(text)
    return list(range(int(low), int(high) + 1))


def report(r: dict[str, Any]) -> str:
    def line(what: str, s: dict[str, Any]) -> str:
        return (f"  {what}: {s['n']} pushes, p50 {s['p50']} ms, p90 {s['p90']} ms, "
                f"p99 {s['p99']} ms, max {s['max']} ms")
    out = [f"{r['tables']} tables ({r['rules']}, {r['level']} computer players; started "
           f"over {r['ramp_s']:g} s, measured from {r['warmup_s']:g} s) for "
           f"{r['seconds']} s: {r['people_actions']} people's actions "
           f"({r['actions_per_second']}/s)",
           line("action to push, the acting person", r["action_to_push_ms"]),
           line("seen by the others at the table, same process", r["seen_same_process_ms"]),
           line("seen by the others at the table, other process",
                r["seen_other_process_ms"]),
           f"  errors {r['errors']}, disconnects {r['disconnects']}, games finished "
           f"{r['games_finished']}"
           + (f" ({'; '.join(f'{k}: {v}' for k, v in r['error_kinds'].items())})"
              if r["error_kinds"] else ""),
           f"  CPU: server {r['server_cpu_cores']} cores in {r['server_processes']} "
           f"processes, "
           + (f"the database {r['database_cpu_cores']} cores, "
              if r["database_cpu_cores"] is not None else "")
           + f"this load test {r['loadtest_cpu_cores']} cores; the machine "
           f"{r['machine_busy'] if r['machine_busy'] is None else round(r['machine_busy'] * 100)}"
           f"% busy of {r['machine_cores']} cores, load average {r['load_average']}",
           line("this load test's own loop lag", r["loadtest_loop_lag_ms"])
           + (f"; its collector's passes while it ran: "
              f"{r['loadtest_collector']['passes']}, garbage held in cycles at the end: "
              f"{r['loadtest_collector']['garbage_at_end']} objects; its memory at most "
              f"{r['loadtest_collector']['max_rss_mb']} MB"
              if "loadtest_collector" in r else ""),
           f"  the server's CPU for each person's action: {r['server_cpu_ms_per_action']} "
           f"ms; the machine's speed: {SPEED_LOOP} took "
           f"{r['machine_speed_us']['before']} µs before, "
           f"{r['machine_speed_us']['after']} µs after ({SPEED_GOOD_DAY_US} on a good day)"]
    return "\n".join(out)


#: the tables are started over ``RAMP_EACH`` seconds a table (at least ``RAMP_LEAST``),
#: and measured ``SETTLE`` seconds after the last one started: starting a table costs
#: the server more than playing it (the table made and loaded, its game sent whole to
#: a pool worker), and 1,000 tables started in 10 s and measured 10 s later took 3.84 ms of
#: the server's CPU a person's action and 143 ms at the 99th percentile, against 3.47 to
#: 3.71 ms and 44 to 88 ms started over 30 s and measured 25 s later (docs/server.md)
RAMP_EACH = 0.03
RAMP_LEAST = 10.0
SETTLE = 25.0


def start_times(tables: int, ramp: float | None, warmup: float | None
                ) -> tuple[float, float]:
    """The ramp and the warm-up of a run, each as given or else by the number of tables.

    >>> start_times(50, None, None)
    (10.0, 35.0)
    >>> start_times(1000, None, None)
    (30.0, 55.0)
    >>> start_times(1000, 5.0, 8.0)
    (5.0, 8.0)
    """
    if ramp is None:
        ramp = max(RAMP_LEAST, RAMP_EACH * tables)
    if warmup is None:
        warmup = ramp + SETTLE
    return ramp, warmup


def add_parser(sub: Any) -> None:
    p = sub.add_parser("loadtest", help="live tables at human pace against a server on "
                       "this machine: push latency, errors, CPU")
    p.add_argument("url", help="the server, e.g. http://127.0.0.1:8000 (this machine only)")
    p.add_argument("--tables", type=int, default=50, help="live tables (50)")
    p.add_argument("--seconds", type=float, default=60, help="how long to measure (60)")
    p.add_argument("--warmup", type=float, default=None,
                   help="seconds before measuring, while the tables start and settle "
                   f"(the ramp and {SETTLE:g} more)")
    p.add_argument("--ramp", type=float, default=None,
                   help="seconds over which the tables are started "
                   f"({RAMP_EACH * 1000:g} ms a table, at least {RAMP_LEAST:g})")
    p.add_argument("--rules", default="six-deck", help="rule set (six-deck)")
    p.add_argument("--level", default="medium", help="computer players' level (medium)")
    p.add_argument("--people", default="1-2", help="people at a table (1-2)")
    p.add_argument("--spectators", default="0-2", help="spectators at a table (0-2)")
    p.add_argument("--think", default="1.5-3", help="seconds before a person's first "
                   "action of a turn (1.5-3)")
    p.add_argument("--think-more", default="0.5-1.5",
                   help="seconds before each next action of the turn (0.5-1.5)")
    p.add_argument("--server-pid", type=int, action="append", default=[],
                   help="also count this process's CPU (and its children's)")
    p.add_argument("--db-pid", type=int, action="append", default=[],
                   help="count this process's CPU (and its children's) as the database's "
                        "(PostgreSQL's first process, on this machine)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_loadtest)


def cmd_loadtest(args: argparse.Namespace) -> int:
    host = urlsplit(args.url).hostname or ""
    if host not in LOOPBACK and not host.startswith("127."):
        print("handfoot loadtest: only a server on this machine is tested (127.0.0.1, "
              "localhost or ::1).", file=sys.stderr)
        return 2
    args.ramp, args.warmup = start_times(args.tables, args.ramp, args.warmup)
    args.think = _range(args.think)
    args.think_more = _range(args.think_more)
    args.people_choices = _choices(args.people)
    args.spectator_choices = _choices(args.spectators)
    try:
        import aiohttp  # noqa: F401
        import uvloop
    except ImportError:
        print("handfoot loadtest needs aiohttp and uvloop: pip install 'handfoot[bench]'",
              file=sys.stderr)
        return 2
    result = uvloop.run(run(args.url, args))
    print(json.dumps(result) if args.json else report(result), flush=True)
    return 0
