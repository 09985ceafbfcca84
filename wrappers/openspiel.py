"""The games as OpenSpiel games (the optional ``openspiel`` extra).

``import primeval.wrappers.openspiel`` registers one Python game per primeval game with
``pyspiel``; then OpenSpiel loads them by name, and its algorithms and tests take them::

    import pyspiel
    import primeval.wrappers.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_primeval_origin(players=3)")

==============================  ==============================================================
short name                      ``python_primeval_primordial_soup``, ``python_primeval_origin``
parameters                      ``players`` (the game's default count), ``obs_encoder``
                                (``"flat"``; any of the game's encoders), ``max_game_length``
                                (5000 player moves), ``position`` (``""``: the setup; or a
                                position spec as JSON text), and every field of the game's
                                rules config with a bool, int, float or str default
                                (``board_layout``, ``six_allows_stay``, ...; not the
                                ``*_file`` fields nor those defaulting to ``None``)
dynamics, reward model          sequential; terminal rewards
chance mode                     explicit stochastic: every die, draw, pick and shuffle position
                                is a chance node (:class:`~primeval.envs.core.chance.ExplicitChance`)
information                     Primordial Soup perfect (the environment card is drawn from
                                the cards left when it is turned, so no hidden order is in
                                the state); Origin imperfect (hands, deck orders)
utility                         zero-sum: the env's default rank rewards, in [-1, 1]
actions                         ``num_distinct_actions = rules.layout.n``, the env's ids
==============================  ==============================================================

**Rule variants and positions.** A rules config field is a game parameter of its own
name; ``game.rule_parameters()`` lists them with their defaults::

    game = pyspiel.load_game("python_primeval_primordial_soup(board_layout=B)")

A game can start from a built position (``docs/positions.md``) instead of the setup: give
``position`` (the spec as JSON text, in the parameter dict; or :func:`position_parameter`'s
comma-free ``"b64:..."`` form, which also fits a game string and is the form ``str(game)``
shows, so that OpenSpiel's serialization keeps it), or call
``game.new_initial_state_from(spec)`` with a spec (a dict) or a rules state the game's
``build_position`` returned. The state begins at the position's decision, with no player
moves made::

    spec = {"decision": {"kind": "buy", "player": 0}}
    game = pyspiel.load_game("python_primeval_primordial_soup",
                             {"position": json.dumps(spec)})
    state = game.new_initial_state()            # the same as game.new_initial_state_from(spec)

**Chance outcomes.** A chance node's outcome ``k`` (as
:meth:`ExplicitChance.chance_outcomes` lists it) is the OpenSpiel chance action ``k``: a die
is 1..6, a pick or one position of a shuffle the index among the items left.
``max_chance_outcomes`` bounds the largest event: Primordial Soup ``max(7, environment
cards)``; Origin the largest of the innovation tiles, the hand a card is stolen from (at most
all the cards), the decks and the tokens.

**Observations.** ``observation_tensor(p)`` is the game's observation encoder for seat
``p`` (``encoder.encode(state, p)``, the env's ``observe`` without the mask), in the
encoder's shape; ``observation_string(p)`` is the view's text for ``p``, which shows ``p``
nothing ``p`` may not see. The **information state is the same observation**: it has no
memory of past moves (not perfect recall), so it is no information set for tabular
algorithms such as CFR over Origin. At a chance node both show the state before the
transition the node interrupts (zeros and a one-line string during the setup, when there is
no state yet).

**Length.** ``max_game_length`` player moves truncate a game (random games take 150-400);
a truncated game ends with returns 0 for everyone, as the env's truncation gives no final
reward.

Search bots such as OpenSpiel's ``MCTSBot`` branch on the true state, so over Origin they
search as if they saw every hand and the deck order (not an information-set search). The
rules state under an OpenSpiel state is never changed, so clones share it and
``state.clone()`` is cheap.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import importlib
import json
from typing import Any

import numpy as np
import pyspiel

from primeval.envs.core.chance import ChanceNode, ExplicitChance
from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import GAMES, get_game

__all__ = [
    "DEFAULT_MAX_GAME_LENGTH",
    "GAME_CLASSES",
    "GAME_NAMES",
    "PrimevalGame",
    "PrimevalObserver",
    "PrimevalState",
    "game_class",
    "game_type",
    "load_game",
    "max_chance_outcomes",
    "position_parameter",
    "read_position_parameter",
    "rule_parameters",
]

DEFAULT_MAX_GAME_LENGTH = 5000
"""Player moves before a game is truncated (the Origin env's ``max_steps``)."""

GAME_NAMES: dict[str, str] = {}
"""primeval game name -> OpenSpiel short name (``python_primeval_<name>``), for every game
registered with pyspiel."""


def max_chance_outcomes(game: str, rules: Any) -> int:
    """The number of chance action ids the game needs: one more than the largest outcome of
    any chance event of its rules (its descriptor's ``chance_outcomes``; checked at run
    time: a larger outcome raises)."""
    return int(get_game(game).chance_outcomes(rules))


def rule_parameters(game: str) -> dict[str, bool | int | float | str]:
    """The rules config fields of ``game`` that are OpenSpiel parameters, with their
    defaults: those whose default is a bool, int, float or str, except ``num_players`` (the
    ``players`` parameter) and the ``*_file`` fields (a game string never chooses files to
    open; build the env with your own files instead)."""
    config = get_game(game).load("config")
    out: dict[str, bool | int | float | str] = {}
    for field in dataclasses.fields(config):
        default = field.default
        if (field.name == "num_players" or field.name.endswith("_file")
                or not isinstance(default, bool | int | float | str)):
            continue
        out[field.name] = default
    return out


_B64 = "b64:"


def position_parameter(spec: Any) -> str:
    """The ``position`` parameter for a position spec, in a form a game string can hold:
    ``"b64:"`` and the spec's JSON in URL-safe base64 without padding (no commas,
    parentheses or ``=``), so that ``str(game)`` and OpenSpiel's serialization keep it.
    A game given the spec's JSON text stores it in this form too."""
    text = json.dumps(spec, separators=(",", ":"), sort_keys=True)
    return _B64 + base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode()


def read_position_parameter(text: str) -> Any:
    """The position spec a ``position`` parameter holds: JSON text, or
    :func:`position_parameter`'s ``"b64:..."`` form.

    Raises:
        ValueError: Neither (the message says which reading failed).
    """
    if text.startswith(_B64):
        body = text[len(_B64):]
        try:
            text = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_",
                                    validate=True).decode()
        except (ValueError, UnicodeDecodeError) as exc:
            raise ValueError(f"the position parameter is not base64 of JSON text: {exc}"
                             ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the position parameter is not JSON text: {exc}") from None


def _position_module(game: str) -> Any:
    """The game's ``position`` module (``build_position``), beside its rules package."""
    package = get_game(game).rules_package
    if package is None:
        raise ValueError(f"{game}: the game names no rules package, so no position module")
    try:
        return importlib.import_module(f"{package.rpartition('.')[0]}.position")
    except ModuleNotFoundError:
        raise ValueError(f"{game}: the game has no position module, so it cannot start from "
                         "a position") from None


def game_type(game: str) -> pyspiel.GameType:
    """The :class:`pyspiel.GameType` of the primeval game ``game`` (its registered type)."""
    spec = get_game(game)
    perfect = spec.perfect_information
    return pyspiel.GameType(
        short_name=f"python_primeval_{game}",
        long_name=f"Python primeval {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.player_counts),
        min_num_players=min(spec.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"players": spec.default_players,
                                 "obs_encoder": spec.encoders[0],
                                 "max_game_length": DEFAULT_MAX_GAME_LENGTH,
                                 "position": "",
                                 **rule_parameters(game)},
    )


class _Core:
    """What every state of one game shares: rules, explicit chance, encoder, view, the setup's
    first chance node. Never copied (``deepcopy`` returns it, as ``clone`` deep-copies a
    state's attributes); pickled by its parameters."""

    def __init__(self, game: str, players: int, obs_encoder: str, max_game_length: int,
                 rules_options: tuple[tuple[str, Any], ...] = (), position: str = ""):
        spec = get_game(game)
        if players not in spec.player_counts:
            raise ValueError(f"{game}: players={players} is not a player count of the game; "
                             f"allowed: {list(spec.player_counts)}")
        if max_game_length <= 0:
            raise ValueError(f"max_game_length must be positive, got {max_game_length}")
        env = spec.raw_env(num_players=players, obs_encoder=obs_encoder, **dict(rules_options))
        self.key = (game, players, obs_encoder, max_game_length, rules_options, position)
        self.game = game
        self.rules = env.rules
        self.encoder = env.obs_encoder
        self.view = env.view
        self.chance = ExplicitChance(self.rules)
        self.max_game_length = max_game_length
        self.max_chance_outcomes = max_chance_outcomes(game, self.rules)
        self.shape = tuple(self.encoder.space().shape)
        if position:
            self.initial = _Node(self.build(read_position_parameter(position)))
        else:
            self.initial = _Node(self.chance.initial_state())

    def build(self, spec: Any) -> Any:
        """The rules state of a position spec (the game's ``build_position``) or, given a
        rules state, that state checked to be one of this game's."""
        if isinstance(spec, dict):
            return _position_module(self.game).build_position(self.rules, spec)
        from primeval.envs.core.position import check_position

        state_class = type(self.rules.initial_state(np.random.default_rng(0)))
        if type(spec) is not state_class:
            raise TypeError(f"{self.game}: a position is a spec (dict) or a "
                            f"{state_class.__name__}, got {type(spec).__name__}")
        if not self.rules.is_terminal(spec):
            check_position(self.rules, spec)
        return spec.copy()

    def __deepcopy__(self, memo: dict) -> _Core:
        return self

    def __reduce__(self):
        return _core, self.key


# Bounded (SECURITY.md, "Memory"): one entry per (game, players, encoder, length) in use.
@functools.lru_cache(maxsize=64)
def _core(game: str, players: int, obs_encoder: str, max_game_length: int,
          rules_options: tuple[tuple[str, Any], ...] = (), position: str = "") -> _Core:
    return _Core(game, players, obs_encoder, max_game_length, rules_options, position)


class _Node:
    """A rules state or :class:`ChanceNode` (never changed) with its legal actions, computed
    once. Shared, not copied, by clones."""

    __slots__ = ("value", "_legal")

    def __init__(self, value: Any) -> None:
        self.value = value
        self._legal: list[int] | None = None

    def __deepcopy__(self, memo: dict) -> _Node:
        return self

    def __getstate__(self):
        return self.value

    def __setstate__(self, value) -> None:
        self.value, self._legal = value, None

    def legal(self, rules: Any) -> list[int]:
        if self._legal is None:
            self._legal = np.flatnonzero(rules.legal_mask(self.value)).tolist()
        return self._legal


class PrimevalGame(pyspiel.Game):
    """A primeval game for OpenSpiel (see the module docstring); one subclass per game,
    :func:`game_class` (``PrimordialSoupGame``, ``OriginGame``), is registered.

    Args:
        params: OpenSpiel parameters: ``players``, ``obs_encoder``, ``max_game_length``,
            ``position`` and the rules config's (:func:`rule_parameters`); missing ones
            take their defaults.

    Raises:
        ValueError: An unknown parameter (named, with the known ones), a bad value or a
            position that cannot be built (the rules' and the position builder's errors).

    Attributes:
        game: The primeval game name (``"origin"``).
    """

    game: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.game
        gtype = game_type(game)
        defaults = gtype.parameter_specification
        unknown = sorted(set(params or {}) - set(defaults))
        if unknown:
            raise ValueError(f"{game}: unknown parameter(s) {unknown}; known: "
                             f"{sorted(defaults)}")
        params = {**defaults, **(params or {})}
        if params["position"] and not str(params["position"]).startswith(_B64):
            params["position"] = position_parameter(read_position_parameter(
                str(params["position"])))  # a game string can hold it
        rules_options = tuple(sorted(
            (key, _typed(key, params[key], default)) for key, default in
            rule_parameters(game).items() if params[key] != default))
        self._core = _core(game, int(params["players"]), str(params["obs_encoder"]),
                           int(params["max_game_length"]), rules_options,
                           str(params["position"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self._core.rules.layout.n,
            max_chance_outcomes=self._core.max_chance_outcomes,
            num_players=int(params["players"]),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self._core.max_game_length,
        )
        super().__init__(gtype, info, params)

    def new_initial_state(self) -> PrimevalState:
        """The setup's first chance node, or the ``position`` parameter's position."""
        return PrimevalState(self)

    def new_initial_state_from(self, spec: Any) -> PrimevalState:
        """A state at a built position: ``spec`` is a position spec (a dict, as
        ``docs/positions.md`` writes it) or a rules state (``build_position``'s, or an env's
        ``game_state``) of this game and its config. No player moves are counted.

        Raises:
            PositionError: The spec cannot be built (it names the entry).
            TypeError: ``spec`` is neither a dict nor a state of this game.
        """
        state = PrimevalState(self)
        state._node = _Node(self._core.build(spec))
        return state

    def rule_parameters(self) -> dict[str, Any]:
        """This game's rules config parameters and their values (:func:`rule_parameters`)."""
        params = self.get_parameters()
        return {key: params[key] for key in rule_parameters(self.game)}

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> PrimevalObserver:
        """The observer of both the observation and the information state (the same)."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel calls f(params) without a type
            iig_obs_type, params = None, iig_obs_type
        return PrimevalObserver(self._core, iig_obs_type, params)


def _typed(key: str, value: Any, default: Any) -> Any:
    """A rules parameter's value, of its default's type (OpenSpiel's game strings give ints
    for floats such as ``1``); a value of another type is refused, naming the parameter."""
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value
    else:
        ok = isinstance(value, str)
    if not ok:
        raise ValueError(f"parameter {key} must be a {type(default).__name__} like its "
                         f"default {default!r}, got {type(value).__name__} {value!r}")
    return value


class PrimevalState(pyspiel.State):
    """A position: a rules state or a chance node, and the player moves made so far."""

    def __init__(self, game: PrimevalGame) -> None:
        super().__init__(game)
        self._core = game._core
        self._node = self._core.initial
        self._moves = 0

    # what the primeval side sees

    @property
    def rules_state(self) -> Any:
        """The rules state: a player's position, or at a chance node the state before the
        transition it interrupts (``None`` during the setup)."""
        value = self._node.value
        return value.state if isinstance(value, ChanceNode) else value

    @property
    def chance_node(self) -> ChanceNode | None:
        """The :class:`ChanceNode` when chance moves next, else ``None``."""
        value = self._node.value
        return value if isinstance(value, ChanceNode) else None

    # OpenSpiel's State API

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if isinstance(self._node.value, ChanceNode):
            return pyspiel.PlayerId.CHANCE
        return self._core.rules.current_player(self._node.value)

    def _legal_actions(self, player: int) -> list[int]:
        return self._node.legal(self._core.rules)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node.value
        outcomes = self._core.chance.chance_outcomes(node)
        top = max(o for o, _ in outcomes)
        if top >= self._core.max_chance_outcomes:
            raise RuntimeError(f"{self._core.game}: chance event {node.event.label!r} has "
                               f"outcome {top}, beyond max_chance_outcomes="
                               f"{self._core.max_chance_outcomes}")
        return sorted(outcomes)

    def _apply_action(self, action: int) -> None:
        chance, value = self._core.chance, self._node.value
        if isinstance(value, ChanceNode):
            self._node = _Node(chance.apply_chance(value, int(action)))
        else:
            self._node = _Node(chance.apply(value, int(action)))
            self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        value = self._node.value
        if player == pyspiel.PlayerId.CHANCE:
            if isinstance(value, ChanceNode):
                return f"{value.event.label}: {action}"
            return f"chance outcome {action}"
        return self._core.view.action_name(self.rules_state, int(action), viewer=player)

    def is_terminal(self) -> bool:
        value = self._node.value
        if isinstance(value, ChanceNode):
            return self._moves >= self._core.max_game_length
        return self._core.rules.is_terminal(value) or self._moves >= self._core.max_game_length

    def returns(self) -> list[float]:
        value = self._node.value
        if isinstance(value, ChanceNode) or not self._core.rules.is_terminal(value):
            return [0.0] * self._core.rules.num_players  # in play, or truncated
        return [float(r) for r in rank_rewards(self._core.rules.scores(value))]

    def __str__(self) -> str:
        value, view = self._node.value, self._core.view
        if not isinstance(value, ChanceNode):
            return view.to_text(value)
        pending = (f"Chance: {value.event.label} "
                   f"({len(value.event.outcomes)} outcomes; after {len(value.outcomes)} "
                   f"fixed, action {value.action})")
        if value.state is None:
            return f"Setup. {pending}"
        return f"{view.to_text(value.state)}\n{pending}"


class PrimevalObserver:
    """OpenSpiel's Python observer interface over the game's observation encoder.

    ``tensor`` is the flat float32 observation, ``dict["observation"]`` the same memory in the
    encoder's shape. Every observation type gives the same encoding: the observer's own
    public and private view, without memory (see the module docstring); Origin refuses
    types asking for everyone's private information or none.
    """

    def __init__(self, core: _Core, iig_obs_type: Any = None,
                 params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if (iig_obs_type is not None and not get_game(core.game).perfect_information
                and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{core.game}: the encoders show one player's private "
                             f"information; {iig_obs_type.private_info} is not offered")
        self._core = core
        self.tensor = np.zeros(int(np.prod(core.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(core.shape)}

    def set_from(self, state: PrimevalState, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` sees it."""
        rules_state = state.rules_state
        if rules_state is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = np.asarray(self._core.encoder.encode(rules_state, player),
                                        np.float32).reshape(-1)

    def string_from(self, state: PrimevalState, player: int) -> str:
        """The view's text of ``state`` for ``player``."""
        rules_state = state.rules_state
        if rules_state is None:
            return "Setup (chance moves)"
        return self._core.view.to_text(rules_state, viewer=player)


GAME_CLASSES: dict[str, type[PrimevalGame]] = {}
"""primeval game name -> its registered :class:`PrimevalGame` subclass."""


def game_class(game: str) -> type[PrimevalGame]:
    """The :class:`PrimevalGame` subclass of the catalogue game ``game``
    (``OriginGame``, a module attribute), made and registered with pyspiel on first use: the
    catalogue's games at import, a game added later (``games.register``) when it is loaded.

    Raises:
        ValueError: No game has that name.
    """
    if game in GAME_CLASSES:
        return GAME_CLASSES[game]
    spec = get_game(game)
    # A class, not a closure or partial: pyspiel keeps the factory until the process ends,
    # and releasing anything else at exit aborts the interpreter. A module attribute, so
    # that it pickles by name.
    cls = type(f"{spec.gym_name}Game", (PrimevalGame,),
               {"game": game, "__module__": __name__,
                "__doc__": f"{spec.title}, ``python_primeval_{game}``."})
    globals()[cls.__name__] = cls
    if f"python_primeval_{game}" not in set(pyspiel.registered_names()):
        pyspiel.register_game(game_type(game), cls)
    GAME_CLASSES[game] = cls
    GAME_NAMES[game] = f"python_primeval_{game}"
    return cls


def _register() -> None:
    for game in GAMES:
        game_class(game)


def load_game(game: str, players: int | None = None, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` of the primeval game ``game`` (``"origin"``) with ``players``
    seats (the game's default if ``None``) and further parameters (``obs_encoder``,
    ``max_game_length``, ``position`` as JSON text, rules config fields such as
    ``board_layout``)."""
    spec = get_game(game)
    game_class(game)
    return pyspiel.load_game(GAME_NAMES[game],
                             {"players": players or spec.default_players, **params})


_register()
