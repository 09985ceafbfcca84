"""``primeval fuzz``: random games with every invariant checked after every step.

Plays random legal actions through the raw env and, now and then, an illegal one (which must
raise ``IllegalActionError`` and leave the game untouched). After every step it checks the
game's invariants (``rules.check_state``: conservation of cubes, genes, cards, tiles, pawns,
villages and tokens, bounds) and that ``apply`` did not mutate its input. The first
violation stops the run with the seed, the game, the step and the state text.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.games import get_game


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
    rules = env.rules
    steps = illegal = 0
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed + g
        rng = np.random.default_rng(game_seed + 7_777_777)
        env.reset(seed=game_seed)
        where = f"{game} {players}p seed {game_seed} (game {g})"

        def fail(what: str, where: str = where) -> None:
            raise InvariantViolation(f"{where}, step {env.num_steps}: {what}\n"
                                     f"{rules.to_text(env.game_state)}")

        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            if not mask.any():
                fail(f"{agent} must act but has no legal action")
            state = env.game_state
            before = state.to_dict()
            if rng.random() < illegal_rate and not mask.all():
                bad = int(rng.choice(np.flatnonzero(mask == 0)))
                try:
                    env.step(bad)
                except IllegalActionError:
                    illegal += 1
                else:
                    fail(f"illegal action {bad} ({rules.action_to_str(state, bad)}) accepted")
                if env.game_state is not state or state.to_dict() != before:
                    fail(f"a refused action {bad} changed the game")
                continue
            legal = np.flatnonzero(mask)
            action = int(legal[rng.integers(legal.size)])  # = rng.choice(legal), faster
            env.step(action)
            steps += 1
            if state.to_dict() != before:
                fail(f"apply mutated its input on action {action}")
            try:
                rules.check_state(env.game_state)
            except ValueError as exc:
                fail(f"invariant broken after {rules.action_to_str(state, action)}: {exc}")
        if not rules.is_terminal(env.game_state):
            fail("the game stopped before its end")
    return FuzzReport(games, steps, illegal, time.perf_counter() - start)
