"""What a seat must not reach: every object reachable from a view, and the real game's
hidden objects."""

from __future__ import annotations

import gc
import types
from typing import Any

from handfoot.game import Game


def reachable(*roots: object) -> list[object]:
    """Every object reachable from ``roots`` (not through code)."""
    seen: dict[int, object] = {}
    todo = list(roots)
    while todo:
        x = todo.pop()
        if id(x) in seen or isinstance(x, _CODE):
            continue
        seen[id(x)] = x
        todo.extend(gc.get_referents(x))
    return list(seen.values())


def hidden_objects(game: Game, seat: int) -> dict[int, str]:
    """The objects of the real game a seat must not reach, by id, with a name."""
    hand = game.hand
    out: dict[int, Any] = {id(game): "the game", id(hand): "the hand",
                           id(hand.deal): "the deal", id(hand.deal.order): "the deal's order",
                           id(hand.rng): "the hand's chance", id(game.rng): "the game's chance",
                           id(hand.stock): "the stock", id(hand.pile): "the pile"}
    for s in range(hand.seats):
        if s != seat:
            out[id(hand.hands[s])] = f"seat {s}'s hand"
        if hand.feet[s] is not None:
            out[id(hand.feet[s])] = f"seat {s}'s foot"
    for i, stacks in enumerate(hand.stacks):
        for j, stack in enumerate(stacks):
            out[id(stack)] = f"seat {i}'s stack {j}"
    return out


_CODE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
         types.CodeType, types.MethodType, types.WrapperDescriptorType,
         types.MethodDescriptorType, types.GetSetDescriptorType, types.MemberDescriptorType)
