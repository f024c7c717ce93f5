"""The garbage collector in a server process (:mod:`handfoot.server.collector`): it makes
no passes of its own, so a busy server never stops for one; reference counting still
frees what nothing refers to, at once; garbage held in a cycle is freed by the full
pass, and only by it."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from handfoot.server import collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


class _Holder:
    def __init__(self, held: object) -> None:
        self.held = held


@pytest.fixture
def configured() -> Iterator[None]:
    assert gc.isenabled()
    collector.configure()
    try:
        yield
    finally:
        collector._CONFIGURED[0] = False
        gc.callbacks.remove(collector._on_pass)
        gc.enable()
        gc.unfreeze()


def test_no_pass_comes_of_itself_and_the_full_pass_frees_cycles(configured: None) -> None:
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0  # what existed at start
    passes = list(collector.PASSES)
    # far more new objects than CPython's own threshold (700) or the 50,000 the server's
    # young passes once came after: no pass
    made = [[i] for i in range(200_000)]
    cycle = Node()
    gone = weakref.ref(cycle)
    assert passes == collector.PASSES
    # unreachable without a cycle: freed at once, as ever
    holder = _Holder(made)
    plain_gone = weakref.ref(holder)
    del made, holder
    assert plain_gone() is None
    # held in a cycle: waits for the full pass, which is timed and counted
    del cycle
    assert gone() is not None
    full = collector.FULL["passes"]
    assert collector.full_pass() >= 1
    assert gone() is None and collector.FULL["passes"] == full + 1
    assert not gc.isenabled()  # and still no passes of its own after it
    figures = collector.figures()
    assert figures["gc_full"]["passes"] == full + 1
    assert figures["gc_passes"][2] == passes[2] + 1
    assert figures["gc_frozen"] == gc.get_freeze_count() > 0


def test_without_configure_the_collector_runs_as_usual() -> None:
    assert not collector._CONFIGURED[0] and gc.isenabled()
    frozen = gc.get_freeze_count()
    cycle = Node()
    gone = weakref.ref(cycle)
    del cycle
    gc.collect(0)
    assert gone() is None and gc.get_freeze_count() == frozen
