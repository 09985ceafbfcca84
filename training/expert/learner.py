"""Expert iteration's learner: the policy target from a root's visit counts, the replay
buffer of the newest positions, the Adam steps on it (cross-entropy of the masked policy
towards the targets plus ``learn.value_weight`` times the value's squared error), and the
losses on held-out positions. :mod:`primeval.training.expert.train` runs it after each
iteration's games, :mod:`primeval.training.expert.teacher` on a teacher's games."""

from __future__ import annotations

from typing import Any

import numpy as np

from primeval.training.expert.config import ExpertConfig


def policy_target(visits: np.ndarray, temperature: float) -> np.ndarray:
    """The policy target from a root's visit counts: ``visits ** (1 / temperature)``,
    normalised (``learn.target_temperature``; 1 gives the visit distribution)."""
    visits = np.asarray(visits, dtype=np.float64)
    if temperature != 1.0:
        # scaled by the maximum first, so that small temperatures cannot underflow to 0
        visits = (visits / visits.max()) ** (1.0 / temperature)
    return (visits / visits.sum()).astype(np.float32)


class ReplayBuffer:
    """The newest ``capacity`` positions (observations, masks, visit targets, value
    targets)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.parts: list[dict[str, np.ndarray]] = []

    def __len__(self) -> int:
        return sum(len(p["obs"]) for p in self.parts)

    def add(self, game: dict[str, Any]) -> None:
        if len(game["obs"]):
            self.parts.append({k: game[k] for k in ("obs", "masks", "visits", "values")})
        extra = len(self) - self.capacity
        while extra > 0:
            first = self.parts[0]
            if len(first["obs"]) <= extra:
                extra -= len(first["obs"])
                self.parts.pop(0)
            else:
                self.parts[0] = {k: v[extra:] for k, v in first.items()}
                extra = 0

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            k: np.concatenate([p[k] for p in self.parts])
            for k in ("obs", "masks", "visits", "values")
        }


def learn(
    network: Any,
    optimizer: Any,
    buffer: ReplayBuffer | dict[str, np.ndarray],
    config: ExpertConfig,
    rng: np.random.Generator,
    steps: int | None = None,
) -> dict[str, float]:
    """``steps`` (default ``learn.steps``) gradient steps on minibatches of the buffer (or
    of arrays as :meth:`ReplayBuffer.arrays` gives them); the mean losses."""
    import torch

    data = buffer.arrays() if isinstance(buffer, ReplayBuffer) else buffer
    size = len(data["obs"])
    if size == 0:
        return {"policy_loss": float("nan"), "value_loss": float("nan")}
    tensors = {k: torch.as_tensor(v) for k, v in data.items()}
    module = network.module
    module.train()
    totals = {"policy_loss": 0.0, "value_loss": 0.0}
    steps = config.learn.steps if steps is None else steps
    for _ in range(steps):
        idx = torch.as_tensor(rng.integers(size, size=min(config.learn.batch_size, size)))
        policy_loss, value_loss = _losses(module, {k: v[idx] for k, v in tensors.items()})
        loss = policy_loss + config.learn.value_weight * value_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        totals["policy_loss"] += policy_loss.item()
        totals["value_loss"] += value_loss.item()
    module.eval()
    return {k: v / steps for k, v in totals.items()}


def _losses(module: Any, batch: dict[str, Any]) -> tuple[Any, Any]:
    """Cross-entropy of the masked policy towards ``visits``; mean squared error of the
    value vector towards ``values``."""
    import torch

    from primeval.training.expert.network import masked_logits

    logits, values = module(batch["obs"])
    mask = batch["masks"]
    logp = torch.log_softmax(masked_logits(logits, mask), dim=-1)
    policy_loss = -(batch["visits"] * torch.where(mask, logp, 0.0)).sum(-1).mean()
    value_loss = ((values - batch["values"]) ** 2).mean()
    return policy_loss, value_loss


def held_out_losses(network: Any, data: dict[str, np.ndarray],
                    chunk: int = 1024) -> dict[str, float]:
    """The losses on positions not learnt from, the value's R^2 there (1 - its mean squared
    error over the results' variance, every seat's entry pooled) and how often the policy's
    most likely action is the target's.

    Positions go through the network ``chunk`` at a time (the structured network's
    intermediates for 16,000 positions at once take about a gigabyte); the figures are the
    means over all positions, as one pass would give them."""
    import torch

    n = len(data["obs"])
    policy_sum = value_sum = 0.0
    agree = 0
    for start in range(0, n, chunk):
        part = {k: v[start:start + chunk] for k, v in data.items()}
        size = len(part["obs"])
        tensors = {k: torch.as_tensor(v) for k, v in part.items()}
        with torch.inference_mode():
            policy_loss, value_loss = _losses(network.module, tensors)
        policy_sum += float(policy_loss) * size
        value_sum += float(value_loss) * size
        probs, _values = network.forward(part["obs"], part["masks"])
        agree += int(np.sum(probs.argmax(axis=1) == part["visits"].argmax(axis=1)))
    value_loss = value_sum / n if n else float("nan")
    variance = float(np.var(data["values"]))
    return {
        "policy_loss": policy_sum / n if n else float("nan"),
        "value_loss": value_loss,
        "value_r2": 1.0 - value_loss / variance if variance > 0 else float("nan"),
        "policy_agreement": agree / n if n else float("nan"),
    }
