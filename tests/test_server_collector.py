"""The garbage collector in a server process (:mod:`handfoot.server.collector`): what a
young pass keeps is frozen, so that no later pass but the rare full one looks at it
again; what is frozen is still freed when nothing refers to it, and garbage held in a
cycle is freed by the full pass."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from handfoot.server import collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


@pytest.fixture
def configured() -> Iterator[None]:
    threshold = gc.get_threshold()
    collector.configure()
    try:
        yield
    finally:
        collector._CONFIGURED[0] = False
        gc.callbacks.remove(collector._on_pass)
        gc.set_threshold(*threshold)
        gc.unfreeze()


def test_a_young_pass_freezes_what_it_keeps_and_the_full_pass_frees_frozen_cycles(
        configured: None) -> None:
    passes = collector.PASSES[0]
    kept = [Node()]
    gone = weakref.ref(kept[0])
    plain = [[i] for i in range(1_000)]
    plain_gone = weakref.ref(plain_holder := _Holder(plain))
    frozen = gc.get_freeze_count()
    gc.collect(0)  # a young pass, as the server's come every 50,000 new objects
    assert collector.PASSES[0] == passes + 1
    assert gc.get_freeze_count() >= frozen + 1_000  # the lists, the node, the holder
    assert not gc.get_objects(1)  # nothing left for the later passes to look at
    # frozen and unreachable without a cycle: freed at once, as ever
    del plain_holder
    assert plain_gone() is None
    # frozen and held in a cycle: no pass but the full one looks at it
    kept.clear()
    for generation in (0, 1, 2):
        gc.collect(generation)
    assert gone() is not None
    full = collector.FULL["passes"]
    assert collector.full_pass() >= 1
    assert gone() is None and collector.FULL["passes"] == full + 1
    figures = collector.figures()
    assert figures["gc_full"]["passes"] == full + 1
    assert figures["gc_frozen"] == gc.get_freeze_count() > 0


class _Holder:
    def __init__(self, held: object) -> None:
        self.held = held


def test_without_configure_nothing_is_frozen() -> None:
    assert not collector._CONFIGURED[0]
    frozen = gc.get_freeze_count()
    kept = [[i] for i in range(1_000)]
    gc.collect(0)
    assert gc.get_freeze_count() == frozen and len(kept) == 1_000
