"""Helpers for tests of the server: a real server in a subprocess, and WebSocket clients
that collect every message they receive."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m handfoot.server`` on 127.0.0.1 and a free port."""

    def __init__(self, db_url: str, bot_delay: float = 0.0, port: int | None = None,
                 minute: float = 60.0, args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        """``args``: more options of ``handfoot serve``; ``env``: more of its
        environment."""
        self.args = args
        self.env = env
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.minute = minute
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        # the server's messages go to a file: a pipe nobody reads could fill and stall it
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while it runs)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "handfoot.server", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", self.db_url, "--bot-delay", str(self.bot_delay),
             "--minute-seconds", str(self.minute), *self.args],
            stdout=subprocess.DEVNULL, stderr=self.log,
            env={**os.environ, **self.env} if self.env else None)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"the server stopped: {self.log.read().decode()}")
            try:
                with urllib.request.urlopen(self.base + "/api/rule-sets", timeout=2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """Stop it at once, like kill -9."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ http
    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = None if body is None else (
            body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def get(self, path: str) -> Any:
        status, data = self.request("GET", path)
        assert status == 200, (status, data)
        return data

    def post(self, path: str, body: Any) -> Any:
        status, data = self.request("POST", path, body)
        assert status == 200, (status, data)
        return data

    def client(self, table: str, token: str | None = None, next_hand: bool = True,
               player: str | None = None) -> Client:
        """``player``: the player key the socket carries (as a browser's cookie)."""
        return Client(self, table, token, next_hand, player)


class Client:
    """A WebSocket connection that keeps every message it receives."""

    def __init__(self, server: ServerProcess, table: str, token: str | None,
                 next_hand: bool = True, player: str | None = None) -> None:
        """``next_hand``: press "Next hand" as soon as a hand has ended (the server waits
        for every person at the table before it deals on)."""
        self.next_hand = next_hand
        self.pressed: set[int] = set()
        url = f"ws://127.0.0.1:{server.port}/ws/{table}"
        if token is not None:
            url += f"?token={token}"
        headers = {"Cookie": f"hf_player={player}"} if player else None
        self.ws: ClientConnection = connect(url, max_size=1 << 24, open_timeout=10,
                                            additional_headers=headers)
        self.ws.__enter__()  # used as a context manager, closed by close()
        self.messages: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self.closed = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                raw = self.ws.recv()
                msg = json.loads(raw)
                self._press_next_hand(msg)
                with self.cond:
                    self.messages.append(msg)
                    self.cond.notify_all()
        except ConnectionClosed:
            pass
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def _press_next_hand(self, msg: Any) -> None:
        waiting = msg.get("waiting") if isinstance(msg, dict) else None
        if not self.next_hand or not waiting or msg.get("seat") not in waiting["people"] \
                or waiting["hand"] in self.pressed:
            return
        self.pressed.add(waiting["hand"])
        self.send({"type": "next-hand"})

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def act(self, action: dict[str, Any]) -> None:
        self.send({"type": "action", "action": action})

    def resumed(self, seq: int, timeout: float = 20.0) -> dict[str, Any]:
        """The first state from ``seq`` on that is not paused between hands (the table
        goes on once each person has pressed Next hand: this client presses it)."""
        return self.wait(lambda m: m["type"] == "state" and m["seq"] >= seq
                         and not m["waiting"], timeout)

    def wait(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The first message (from the start) that ``pred`` accepts."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for m in self.messages:
                    if pred(m):
                        return m
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise TimeoutError(f"no such message; last: {self.messages[-1:]}")
                self.cond.wait(left)

    def count(self) -> int:
        with self.cond:
            return len(self.messages)

    def wait_new(self, start: int, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The first message after the first ``start`` ones that ``pred`` accepts."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for m in self.messages[start:]:
                    if pred(m):
                        return m
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise TimeoutError(f"no such message; last: {self.messages[-1:]}")
                self.cond.wait(left)

    def state(self, min_seq: int = 0, timeout: float = 20.0) -> dict[str, Any]:
        """The latest state message once its ``seq`` reaches ``min_seq``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                states = [m for m in self.messages if m["type"] == "state"]
                if states and states[-1]["seq"] >= min_seq:
                    return states[-1]
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise TimeoutError(f"no state with seq >= {min_seq}; "
                                       f"last: {self.messages[-1:]}")
                self.cond.wait(left)

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)
