"""Rule-based agents: one heuristic player per game, on a shared skeleton.

:class:`PrimordialSoupHeuristic` and :class:`OriginHeuristic` read the rules state
(``env.unwrapped.game_state``) and answer the pending decision with rules of thumb; both are
:class:`~primeval.training.agents.heuristics.base.RuleBasedAgent` subclasses (rules resolution,
seeding, the mask checks and the counted random fallback).

A game names its heuristic in its descriptor (``GAME.heuristic``, a dotted path), or none;
:func:`heuristic_class` loads it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from primeval.envs.games import GAMES, get_game
from primeval.training.agents.heuristics.base import RuleBasedAgent
from primeval.training.agents.heuristics.origin import OriginHeuristic
from primeval.training.agents.heuristics.primordial_soup import PrimordialSoupHeuristic


class NoHeuristicError(ValueError):
    """The game's descriptor names no heuristic agent."""


def heuristic_class(game: str) -> type[RuleBasedAgent]:
    """The heuristic agent class of ``game`` (its descriptor's ``heuristic``).

    Raises:
        ValueError: An unknown game.
        NoHeuristicError: The game has no heuristic (the message says what to use instead).
    """
    spec = get_game(game)
    if spec.heuristic is None:
        raise NoHeuristicError(
            f"game {game!r} has no heuristic agent (its descriptor names "
            "none); use 'random' or 'mcts' instead"
        )
    return spec.load("heuristic")


class _Heuristics(Mapping):
    """The heuristic class of each game of the catalogue that has one, by game name."""

    def __getitem__(self, game: str) -> type[RuleBasedAgent]:
        if game not in GAMES or GAMES[game].heuristic is None:
            raise KeyError(game)
        return heuristic_class(game)

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, spec in GAMES.items() if spec.heuristic is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: The heuristic class of each game that has one, by game name (read from the catalogue).
HEURISTICS: Mapping[str, type[RuleBasedAgent]] = _Heuristics()

__all__ = [
    "HEURISTICS",
    "NoHeuristicError",
    "OriginHeuristic",
    "PrimordialSoupHeuristic",
    "RuleBasedAgent",
    "heuristic_class",
]
