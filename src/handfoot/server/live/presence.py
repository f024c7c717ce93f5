"""Who is at a table: a person whose connection drops is named to the others at once
("Ann left the table"), and once they have been away for the table's wait
(``absent_wait``, 60 seconds unless the table was set up with another) anyone seated
may hand their seat to the computer, until they come back; a person's turn may be
timed (``turn_seconds``, off unless the table was set up with it), with a nudge when it
runs out. The table's settings are kept with it (``tables.settings_json``).

>>> check_settings({"absent_wait": 30})
{'absent_wait': 30}
>>> check_settings({"turn_seconds": -1})
Traceback (most recent call last):
...
ValueError: The turn timer must be 0 (off) or between 15 and 3600 seconds.
"""

from __future__ import annotations

from typing import Any, Final

from handfoot.server.live.table import LiveTable
from handfoot.server.live.table_log import seat_names

#: each setting's value unless the table was set up with another
DEFAULTS: Final = {"absent_wait": 60, "turn_seconds": 0}
#: each setting's bounds, and what it is called in a refusal
BOUNDS: Final = {"absent_wait": (0, 3600, "The wait before an absent seat may be handed "
                                          "to the computer must be between 0 and 3600 "
                                          "seconds."),
                 "turn_seconds": (15, 3600, "The turn timer must be 0 (off) or between 15 "
                                            "and 3600 seconds.")}


def check_settings(data: Any) -> dict[str, int]:
    """The table's settings from a request (only those given), or ValueError in
    words."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError("The table's settings must be an object.")
    out = {}
    for key, value in data.items():
        if key not in BOUNDS:
            raise ValueError(f"There is no table setting called {key!r}; the settings "
                             f"are {', '.join(BOUNDS)}.")
        low, high, words = BOUNDS[key]
        if not isinstance(value, int) or isinstance(value, bool) \
                or not (low <= value <= high or (key == "turn_seconds" and value == 0)):
            raise ValueError(words)
        out[key] = value
    return out


def setting(table: LiveTable, key: str) -> int:
    return int(table.row.settings.get(key, DEFAULTS[key]))


def changes(table: LiveTable, now: float) -> list[tuple[int, str]]:
    """Who left and who came back since the last look: (seat, the words for the
    others), and the seats marked away (and ready to hand over) as they are now."""
    connected = table.connected()
    if connected == table.present:  # (every broadcast: nothing to do, most often)
        if table.left_at:
            mark(table, now)
        return []
    names = seat_names(table.seats)
    out = []
    for seat in sorted(table.present - connected):
        table.left_at[seat] = now
        out.append((seat, f"{names[seat]} left the table."))
    for seat in sorted(connected - table.present):
        if table.left_at.pop(seat, None) is not None:
            out.append((seat, f"{names[seat]} is back."))
    table.present = connected
    mark(table, now)
    return out


def mark(table: LiveTable, now: float) -> bool:
    """Mark each absent person's seat away, and ready to be handed to the computer
    once they have been away for the table's wait; whether a mark changed."""
    wait = setting(table, "absent_wait")
    changed = False
    for seat in range(len(table.seats)):
        left = table.left_at.get(seat)
        away = left is not None and not table.game.over
        ready = away and left is not None and now - left >= wait and not table.is_bot(seat)
        extra = table.seat_extra.setdefault(seat, {})
        if bool(extra.get("away")) != away or bool(extra.get("hand_over")) != ready:
            extra["away"], extra["hand_over"] = away, ready
            changed = True
    return changed


def hand_over_refusal(table: LiveTable, seat: int, now: float) -> str | None:
    """Why a seated person may not hand ``seat`` to the computer now (None: they
    may)."""
    mark(table, now)
    if table.seat_extra.get(seat, {}).get("hand_over"):
        return None
    name = seat_names(table.seats)[seat]
    left = table.left_at.get(seat)
    if left is None:
        return (f"{name} has not come to the table; only the person who set up this "
                "table can hand their seat to the computer.")
    wait = setting(table, "absent_wait")
    return (f"{name} left {int(now - left)} seconds ago; anyone at the table can hand "
            f"their seat to the computer after {wait} seconds.")


def nudges(table: LiveTable, now: float) -> list[tuple[int | None, str]]:
    """The turn timer: once a person has had their turn for the table's
    ``turn_seconds``, a nudge to them (seat) and a word to the others (None)."""
    limit = setting(table, "turn_seconds")
    game = table.game
    if not limit or game.over or table.waiting or table.paused:
        return []
    actor = game.actor
    if table.turn[0] != table.seq:
        table.turn = (table.seq, now, False)
        return []
    if table.turn[2] or now - table.turn[1] < limit or table.is_bot(actor) \
            or table.seats[actor]["kind"] != "human":
        return []
    table.turn = (table.seq, table.turn[1], True)
    name = seat_names(table.seats)[actor]
    return [(actor, f"Your turn: the others have been waiting {limit} seconds."),
            (None, f"{name} has had the turn for {limit} seconds; they have been "
                   "nudged.")]
