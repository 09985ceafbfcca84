"""The opponent pool of training: an opponent drawn per seat and episode."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from primeval.training.agents import Agent, RandomAgent, make_heuristic

#: The opponent kinds, in the order of :class:`OpponentPool`'s weights.
KINDS = ("random", "heuristic", "self_play")


class OpponentPool:
    """Draws an opponent per seat and episode by weight: a random agent, the game's
    heuristic, or one of the latest self-play snapshots (random until one exists).

    Called as ``pool(rng) -> agent``, the form the single-agent wrapper takes.

    Args:
        game: The game's name.
        weights: ``{kind: weight}`` for the kinds of :data:`KINDS` (missing kinds weigh 0).
        snapshot_dir: Where the self-play snapshots ``step_<N>.zip`` are saved.
        keep: How many of the latest snapshots are drawn from.
    """

    def __init__(self, game: str, weights: dict[str, float], snapshot_dir: Path | None,
                 keep: int) -> None:
        self.game = game
        self.snapshot_dir = snapshot_dir
        self.keep = keep
        w = np.array([weights.get(kind, 0.0) for kind in KINDS], dtype=float)
        self.weights = w / w.sum()
        self._random = RandomAgent()
        self._heuristic: Agent | None = None
        self._snapshots: dict[str, Agent] = {}

    def __call__(self, rng: np.random.Generator) -> Agent:
        kind = int(rng.choice(len(KINDS), p=self.weights))
        if kind == 1:
            if self._heuristic is None:
                self._heuristic = make_heuristic(self.game)
            return self._heuristic
        if kind == 2:
            snapshot = self._snapshot(rng)
            if snapshot is not None:
                return snapshot
        return self._random

    def _snapshot(self, rng: np.random.Generator) -> Agent | None:
        if self.snapshot_dir is None or not self.snapshot_dir.is_dir():
            return None
        files = sorted(self.snapshot_dir.glob("step_*.zip"),
                       key=lambda p: int(p.stem.split("_")[1]))[-self.keep:]
        if not files:
            return None
        path = files[int(rng.integers(len(files)))]
        if path.name not in self._snapshots:
            from primeval.training.agents.policy import PolicyAgent

            self._snapshots[path.name] = PolicyAgent(path, deterministic=False)
        return self._snapshots[path.name]
