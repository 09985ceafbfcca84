"""A game's descriptor: the one object naming everything the rest of the package needs.

Each game package exports one :class:`GameDescriptor` as ``GAME``
(``primeval.envs.origin.GAME``); :mod:`primeval.envs.games` lists them and derives the rest
(ids, player counts, encoders, ``env_arguments``). Every tool that treats games alike (the
fingerprint, the picture benchmark, the OpenSpiel bridge, MCTS, the heuristic agents) reads
the descriptor instead of naming a game.

What would load a heavy module (the env, the rules, the view, a picture, the heuristic) is a
dotted path, ``"package.module:Attribute"``, resolved only when asked for (:func:`resolve`),
so that importing a game package stays as light as importing its rules. Small pure
functions (the chance bound, a static score) are given as callables.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: ``GameDescriptor.default_rules``'s rules, by (game, player count).
_DEFAULT_RULES: dict[tuple[str, int], Any] = {}


def resolve(path: str) -> Any:
    """The object a dotted path names: ``"pkg.module:Attr"`` (an attribute of a module) or
    ``"pkg.module"`` (the module).

    Raises:
        ValueError: The path is empty or not of that form.
        ImportError, AttributeError: The module or attribute does not exist.
    """
    if not isinstance(path, str) or not path or path.count(":") > 1:
        raise ValueError(
            f"a dotted path is 'package.module' or 'package.module:Attribute', got {path!r}"
        )
    module, _, attribute = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def _no_chance(rules: Any) -> int:
    return 1


@dataclass(frozen=True)
class GameDescriptor:
    """One game, as the rest of the package sees it.

    Attributes:
        name: The game's name in configs and on the command line (``"origin"``).
        title: The printed name (``"Origin"``).
        version: The env version (``metadata["name"]`` is ``<name>_v<version>``).
        env_module: The PettingZoo-style module with ``env`` and ``raw_env``
            (``"primeval.envs.origin_v0"``).
        rules: Dotted path of the rules class (``GameRules``).
        config: Dotted path of the rules' config class.
        encoders_module: Dotted path of the module whose ``ENCODERS`` maps encoder names to
            encoder classes.
        encoders: The ``obs_encoder`` names, the default first.
        view: Dotted path of the view class (``GameView``).
        player_counts: The player counts the rules support.
        default_players: The player count used when none is given.
        perfect_information: Whether every player sees the whole state (no hands, no
            hidden deck order that matters): OpenSpiel's information type, and whether its
            observer may offer every observation type.
        chance_outcomes: ``f(rules) -> int``: one more than the largest outcome of any
            chance event of the rules (the number of OpenSpiel chance action ids).
        picture: Dotted path of the module drawing the state with matplotlib
            (``to_rgb_array`` and ``to_rgb_array_reference``), or None: no picture.
        picture_argument: ``f(raw_env) -> Any``, what the picture functions take after the
            state (the rules, or their config).
        static_score: ``f(rules, state) -> list[float]``, the scores MCTS judges a cut
            rollout by, or None: ``rules.scores``.
        heuristic: Dotted path of the rule-based agent class (training loads it), or None:
            the game has none (training's "heuristic" opponents are then random players).
        docs: The rules reference page (``"docs/rules/origin.md"``), or None: none (the
            rules-reference tests skip the game, saying so).
        gym_name: The CamelCase name of the Gymnasium id (``primeval/<gym_name>-v<version>``).
        env_options: The env's own keyword arguments in ``env_arguments``, between the
            encoder and the observation forms (``"render_mode, max_steps=5000"``).
        config_note: Words after ``**<Config> fields`` in ``env_arguments``.
        rules_package: The package holding the rules (``"primeval.envs.origin.rules"``):
            the one the purity test imports; None: not checked (named in the skip).
    """

    name: str
    title: str
    version: int
    env_module: str
    rules: str
    config: str
    encoders_module: str
    encoders: tuple[str, ...]
    view: str
    player_counts: tuple[int, ...]
    default_players: int
    perfect_information: bool
    chance_outcomes: Callable[[Any], int] = _no_chance
    picture: str | None = None
    picture_argument: Callable[[Any], Any] | None = None
    static_score: Callable[[Any, Any], list[float]] | None = None
    heuristic: str | None = None
    docs: str | None = None
    gym_name: str = ""
    env_options: str = "render_mode, max_steps, reward_mode"
    config_note: str = ""
    rules_package: str | None = None

    def __post_init__(self) -> None:
        def fail(what: str) -> None:
            raise ValueError(f"game descriptor {self.name!r}: {what}")

        if not isinstance(self.name, str) or not self.name.isidentifier():
            fail("name must be an identifier (a module name)")
        if not isinstance(self.version, int) or isinstance(self.version, bool) or self.version < 0:
            fail(f"version must be an int >= 0, got {self.version!r}")
        if not self.encoders or not all(isinstance(e, str) and e for e in self.encoders):
            fail(f"encoders must be a non-empty tuple of names, got {self.encoders!r}")
        if not self.player_counts or not all(
            isinstance(n, int) and n >= 1 for n in self.player_counts
        ):
            fail(f"player_counts must be positive ints, got {self.player_counts!r}")
        if self.default_players not in self.player_counts:
            fail(
                f"default_players={self.default_players!r} is not one of "
                f"player_counts {self.player_counts}"
            )
        for field in ("env_module", "rules", "config", "encoders_module", "view"):
            if not isinstance(getattr(self, field), str) or not getattr(self, field):
                fail(f"{field} must be a dotted path")
        if (self.picture is None) != (self.picture_argument is None):
            fail("picture and picture_argument go together (both or neither)")
        if not self.gym_name:
            object.__setattr__(self, "gym_name", self.title.replace(" ", ""))

    @property
    def default_encoder(self) -> str:
        """The encoder used when none is given (the first listed)."""
        return self.encoders[0]

    @property
    def config_name(self) -> str:
        """The config class's name (``"OriginConfig"``), without importing it."""
        return self.config.rpartition(":")[2] or self.config.rpartition(".")[2]

    @property
    def env_arguments(self) -> str:
        """The env's keyword arguments, as ``primeval list`` prints them."""
        counts = "|".join(str(n) for n in self.player_counts)
        encoders = "|".join(repr(e) for e in self.encoders)
        note = f" {self.config_note}" if self.config_note else ""
        return (
            f"num_players={self.default_players} ({counts}), obs_encoder={encoders}, "
            f"{self.env_options}, {FORMS}, **{self.config_name} fields{note}"
        )

    @property
    def env_name(self) -> str:
        """The versioned env name, PettingZoo's ``metadata["name"]`` (``"origin_v0"``)."""
        return f"{self.name}_v{self.version}"

    @property
    def module_name(self) -> str:
        """The PettingZoo-style module (``"primeval.envs.origin_v0"``)."""
        return self.env_module

    @property
    def aec_id(self) -> str:
        """The id of ``env()`` in PettingZoo's registry (``"primeval/origin-v0"``)."""
        return f"primeval/{self.name}-v{self.version}"

    @property
    def gym_id(self) -> str:
        """The id of the single-agent view in Gymnasium's registry (``"primeval/Origin-v0"``)."""
        return f"primeval/{self.gym_name}-v{self.version}"

    def module(self) -> Any:
        """The PettingZoo-style module, with ``env`` and ``raw_env``."""
        return importlib.import_module(self.env_module)

    def raw_env(self, num_players: int | None = None, **kwargs: Any) -> Any:
        """The raw AEC env (no safety wrappers), ``default_players`` seats unless given."""
        return self.module().raw_env(num_players=num_players or self.default_players, **kwargs)

    def default_rules(self, num_players: int | None = None) -> Any:
        """The rules of the default config for ``num_players`` (``default_players`` unless
        given): the rules ``raw_env(num_players)`` plays, built once per process and shared
        (a rules object holds no game, only tables and caches that are the same for every
        game), for agents that build their own rules for a state's player count."""
        n = num_players or self.default_players
        rules = _DEFAULT_RULES.get((self.name, n))
        if rules is None:
            rules = _DEFAULT_RULES[self.name, n] = self.raw_env(num_players=n).rules
        return rules

    def env(self, num_players: int | None = None, **kwargs: Any) -> Any:
        """The AEC env with PettingZoo's safety wrappers."""
        return self.module().env(num_players=num_players or self.default_players, **kwargs)

    def load(self, field: str) -> Any:
        """The object the dotted-path field ``field`` names (``load("rules")``).

        Raises:
            ValueError: The field is not a dotted path or is None (the message says which).
        """
        path = getattr(self, field, None)
        if not isinstance(path, str):
            raise ValueError(
                f"game {self.name!r} has no {field}"
                + (" (its descriptor names none)" if path is None else "")
            )
        return resolve(path)


#: The options every env has for other libraries' forms (see ``TurnBasedAECEnv``).
FORMS = (
    "observation_form='dict'|'box', mask_in_info=None|True|False, "
    "info_form='names'|'ids', state_private=False"
)

__all__ = ["FORMS", "GameDescriptor", "resolve"]
