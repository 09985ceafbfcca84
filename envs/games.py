"""The catalogue of games: the one place that lists them.

Every tool that offers a choice of game (the CLI, the training config, tournaments, the
benchmark, golden transcripts, registration) reads :data:`GAMES`. Adding a game means one
:class:`Game` entry here plus the game's own folder (rules, encoders, view, ``env.py``) and
its ``<name>_v<version>.py`` module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Game:
    """One game of the package.

    Attributes:
        name: The game's name in configs and on the command line (``"origin"``).
        title: The game's printed name (``"Origin"``).
        version: The env version; the PettingZoo-style module is ``primeval.envs.<name>_v<version>``.
        player_counts: The player counts the rules support.
        default_players: The player count used when none is given.
        encoders: The ``obs_encoder`` names, the default first (a test checks them against
            the game's ``ENCODERS``).
        gym_name: The CamelCase name of the single-agent Gymnasium id
            (``primeval/<gym_name>-v<version>``).
        env_arguments: The env's keyword arguments, as listed by ``primeval list``.
    """

    name: str
    title: str
    version: int
    player_counts: tuple[int, ...]
    default_players: int
    encoders: tuple[str, ...]
    gym_name: str
    env_arguments: str

    @property
    def env_name(self) -> str:
        """The versioned env name, PettingZoo's ``metadata["name"]`` (``"origin_v0"``)."""
        return f"{self.name}_v{self.version}"

    @property
    def module_name(self) -> str:
        """The PettingZoo-style module (``"primeval.envs.origin_v0"``)."""
        return f"primeval.envs.{self.env_name}"

    @property
    def aec_id(self) -> str:
        """The id of ``env()`` in PettingZoo's registry (``"primeval/origin-v0"``)."""
        return f"primeval/{self.name}-v{self.version}"

    @property
    def gym_id(self) -> str:
        """The id of the single-agent view in Gymnasium's registry (``"primeval/Origin-v0"``)."""
        return f"primeval/{self.gym_name}-v{self.version}"

    def module(self) -> ModuleType:
        """The PettingZoo-style module, with ``env`` and ``raw_env``."""
        return importlib.import_module(self.module_name)

    def raw_env(self, num_players: int | None = None, **kwargs: Any):
        """The raw AEC env (no safety wrappers), ``default_players`` seats unless given."""
        return self.module().raw_env(num_players=num_players or self.default_players, **kwargs)

    def env(self, num_players: int | None = None, **kwargs: Any):
        """The AEC env with PettingZoo's safety wrappers."""
        return self.module().env(num_players=num_players or self.default_players, **kwargs)


#: The options every env has for other libraries' forms (see ``TurnBasedAECEnv``).
_FORMS = ("observation_form='dict'|'box', mask_in_info=None|True|False, "
          "info_form='names'|'ids', state_private=False")

GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game("primordial_soup", "Primordial Soup", 1, (3, 4), 4, ("flat", "planes"),
             "PrimordialSoup",
             "num_players=4 (3|4), obs_encoder='flat'|'planes', render_mode, max_steps, "
             "reward_mode='rank'|'win'|'score', " + _FORMS + ", **PrimordialSoupConfig fields"),
        Game("origin", "Origin", 0, (2, 3, 4), 3, ("flat", "graph"), "Origin",
             "num_players=3 (2|3|4), obs_encoder='flat'|'graph', render_mode, max_steps=5000, "
             "reward_mode, " + _FORMS + ", **OriginConfig fields (map_file, cards_file, ...)"),
    )
}


def get_game(name: str) -> Game:
    """The game called ``name``.

    Raises:
        ValueError: No game has that name (the message lists the games).
    """
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; games: {', '.join(GAMES)}") from None


def make_raw_env(name: str, num_players: int | None = None, **kwargs: Any):
    """The raw AEC env of the game called ``name`` (see :meth:`Game.raw_env`)."""
    return get_game(name).raw_env(num_players, **kwargs)


__all__ = ["GAMES", "Game", "get_game", "make_raw_env"]
