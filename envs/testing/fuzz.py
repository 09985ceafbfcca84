"""``primeval fuzz``: random games with every invariant checked after every step.

Plays random legal actions through the raw env, with the one random-play loop
(:func:`~primeval.envs.testing.random_play.random_steps`), and, now and then, an illegal one
first (which must raise ``IllegalActionError`` and leave the game untouched). After every
step it checks the game's invariants (``rules.check_state``: conservation of cubes, genes,
cards, tiles, pawns, villages and tokens, bounds) and that ``apply`` did not mutate its
input. The first violation stops the run with the seed, the game, the step and the state
text.

Each game's actions come from ``numpy.random.default_rng(game seed + 7_777_777)``: before
each decision one float decides whether to try an illegal action (and, if so, a uniform
illegal one follows, and another float), then a uniform legal action is drawn. A seed
reported by a failing run replays the same game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.games import get_game
from primeval.envs.testing.random_play import random_steps, uniform

__all__ = ["FuzzReport", "InvariantViolation", "fuzz"]


class InvariantViolation(AssertionError):
    """An invariant failed; the message has the seed, game, step and state."""


@dataclass
class FuzzReport:
    games: int
    steps: int
    illegal_tried: int
    seconds: float

    def summary(self) -> str:
        return (f"{self.games} games, {self.steps} steps, {self.illegal_tried} illegal actions "
                f"refused, {self.steps / max(self.seconds, 1e-9):.0f} steps/s: no violation")


def fuzz(game: str, num_players: int | None = None, games: int = 100, seed: int = 0,
         illegal_rate: float = 0.05) -> FuzzReport:
    """Play ``games`` random games; raises :class:`InvariantViolation` on the first problem."""
    players = num_players or get_game(game).default_players
    env = get_game(game).raw_env(players, max_steps=None)
    steps = illegal = 0
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed + g
        checked = _CheckedGame(env, f"{game} {players}p seed {game_seed} (game {g})",
                               illegal_rate)
        env.reset(seed=game_seed)
        for turn in random_steps(env, game_seed + 7_777_777, checked.choose):
            if turn.action is not None:
                checked.stepped(turn.action)
        if not env.rules.is_terminal(env.game_state):
            checked.fail("the game stopped before its end")
        steps += checked.steps
        illegal += checked.illegal
    return FuzzReport(games, steps, illegal, time.perf_counter() - start)


class _CheckedGame:
    """The checks of one fuzzed game: :meth:`choose` is the random play's chooser (it checks
    the mask, keeps the state before the step and tries illegal actions before drawing the
    legal one); :meth:`stepped` checks the step just taken."""

    def __init__(self, env: Any, where: str, illegal_rate: float) -> None:
        self.env, self.rules, self.where = env, env.rules, where
        self.illegal_rate = illegal_rate
        self.state: Any = None
        self.before: dict[str, Any] = {}
        self.steps = self.illegal = 0

    def fail(self, what: str) -> None:
        raise InvariantViolation(f"{self.where}, step {self.env.num_steps}: {what}\n"
                                 f"{self.env.view.to_text(self.env.game_state)}")

    def choose(self, mask: np.ndarray, rng: np.random.Generator) -> int:
        if not mask.any():
            self.fail(f"{self.env.agent_selection} must act but has no legal action")
        self.state = self.env.game_state
        self.before = self.state.to_dict()
        while rng.random() < self.illegal_rate and not mask.all():
            self._refuse(uniform(mask == 0, rng))
        return uniform(mask, rng)

    def _refuse(self, bad: int) -> None:
        """Steps the illegal action ``bad``: it must raise and change nothing."""
        try:
            self.env.step(bad)
        except IllegalActionError:
            self.illegal += 1
        else:
            self.fail(f"illegal action {bad} ({self.rules.action_to_str(self.state, bad)}) "
                      "accepted")
        if self.env.game_state is not self.state or self.state.to_dict() != self.before:
            self.fail(f"a refused action {bad} changed the game")

    def stepped(self, action: int) -> None:
        self.steps += 1
        if self.state.to_dict() != self.before:
            self.fail(f"apply mutated its input on action {action}")
        try:
            self.rules.check_state(self.env.game_state)
        except ValueError as exc:
            self.fail(f"invariant broken after {self.rules.action_to_str(self.state, action)}: "
                      f"{exc}")
