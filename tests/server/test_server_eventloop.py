"""The server's event loop: uvloop's where it is installed, asyncio's when asked for or
for the loop-step diagnostic, and a clear refusal of a loop it cannot run on."""

from __future__ import annotations

import importlib.util

import pytest

from handfoot.cli import main
from handfoot.server.eventloop import EVENT_LOOPS, NoSuchLoop, event_loop, uvicorn_options

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


@pytest.fixture(autouse=True)
def _no_loop_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HANDFOOT_LOOP_STEPS", raising=False)


def test_uvloop_is_the_default_where_it_is_installed() -> None:
    assert event_loop() == ("uvloop" if HAS_UVLOOP else "asyncio")
    assert uvicorn_options()["loop"] == event_loop("auto")
    assert uvicorn_options(loop="asyncio")["loop"] == "asyncio"


def test_asyncio_s_loop_when_asked_for_and_for_the_loop_step_diagnostic(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert event_loop("asyncio") == "asyncio"
    monkeypatch.setenv("HANDFOOT_LOOP_STEPS", "1")
    assert event_loop("auto") == "asyncio"
    assert event_loop("uvloop") == "asyncio"  # the diagnostic cannot see into uvloop


def test_without_uvloop_auto_falls_back_and_uvloop_asked_for_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "uvloop" else real(name)
    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert event_loop("auto") == "asyncio"
    with pytest.raises(NoSuchLoop, match="uvloop is not installed"):
        event_loop("uvloop")
    # the command refuses it before starting anything, in words, with status 2
    assert main(["serve", "--event-loop", "uvloop", "--port", "1"]) == 2


def test_an_unknown_loop_is_refused() -> None:
    assert EVENT_LOOPS == ("auto", "uvloop", "asyncio")
    with pytest.raises(NoSuchLoop, match="no event loop 'trio'"):
        event_loop("trio")
    with pytest.raises(SystemExit):  # argparse: not one of the choices
        main(["serve", "--event-loop", "trio"])
