"""Club events built in the model: an event whose teams tie, and an event kept in a store."""

from __future__ import annotations

from handfoot.club.draw import draw_round
from handfoot.club.event import Event, TableResult
from handfoot.club.store import ClubStore


def tied_event(tie_break: str) -> Event:
    rules = f'extends = "texas-good-sam"\n[game]\ntie_break = "{tie_break}"\n'
    ev = Event.create("Tied", rules)
    register(ev, 8)
    ev.draws[1] = draw_round(ev, 1, 9)
    ev.results.append(TableResult(1, 1, "paper", ((500, 200),), (500, 200)))
    ev.results.append(TableResult(1, 2, "paper", ((100, 500),), (100, 500)))
    return ev


def store_event(store: ClubStore, ev: Event, keep: int | None = None) -> list[TableResult]:
    """Keep an event made in memory in ``store``: its draws, then its first ``keep``
    results (all by default); returns the results held back."""
    results = list(ev.results)
    ev.results.clear()
    store.create(ev, "pass")
    for rnd in sorted(ev.draws):
        store.save_draw(ev, ev.draws[rnd])
    kept = results if keep is None else results[:keep]
    for r in kept:
        store.add_result(ev, r)
    return results[len(kept):]


def register(ev: Event, n: int) -> None:
    for i in range(n):
        spouse = [f"Player {i + 1:02d}"] if i % 4 == 0 else []
        ev.add_player(f"Player {i:02d}", f"Chapter {'ABCD'[i % 4]}", spouse)
