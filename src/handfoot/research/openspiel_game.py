"""Hand and Foot as an OpenSpiel game, registered from Python as ``python_handfoot``.

>>> import pyspiel
>>> import handfoot.research.openspiel_game  # registers the game
>>> game = pyspiel.load_game("python_handfoot", {"variant": "classic", "max_hands": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1000)

Parameters: ``variant`` (a preset's name, default ``classic``), ``rules`` (a rule set's
TOML, house rules; overrides ``variant``), ``max_hands`` (stop after that many hands,
0 for the whole game), ``deals`` (how many deals a deal's chance node chooses among,
default 1000), ``shuffles`` (how many orders a reshuffle's chance node chooses among,
default 100) and ``seed`` (which deals and orders those are).

Chance: each hand starts with a chance node whose outcome ``i`` (uniform over
``deals``) picks the deal the engine shuffles from a generator seeded by
(``seed``, hand number, ``i``); when a player's move would make the engine shuffle the
pile into a new stock, a chance node comes first, whose outcome (uniform over
``shuffles``) seeds that shuffle. A state is thus fixed by its history (serialisation
is the history), and everything that happens in between is the engine's.

Actions are :class:`~handfoot.research.encoding.MoveCodec` numbers
(``num_distinct_actions = codec.size``); the legal ones are the numbers of the moves the
engine lists (:meth:`~handfoot.game.Game.legal_actions`). Returns, at the end, are each
team's final total minus the mean of the other teams' (:func:`hand_rewards`), the
same for its seats; the game is zero-sum. With ``max_hands`` the totals are those after
that many hands.

Observation and information-state tensors are the vector of the seat's view
(:mod:`handfoot.research.observation`); the information-state string adds the hand's
public history (every action is public; draws show no card) to the seat's own cards, so
two states a seat cannot tell apart have the same string.
:meth:`HandAndFootState.resample_from_infostate` deals the cards a seat cannot see at
random, consistently with its view (for information-set MCTS).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pyspiel

from handfoot.actions import Action
from handfoot.bots.expert import sample_world
from handfoot.cards import format_cards
from handfoot.game import Game
from handfoot.game.views import seat_view
from handfoot.research.encoding import MoveCodec
from handfoot.research.observation import hand_rewards, observation_size, observation_vector
from handfoot.rules import Rules, load_rules

SHORT_NAME = "python_handfoot"
_DEFAULTS: dict[str, Any] = {"variant": "classic", "rules": "", "max_hands": 0,
                             "deals": 1000, "shuffles": 100, "seed": 0}
_MAX_UTILITY = 1_000_000.0
_MAX_LENGTH = 100_000

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Hand and Foot (handfoot)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _mix(*parts: int) -> int:
    """One seed from several numbers (stable across processes, unlike ``hash``)."""
    out = 0x9E3779B97F4A7C15
    for p in parts:
        out = (out * 6364136223846793005 + p + 1442695040888963407) % (1 << 64)
    return out


def rules_param(rules: Rules) -> str:
    """A rule set as the ``rules`` parameter: its TOML in hexadecimal (OpenSpiel's
    parameter strings may not hold commas, newlines or quotes)."""
    return rules.to_toml().encode("utf-8").hex()


def rules_of(params: dict[str, Any]) -> Rules:
    text = str(params.get("rules") or "")
    if text.strip():
        return load_rules(bytes.fromhex(text).decode("utf-8"))
    return load_rules(str(params.get("variant") or "classic"))


class Config:
    """What a game's parameters fix: the rules, the move codec and the chance sizes.
    Shared by every state of a game (and found again by its parameters when a state is
    unpickled, as OpenSpiel does to copy and to deserialise one)."""

    def __init__(self, params: dict[str, Any]) -> None:
        merged = {**_DEFAULTS, **params}
        self.params = merged
        self.rules = rules_of(merged)
        self.codec = MoveCodec(self.rules)
        self.max_hands = int(merged["max_hands"])
        self.deals = int(merged["deals"])
        self.shuffles = int(merged["shuffles"])
        self.seed = int(merged["seed"])
        self.obs_size = observation_size(self.rules)
        self.deal_outcomes = [(i, 1.0 / self.deals) for i in range(self.deals)]
        self.shuffle_outcomes = [(i, 1.0 / self.shuffles) for i in range(self.shuffles)]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (config_of, (tuple(sorted(self.params.items())),))


_CONFIGS: dict[tuple[tuple[str, Any], ...], Config] = {}


def config_of(params: tuple[tuple[str, Any], ...] | dict[str, Any]) -> Config:
    items = tuple(sorted({**_DEFAULTS, **dict(params)}.items()))
    cfg = _CONFIGS.get(items)
    if cfg is None:
        cfg = _CONFIGS[items] = Config(dict(items))
    return cfg


class HandAndFootGame(pyspiel.Game):  # type: ignore[misc]
    """Hand and Foot under one rule set."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cfg = config_of(params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.codec.size,
            max_chance_outcomes=max(cfg.deals, cfg.shuffles),
            num_players=cfg.rules.players.seats,
            min_utility=-_MAX_UTILITY,
            max_utility=_MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=_MAX_LENGTH)
        super().__init__(GAME_TYPE, info, cfg.params)
        self.cfg = cfg

    def new_initial_state(self) -> HandAndFootState:
        return HandAndFootState(self, self.cfg)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> HandAndFootObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return HandAndFootObserver(self.cfg, perfect_recall)


class Table:
    """The engine's game in a box that OpenSpiel's copies (a deep copy of the state)
    copy with the engine's own clone, much faster than a generic deep copy."""

    def __init__(self, game: Game | None = None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        src = self.game
        if src is None:
            return Table()
        t = copy.copy(src)
        t.rng = random.Random()
        t.rng.setstate(src.rng.getstate())
        t.hand = src.hand.clone()
        t.hand.rng = random.Random()
        t.hand.rng.setstate(src.hand.rng.getstate())
        t.results = list(src.results)
        t.totals = list(src.totals)
        t.winners = list(src.winners)
        return Table(t)


class HandAndFootState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's :class:`~handfoot.game.Game`, and what chance
    decides next (a deal, or the shuffle of a move that makes one)."""

    def __init__(self, game: HandAndFootGame, cfg: Config | None = None) -> None:
        super().__init__(game)
        self.hf = cfg if cfg is not None else config_of(game.get_parameters())
        self.box = Table()
        self.need_deal = True  #: a deal's chance node
        self.pending: Action | None = None  #: a move waiting for its shuffle's chance node

    @property
    def table(self) -> Game:
        game = self.box.game
        if game is None:
            raise ValueError("nothing is dealt yet: the state is the first chance node")
        return game

    # ----------------------------------------------------------------- turn
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.need_deal or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.table.actor)

    def is_terminal(self) -> bool:
        if self.box.game is None:
            return False
        return self.table.over or (0 < self.hf.max_hands <= len(self.table.results))

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        table = self.table
        top = table.hand.pile_top
        encode = self.hf.codec.encode
        return sorted({encode(a, top) for a in table.legal_actions()})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.hf.deal_outcomes if self.need_deal else self.hf.shuffle_outcomes

    def _apply_action(self, action: int) -> None:
        if self.box.game is None:
            self.box.game = Game(self.hf.rules, _mix(self.hf.seed, 1, action))
            self.need_deal = False
            return
        table = self.table
        if self.need_deal:
            number = len(table.results) + 1
            table.rng = random.Random(_mix(self.hf.seed, number, action))
            table.hand = table._new_hand()
            self.need_deal = False
            return
        if self.pending is not None:
            move, self.pending = self.pending, None
            hand = table.hand
            hand.rng = random.Random(_mix(self.hf.seed, hand.hand_number, len(hand.shuffles),
                                          action))
            self._push(move)
            return
        move = self.hf.codec.decode(action, table.hand)
        table.verify(move)
        if self._shuffles(move):
            self.pending = move
            return
        self._push(move)

    def _shuffles(self, move: Action) -> bool:
        """Would the engine shuffle the pile into a new stock while carrying out
        ``move``? Asked only when the stock is nearly gone (a clone tries it)."""
        hand = self.table.hand
        if len(hand.stock) > 2 * hand.draw_count + 8 or not hand._can_reshuffle():
            return False
        trial = hand.clone()
        trial.rng = random.Random(0)
        trial.push(move)
        return len(trial.shuffles) > len(hand.shuffles)

    def _push(self, move: Action) -> None:
        table = self.table
        before = len(table.results)
        table.push(move)
        if len(table.results) > before and not self.is_terminal():
            self.need_deal = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self.need_deal else 'shuffle'} {action}"
        return self.hf.codec.decode(action, self.table.hand).notation()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.hf.rules.players.seats
        return hand_rewards(self.hf.rules, self.table.totals)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one: every card it cannot see dealt
        at random (:func:`handfoot.bots.expert.sample_world`), the rest as it is."""
        seed = int(float(probability_sampler()) * (1 << 62))
        rng = random.Random(seed)
        other = self.clone()
        if self.need_deal or self.pending is not None or self.is_terminal():
            return other
        world = None
        for _ in range(20):
            world = sample_world(seat_view(self.table, player_id), self.hf.rules, rng)
            if world is not None:
                break
        if world is None:
            return other
        world.history = list(self.table.hand.history)  # public: every action is seen
        other.table.hand = world
        return other

    def info_string(self, player: int, perfect_recall: bool) -> str:
        if self.box.game is None:
            return f"p{player} before the deal"
        view = seat_view(self.table, player)
        head = (f"p{player} hand {view.hand_number} {view.phase} actor {view.actor} "
                f"held {format_cards(view.hand)} pile {view.pile_size} stock "
                f"{view.stock_size} totals {list(view.totals)}")
        if self.need_deal or self.pending is not None:
            head += " chance"
        if perfect_recall:
            past = ";".join(f"{s}:{a.notation()}" for s, a in view.history)
            return f"{head} | {past} | {view.hand_scores}"
        melds = [[format_cards(m.cards) for m in t.melds] for t in view.teams]
        top = "-" if view.pile_top is None else format_cards([view.pile_top])
        return f"{head} top {top} melds {melds}"

    def __str__(self) -> str:
        if self.box.game is None:
            return "before the deal"
        hand = self.table.hand
        return (f"hand {hand.hand_number}, seat {hand.actor} to act, stock {len(hand.stock)}, "
                f"pile {len(hand.pile)}, totals {self.table.totals}, "
                f"{len(hand.history)} actions")


class HandAndFootObserver:
    """OpenSpiel's observer for a seat: the view's vector as ``tensor`` (and
    ``dict["observation"]``), and a string."""

    def __init__(self, cfg: Config, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(cfg.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HandAndFootState, player: int) -> None:
        if state.box.game is None:
            self.tensor.fill(0)
            return
        observation_vector(seat_view(state.table, player), self.tensor)

    def string_from(self, state: HandAndFootState, player: int) -> str:
        return state.info_string(player, self.perfect_recall)


pyspiel.register_game(GAME_TYPE, HandAndFootGame)
