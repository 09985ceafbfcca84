"""The catalogue of games: the one place that lists them.

Every tool that offers a choice of game (the CLI, the training config, tournaments, the
benchmark, golden transcripts, registration) reads :data:`GAMES`. Each game package exports
its descriptor, ``GAME`` (:class:`~primeval.envs.core.descriptor.GameDescriptor`: rules,
config, encoders, view, picture, heuristic, ...); the catalogue lists them, and everything
else (ids, player counts, encoders, ``env_arguments``) is derived from the descriptor. Adding
a game means its folder, its ``<name>_v<version>.py`` module and one line in
:data:`DESCRIPTORS` (``docs/add-a-game.md``). :func:`register` adds a game at run time (the
tests' third game, ``tests/thirdgame``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from primeval.envs.core.descriptor import GameDescriptor
from primeval.envs.origin import GAME as ORIGIN
from primeval.envs.primordial_soup import GAME as PRIMORDIAL_SOUP

#: A game of the catalogue (its descriptor).
Game = GameDescriptor

#: The games the package ships, in the order tools list them.
DESCRIPTORS: tuple[GameDescriptor, ...] = (PRIMORDIAL_SOUP, ORIGIN)

GAMES: dict[str, GameDescriptor] = {game.name: game for game in DESCRIPTORS}


def get_game(name: str) -> GameDescriptor:
    """The game called ``name``.

    Raises:
        ValueError: No game has that name (the message lists the games).
    """
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; games: {', '.join(GAMES)}") from None


def register(game: GameDescriptor) -> Callable[[], None]:
    """Add ``game`` to :data:`GAMES` (last); returns the function that takes it out again.

    Raises:
        TypeError: ``game`` is not a :class:`GameDescriptor`.
        ValueError: A game of that name is already listed (nothing changes).
    """
    if not isinstance(game, GameDescriptor):
        raise TypeError(f"register takes a GameDescriptor, got {type(game).__name__}")
    if game.name in GAMES:
        raise ValueError(f"a game called {game.name!r} is already in the catalogue")
    GAMES[game.name] = game

    def unregister() -> None:
        if GAMES.get(game.name) is game:
            del GAMES[game.name]

    return unregister


def make_raw_env(name: str, num_players: int | None = None, **kwargs: Any):
    """The raw AEC env of the game called ``name`` (see :meth:`GameDescriptor.raw_env`)."""
    return get_game(name).raw_env(num_players, **kwargs)


__all__ = ["DESCRIPTORS", "GAMES", "Game", "GameDescriptor", "get_game", "make_raw_env",
           "register"]
