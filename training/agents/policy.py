"""Agents that play a trained MaskablePPO policy: a saved checkpoint, or a model in memory."""

from __future__ import annotations

from pathlib import Path

import numpy as np


class CheckpointError(ValueError):
    """A checkpoint file is missing, truncated or not a MaskablePPO model."""


class PolicyAgent:
    """Plays the most likely legal action of a saved sb3-contrib ``MaskablePPO`` model.

    Args:
        path: The ``.zip`` file written by ``model.save`` (``primeval train`` writes
            ``runs/NAME/model.zip``).
        deterministic: Take the most likely action (default) or sample from the policy.
        seed: Seed of the sampling when ``deterministic`` is False.
    """

    def __init__(self, path: str | Path, deterministic: bool = True, seed: int | None = None,
                 device: str = "cpu") -> None:
        from sb3_contrib import MaskablePPO

        self.path = Path(path)
        self.name = f"ppo:{self.path}"
        if not self.path.is_file():
            raise CheckpointError(f"checkpoint {self.path} does not exist")
        try:
            self.model = MaskablePPO.load(self.path, device=device)
        except Exception as exc:  # noqa: BLE001  (zip, pickle and torch errors alike)
            raise CheckpointError(
                f"checkpoint {self.path} cannot be loaded as a MaskablePPO model: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        self.deterministic = deterministic
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Seed the agent's own generator (sampling never touches torch's global one)."""
        self.rng = np.random.default_rng(seed)

    def check_spaces(self, observation_space, action_space) -> None:
        """Refuse a model trained for another game, player count or encoder."""
        if self.model.observation_space.shape != observation_space.shape:
            raise CheckpointError(
                f"checkpoint {self.path} expects observations of shape "
                f"{self.model.observation_space.shape}, this env gives {observation_space.shape}"
                " (another game, player count or encoder?)"
            )
        if self.model.action_space.n != action_space.n:
            raise CheckpointError(
                f"checkpoint {self.path} has {self.model.action_space.n} actions, this env "
                f"has {action_space.n}"
            )

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        mask = np.asarray(action_mask, dtype=bool)
        if self.deterministic:
            action, _ = self.model.predict(np.asarray(observation), action_masks=mask,
                                           deterministic=True)
            return int(action)
        import torch

        policy = self.model.policy
        obs, _ = policy.obs_to_tensor(np.asarray(observation))
        with torch.no_grad():
            dist = policy.get_distribution(obs, action_masks=mask[None])
            probs = dist.distribution.probs[0].double().numpy()
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))


class ModelAgent:
    """A model in memory (the one being trained) as an agent: deterministic masked
    predictions."""

    name = "learner"

    def __init__(self, model) -> None:
        self.model = model

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        action, _ = self.model.predict(observation, action_masks=action_mask.astype(bool),
                                       deterministic=True)
        return int(action)
