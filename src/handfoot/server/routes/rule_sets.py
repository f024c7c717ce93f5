"""The rule sets: the presets and the house rules saved on this server, each read as
TOML or as the house rules form shows it; house rules checked, saved, listed and
deleted by whoever saved them (the ``owner`` token their browser keeps; only its hash
is stored)."""

from __future__ import annotations

import asyncio
import dataclasses
import unicodedata
from typing import Any

import tomli_w
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from handfoot.rules import PRESET_NAMES, Rules, RulesError, preset
from handfoot.rules.form import form, setting_named, settings_from_form
from handfoot.rules.words import ABOUT, FIRST_GAME, game_minutes
from handfoot.server.live.table import default_level, levels, new_token, offered_levels, token_hash
from handfoot.server.routes.http import ApiError, json_body
from handfoot.server.services import Services, services
from handfoot.server.storage.store import RuleSetTaken, Store

MAX_BODY = 256 * 1024
NOT_THE_OWNER = ("Only the person who saved a rule set, from the browser they saved it in, "
                 "can delete it.")


def rules_named(store: Store, name: str) -> Rules:
    """A preset, or a rule set saved in the database (read there: call it in a thread,
    or use :func:`rules_of`)."""
    if name in PRESET_NAMES:
        return preset(name)
    saved = None if len(name) > 80 or "\x00" in name else store.rule_set(name)
    if saved is None:
        raise ApiError(f"There is no rule set called {name[:80]!r}.", 404)
    return Rules.from_toml(saved[1])


async def rules_of(store: Store, name: str) -> Rules:
    """:func:`rules_named` from the event loop: a saved rule set is read (and its TOML
    read) in a thread, so that the loop never waits for the database."""
    if name in PRESET_NAMES:
        return preset(name)
    return await asyncio.to_thread(rules_named, store, name)


def changes_toml(changes: list[dict[str, Any]]) -> str:
    """The changes as the TOML a club would write: only what differs."""
    out: dict[str, dict[str, Any]] = {}
    for c in changes:
        section, key = c["setting"].split(".", 1)
        out.setdefault(section, {})[key] = c["to"]
    return tomli_w.dumps(out)


def _minutes(rules: Rules, base: str) -> dict[str, int]:
    """About how long a game takes: one person with computer players, and every seat a
    person."""
    return {"minutes_computer": game_minutes(rules, base, 1),
            "minutes_people": game_minutes(rules, base, rules.players.seats)}


async def api_rule_sets(request: Request) -> Response:
    """Every rule set a table may be played with, and the computer players' levels."""
    store = services(request).store
    out = [{"name": n, "title": preset(n).title, "seats": preset(n).players.seats,
            "teams": preset(n).players.teams, "saved": False, "about": ABOUT.get(n, ""),
            "hands": preset(n).game.hands, **_minutes(preset(n), n)} for n in PRESET_NAMES]

    def saved() -> list[dict[str, Any]]:  # (the database read in a thread)
        found = []
        for name, base in store.rule_sets():
            rules = rules_named(store, name)
            found.append({"name": name, "title": f"house rules from {base}",
                          "seats": rules.players.seats, "teams": rules.players.teams,
                          "saved": True, "about": f"Your club's changes to {base}.",
                          "hands": rules.game.hands, **_minutes(rules, base)})
        return found

    out += await asyncio.to_thread(saved)
    return JSONResponse({"rule_sets": out, "first_game": FIRST_GAME, "levels": offered_levels(),
                         "all_levels": levels(), "default_level": default_level()})


async def api_rules(request: Request) -> Response:
    """A rule set as TOML."""
    rules = await rules_of(services(request).store, request.path_params["name"])
    return JSONResponse({"name": rules.name, "toml": rules.to_toml()})


async def api_rules_form(request: Request) -> Response:
    """A rule set as the house rules form shows it: its settings grouped, each with
    its explanation and value."""
    rules = await rules_of(services(request).store, request.path_params["name"])
    return JSONResponse({"name": request.path_params["name"], "groups": form(rules)})


async def api_check_rules(request: Request) -> Response:
    """Check house rules (TOML changes on a base rule set, or the form's changed
    ``settings``) and, with a name, save them. A saved rule set belongs to whoever
    saved it (the ``owner`` token their browser keeps; a new one is given with the
    first save): the same name from anyone else is refused. A refusal names the
    ``setting`` it is about, for the form to show it next to that setting."""
    svc = services(request)
    data = await json_body(request, MAX_BODY)
    base_name = str(data.get("base", ""))
    text, settings, owner = change_fields(data)
    name = data.get("name")
    base = await rules_of(svc.store, base_name)
    try:
        rules = house_rules(text, settings, base)
    except RulesError as e:
        named = setting_named(str(e), list(settings or {}))
        return JSONResponse({"error": f"These rules are refused: {e}",
                             "message": str(e), "setting": named}, status_code=400)
    changes = [{"setting": k, "from": a, "to": b} for k, a, b in rules.changes_from(base)]
    if name is not None:
        name, owner = await save(request, svc, rules, name, base_name, owner or new_token())
    return JSONResponse({"ok": True, "name": name, "base": base_name, "changes": changes,
                         "toml": changes_toml(changes),
                         **({"owner": owner} if name is not None else {})})


def change_fields(data: dict[str, Any]) -> tuple[str, dict[str, Any] | None, str | None]:
    """The house rules' ``toml`` changes, the form's ``settings`` and the ``owner``
    token of a request, each checked for its type."""
    text, settings, owner = data.get("toml", ""), data.get("settings"), data.get("owner")
    if not isinstance(text, str):
        raise ApiError("The changes must be TOML text.")
    if settings is not None and not isinstance(settings, dict):
        raise ApiError("The settings must be an object of setting: value.")
    if owner is not None and (not isinstance(owner, str) or not 0 < len(owner) <= 100):
        raise ApiError("The owner token is not valid.")
    return text, settings, owner


def house_rules(text: str, settings: dict[str, Any] | None, base: Rules) -> Rules:
    """The form's ``settings``, or else the ``text`` of TOML changes, on ``base``; a
    setting refused raises :class:`RulesError`."""
    try:
        return (Rules.from_dict(settings_from_form(settings), base=base)
                if settings is not None else Rules.from_toml(text, base=base))
    except RulesError:
        raise
    except (RecursionError, ValueError, TypeError):
        raise ApiError("These rules are refused: the TOML is nested too deeply or is "
                       "not valid.") from None


#: letters of other scripts drawn like Latin ones (and digits like letters), as compared
LOOK_ALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "с": "c",
    "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԝ": "w", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "0": "o", "1": "l", "|": "l"})


def clean_name(name: str) -> str:
    """A rule set's name as it is kept: NFKC, without invisible or control characters
    (zero-width spaces, direction marks), spaces collapsed.

    >>> clean_name(" Fri\u200bday\u00a0 night ")
    'Friday night'
    """
    kept = "".join(c for c in unicodedata.normalize("NFKC", name)
                   if unicodedata.category(c)[0] != "C" or c in " \t")
    return " ".join(kept.split())


def look(name: str) -> str:
    """What a name looks like: two names that look alike compare equal.

    >>> look("Classic") == look("classіc") == look("ｃｌａｓｓｉｃ") == look("c1assic")
    True
    """
    return clean_name(name).casefold().translate(LOOK_ALIKE)


async def look_alike(store: Store, name: str) -> str | None:
    """Another rule set's name (a preset's or a saved one) that looks like ``name``."""
    mine = look(name)
    saved = [n for n, _ in await asyncio.to_thread(store.rule_sets)]
    return next((n for n in [*PRESET_NAMES, *saved] if n != name and look(n) == mine),
                None)


async def save(request: Request, svc: Services, rules: Rules, name: Any, base_name: str,
               owner: str) -> tuple[str, str]:
    """Save house rules as ``name`` for ``owner`` (the name as saved and the owner
    returned); a name someone else saved is refused."""
    if not isinstance(name, str) or not clean_name(name) or len(clean_name(name)) > 60:
        raise ApiError("Give the rule set a name (at most 60 characters).")
    name = clean_name(name)
    if name in PRESET_NAMES:
        raise ApiError(f"{name!r} is a preset's name; choose another.")
    other = await look_alike(svc.store, name)
    if other is not None:
        raise ApiError(f"{name!r} looks like the rule set {other!r} (the same but for "
                       "capitals, accents or look-alike letters); choose a name that "
                       "is told apart at a glance.", 409)
    rules = dataclasses.replace(rules, name=name)
    exists = await asyncio.to_thread(svc.store.rule_set, name) is not None
    who = "" if exists else svc.limit(request, "rule_sets",
                                      "Too many rule sets were saved from here")
    try:
        await asyncio.to_thread(svc.store.save_rule_set, name, base_name,
                                rules.to_toml(), token_hash(owner))
    except RuleSetTaken:
        if who:
            svc.limits.give_back("rule_sets", who)
        raise ApiError(f"Someone else saved a rule set called {name!r}; choose "
                       "another name.", 409) from None
    return name, owner


async def api_delete_rule_set(request: Request) -> Response:
    """Delete a saved rule set: only whoever saved it (tables keep their rules)."""
    store = services(request).store
    data = await json_body(request, MAX_BODY)
    name, owner = data.get("name"), data.get("owner")
    if not isinstance(name, str) or not 0 < len(name) <= 80:
        raise ApiError("Say which rule set.")
    if not isinstance(owner, str) or not 0 < len(owner) <= 100:
        raise ApiError(NOT_THE_OWNER, 403)
    if await asyncio.to_thread(store.rule_set, name) is None:
        raise ApiError(f"There is no rule set called {name!r}.", 404)
    if not await asyncio.to_thread(store.delete_rule_set, name, token_hash(owner)):
        raise ApiError(NOT_THE_OWNER, 403)
    return JSONResponse({"ok": True, "deleted": name})


async def api_my_rule_sets(request: Request) -> Response:
    """The saved rule sets this browser's owner token saved."""
    store = services(request).store
    owner = (await json_body(request, MAX_BODY)).get("owner")
    if not isinstance(owner, str) or not 0 < len(owner) <= 100:
        return JSONResponse({"names": []})
    h = token_hash(owner)

    def mine() -> list[str]:
        return [n for n, _ in store.rule_sets() if store.rule_set_owner(n) == h]

    return JSONResponse({"names": await asyncio.to_thread(mine)})


routes: list[BaseRoute] = [
    Route("/api/rule-sets", api_rule_sets),
    Route("/api/rules/{name}", api_rules),
    Route("/api/rule-sets/check", api_check_rules, methods=["POST"]),
    Route("/api/rule-sets/delete", api_delete_rule_set, methods=["POST"]),
    Route("/api/rule-sets/mine", api_my_rule_sets, methods=["POST"]),
    Route("/api/rules-form/{name}", api_rules_form),
]
