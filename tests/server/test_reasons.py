"""Why a turn's buttons are greyed: the engine's own refusal of the action each stands
for, given exactly when the engine refuses it, to the player to act alone."""

from __future__ import annotations

import random

from handfoot.actions import AddToMeld, Discard, Draw, GoDown, LayMeld, action_to_json
from handfoot.cards import sorted_from_counts
from handfoot.game import Game
from handfoot.rules import preset
from handfoot.server.live.reasons import SELECT_DISCARD, reasons


def _refused(game: Game, action: object) -> str | None:
    why = game.hand.refusal(action, game.actor)  # type: ignore[arg-type]
    return None if why is None else str(why)


def test_each_reason_is_the_engines_refusal_and_only_when_it_refuses() -> None:
    checked = {"draw": 0, "pile": 0, "lay": 0, "add": 0, "discard": 0, "go-down": 0}
    for rules in ("classic", "texas-good-sam", "alabama-samboree"):
        _check_a_game(Game(preset(rules), seed=3), random.Random(5), checked)
    assert all(checked.values()), checked  # each kind of reason was met and checked


def _check_a_game(game: Game, rng: random.Random, checked: dict[str, int]) -> None:
    for _ in range(400):
        if game.over:
            break
        legal = list(game.legal_actions())
        seat, hand = game.actor, game.hand
        listed = [action_to_json(a) for a in legal]
        kinds = {a["type"] for a in listed}
        held = sorted_from_counts(hand.hands[seat])
        # nobody else is told anything
        assert reasons(game, (seat + 1) % len(game.rules.team_of), (), listed) == {}
        out = reasons(game, seat, (), listed)
        if hand.phase.name == "DRAW":
            assert out.get("draw") == _refused(game, Draw())
            assert ("pile" in out) == ("take-pile" not in kinds)
            checked["draw"] += "draw" in out
            checked["pile"] += "pile" in out
        elif hand.phase.name == "PLAY":
            team = game.rules.team_of[seat]
            if not hand.opened[team] and hand.melds[team]:
                assert out.get("go-down") == _refused(game, GoDown())
                checked["go-down"] += "go-down" in out
            if "discard" in kinds:
                assert out["discard"] == SELECT_DISCARD
            for pick in (held[:1], held[:3], held[-2:]):
                if not pick:
                    continue
                said = reasons(game, seat, pick)
                assert said.get("lay") == _refused(game, LayMeld(pick))
                adds = [AddToMeld(i, pick) for i in range(len(hand.melds[team]))]
                assert ("add" in said) == (not any(game.is_legal(a) for a in adds))
                if len(pick) == 1:
                    assert said.get("discard") == _refused(game, Discard(pick[0]))
                checked["lay"] += "lay" in said
                checked["add"] += "add" in said
                checked["discard"] += "discard" in said
        game.play(rng.choice(legal))
