"""House rules as a form: every setting described and grouped, the form's answers
checked by the engine (a refusal names its setting), a setting written outside its
section told where it belongs, and saved rule sets deleted by whoever saved them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from handfoot.rules import CHOICES, PRESET_NAMES, Rules, RulesError, preset
from handfoot.rules.form import (
    DESCRIPTIONS,
    GROUPS,
    described_everywhere,
    form,
    setting_named,
    settings_from_form,
)
from handfoot.server.testing import ServerProcess

pytestmark = pytest.mark.served  # (left out of the pure-Python pass: see test.sh)


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(db_url, bot_delay=0.0) as s:
        yield s


def test_every_setting_of_the_rules_is_in_the_form_once() -> None:
    assert described_everywhere() == []
    groups = form(preset("samba"))
    assert [g["group"] for g in groups] == [g for g, _ in GROUPS]
    shown = [s["setting"] for g in groups for s in g["settings"]]
    assert sorted(shown) == sorted(DESCRIPTIONS) and len(set(shown)) == len(shown)
    assert all(g["settings"] for g in groups)  # no empty group


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_form_shows_each_presets_values_and_gives_them_back(name: str) -> None:
    rules = preset(name)
    answers = {s["setting"]: s["value"] for g in form(rules) for s in g["settings"]}
    back = Rules.from_dict(settings_from_form(answers), base=Rules())
    assert back.changes_from(rules) == [] and back.to_toml() != Rules().to_toml()


def test_the_choices_offered_are_the_ones_the_engine_takes() -> None:
    for where, words in CHOICES.items():
        section, key = where.split(".")
        base = Rules()
        for word in words:  # each accepted alone or with what it needs (refused naming it)
            value = [word] if isinstance(getattr(getattr(base, section), key), tuple) else word
            try:
                Rules.from_dict({section: {key: value}}, base=base)
            except RulesError as e:
                assert "needs" in str(e), (where, word, e)
        with pytest.raises(RulesError, match=where.replace(".", r"\.")):
            Rules.from_dict({section: {key: ["nonsense"] if isinstance(
                getattr(getattr(base, section), key), tuple) else "nonsense"}}, base=base)


def test_a_setting_outside_its_section_is_told_where_it_belongs() -> None:
    with pytest.raises(RulesError) as e:
        Rules.from_toml("going_out = 500\n", base=preset("classic"))
    assert "belongs in [scores]" in str(e.value) and "going_out = 500" in str(e.value)
    with pytest.raises(RulesError, match=r"hand_size belongs in \[deal\]"):
        Rules.from_toml("hand_size = 13\n")
    with pytest.raises(RulesError, match=r"deal\.going_out.*belongs in \[scores\]"):
        Rules.from_toml("[deal]\ngoing_out = 500\n")
    with pytest.raises(RulesError, match="the sections are"):
        Rules.from_toml("nonsense = 1\n")


def test_list_answers_and_the_setting_a_refusal_names() -> None:
    assert settings_from_form({"opening.by_score": "[0, 50], [1500, 90]"}) == {
        "opening": {"by_score": [[0, 50], [1500, 90]]}}
    assert settings_from_form({"turn.draw_by_hand": "[2, 3]"}) == {
        "turn": {"draw_by_hand": [2, 3]}}
    for bad in ("50; 90", "50,\n90", "[[1"):
        with pytest.raises(RulesError, match=r"opening\.minimums"):
            settings_from_form({"opening.minimums": bad})
    with pytest.raises(RulesError, match="unknown setting"):
        settings_from_form({"scores.nonsense": 1})
    msg = "pile.take_min = 7 is more than pile.take_max = 5"
    assert setting_named(msg, ["pile.take_max"]) == "pile.take_max"
    assert setting_named(msg, []) == "pile.take_min"
    assert setting_named("a rule set must be a table of settings", []) is None


def test_the_form_is_checked_by_the_engine_and_saved_sets_deleted_by_their_owner(
        server: ServerProcess) -> None:
    groups = server.get("/api/rules-form/classic")["groups"]
    going_out = next(s for g in groups for s in g["settings"]
                     if s["setting"] == "scores.going_out")
    assert going_out["value"] == going_out["preset"] == 100 and going_out["help"]
    ok = server.post("/api/rule-sets/check", {"base": "classic", "settings": {
        "scores.going_out": 500, "opening.minimums": "60, 90"}})
    assert [c["setting"] for c in ok["changes"]] == ["opening.minimums", "scores.going_out"]
    assert "[scores]\ngoing_out = 500" in ok["toml"]
    assert Rules.from_toml(ok["toml"], base=preset("classic")).opening.minimums == (60, 90)
    # what the TOML says is what the form said
    again = server.post("/api/rule-sets/check", {"base": "classic", "toml": ok["toml"]})
    assert again["changes"] == ok["changes"]
    for settings, named in (({"scores.going_out": "lots"}, "scores.going_out"),
                            ({"pile.take_min": 9, "pile.take_max": 5}, "pile.take_min"),
                            ({"deal.upcard_turn_back": ["wild"]}, "deal.upcard_turn_back"),
                            ({"nonsense.x": 1}, None)):
        status, err = server.request("POST", "/api/rule-sets/check",
                                     {"base": "classic", "settings": settings})
        assert status == 400 and err["setting"] == named, (settings, err)
        assert err["error"].startswith("These rules are refused")
    status, err = server.request("POST", "/api/rule-sets/check",
                                 {"base": "classic", "toml": "going_out = 500"})
    assert status == 400 and "belongs in [scores]" in err["error"]
    # saved, listed as this browser's own, deleted only by its owner
    saved = server.post("/api/rule-sets/check", {"base": "classic", "name": "Our club",
                                                 "settings": {"scores.going_out": 500}})
    owner = saved["owner"]
    assert server.post("/api/rule-sets/mine", {"owner": owner})["names"] == ["Our club"]
    assert server.post("/api/rule-sets/mine", {"owner": "someone"})["names"] == []
    for body in ({"name": "Our club"}, {"name": "Our club", "owner": "someone"}):
        status, err = server.request("POST", "/api/rule-sets/delete", body)
        assert status == 403 and "saved it" in err["error"]
    status, _ = server.request("POST", "/api/rule-sets/delete",
                               {"name": "classic", "owner": owner})
    assert status == 404
    table = server.post("/api/tables", {"rules": "Our club", "seats": [{"kind": "bot"}] * 4})
    server.post("/api/rule-sets/delete", {"name": "Our club", "owner": owner})
    assert "Our club" not in [r["name"] for r in server.get("/api/rule-sets")["rule_sets"]]
    # the table set up with it keeps its rules
    assert server.get(f"/api/tables/{table['id']}")["rules"] == "Our club"
