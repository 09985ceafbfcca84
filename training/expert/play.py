"""A network in play: :class:`PPOEvaluator` lets a MaskablePPO checkpoint stand in for a
:class:`~primeval.training.expert.network.PolicyValueNetwork` in the search (its policy
logits as priors; its value head, which predicts the return of the seat it observes, for every
seat's entry from that seat's own observation); :func:`load_evaluator` opens what
``mcts:net=PATH`` names; :class:`NetworkAgent` plays a network's policy alone (``net:PATH``,
the most likely legal action).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from primeval.envs.games import get_game
from primeval.training.expert.network import (
    NetworkError,
    PolicyValueNetwork,
    _check_spec,
    load_network,
    rotate_to_absolute,
)

__all__ = ["NetworkAgent", "PPOEvaluator", "load_evaluator"]


class PPOEvaluator:
    """A MaskablePPO checkpoint as the search's network: its policy's masked probabilities as
    priors; its value head, which predicts the (rank) return of the seat it observes, asked
    once per seat with that seat's observation (one batched pass), as each seat's entry
    (clipped to [-1, 1]). A model trained with a prior (residual PPO) reads the prior's
    choice for the seat to move after its observation, as it does when it plays.

    Args:
        path: The checkpoint zip (loaded without unpickling: :mod:`...checkpoint`).
        trust_checkpoint: As :class:`~primeval.training.agents.policy.PolicyAgent` takes it.
    """

    def __init__(self, path: str | Path, trust_checkpoint: bool = False) -> None:
        from primeval.training.agents.policy import PolicyAgent

        self.agent = PolicyAgent(path, trust_checkpoint=trust_checkpoint)
        spec = self.agent.env_spec
        if spec is None:
            raise NetworkError(
                f"checkpoint {path} names no env (no env spec); the search "
                "needs its game, players and encoder"
            )
        self.spec = _check_spec(spec, f"checkpoint {path}")
        self.num_players = self.spec["players"]
        self._encoders: dict[int, Any] = {}
        self.path = Path(path)

    check_env = PolicyValueNetwork.check_env
    encoder_for = PolicyValueNetwork.encoder_for

    @property
    def obs_shape(self) -> tuple[int, ...]:
        """The encoder's observation shape (without a prior's hint)."""
        shape = tuple(self.agent.model.observation_space.shape)
        if self.agent.prior is not None:
            shape = (shape[0] - self.agent.prior_size,)
        return shape

    def evaluate_states(
        self, rules: Any, states: list[Any], seats: list[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        import torch

        encoder = self.encoder_for(rules)
        n = self.num_players
        masks = np.stack([rules.legal_mask(s) for s in states]).astype(bool)
        obs = np.stack(
            [
                encoder.encode(s, (seat + k) % n)
                for s, seat in zip(states, seats, strict=True)
                for k in range(n)
            ]
        )
        if self.agent.prior is not None:
            obs = self._hinted(obs, states, seats, masks)
        policy = self.agent.model.policy
        with torch.inference_mode():
            tensor, _ = policy.obs_to_tensor(obs)
            values = policy.predict_values(tensor).reshape(len(states), n).numpy()
            mine = tensor.reshape(len(states), n, -1)[:, 0]
            probs = policy.get_distribution(mine, action_masks=masks).distribution.probs
        return probs.numpy(), rotate_to_absolute(np.clip(values, -1.0, 1.0), seats)


    def _hinted(
        self, obs: np.ndarray, states: list[Any], seats: list[int], masks: np.ndarray
    ) -> np.ndarray:
        """The observations (``B*n x obs``, each state's mover first) of a model trained
        with a prior (residual PPO): the mover's with the prior's choice appended, as it
        plays; every other seat's with a zero hint, as its observations read in training
        when it was not to act."""
        from primeval.training.agents.prior import prior_hint, with_hint

        n = self.num_players
        hints = np.zeros((len(obs), masks.shape[1]), dtype=np.float32)
        for i, (state, seat, mask) in enumerate(zip(states, seats, masks, strict=True)):
            hints[i * n] = prior_hint(self.agent.prior, state, seat, mask)
        return np.stack([with_hint(o, h) for o, h in zip(obs, hints, strict=True)])


def load_evaluator(path: str | Path, trust_checkpoint: bool = False) -> Any:
    """What ``mcts:net=PATH`` names: a network JSON (or its folder) or a PPO zip."""
    if str(path).endswith(".zip"):
        return PPOEvaluator(path, trust_checkpoint=trust_checkpoint)
    return PolicyValueNetwork.load(path)


class NetworkAgent:
    """The network's policy alone, no search: its most likely legal action (``net:PATH``).

    Args:
        path: The network JSON (or the folder holding ``network.json``).
        seed: Unused (the play is deterministic); accepted as every agent takes it.
    """

    uses_observation = False  # it encodes the state with its own encoder

    def __init__(self, path: str | Path | PolicyValueNetwork, seed: int | None = None) -> None:
        self.network = path if isinstance(path, PolicyValueNetwork) else load_network(path)
        self.name = f"net:{getattr(self.network, 'path', 'memory')}"

    def check_env_spec(self, spec: dict[str, Any]) -> None:
        self.network.check_env(spec["game"], spec["players"])

    def act(
        self,
        observation: Any,
        action_mask: np.ndarray,
        *,
        state: Any = None,
        seat: int | None = None,
    ) -> int:
        if state is None or seat is None:
            raise ValueError(
                "NetworkAgent.act needs the rules state and the seat (state=, "
                "seat=): it encodes them with the network's own encoder"
            )
        mask = np.asarray(action_mask).astype(bool)
        rules = self._rules(state)
        obs = self.network.encoder_for(rules).encode(state, seat)
        probs, _ = self.network.forward(obs[None], mask[None])
        return int(np.argmax(np.where(mask, probs[0], -1.0)))

    def _rules(self, state: Any) -> Any:
        rules = getattr(self, "_cached_rules", None)
        if rules is None:
            spec = self.network.spec
            rules = get_game(spec["game"]).raw_env(state.num_players, **spec["env"]).rules
            self._cached_rules = rules
        return rules
