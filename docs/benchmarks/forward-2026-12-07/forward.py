"""The rollout's forward pass, warm and after the caches are flushed (issue 23, item 1).

    .venv/bin/python docs/benchmarks/forward-2026-12-07/forward.py

The profile of Primordial Soup's default (``python -m primeval.training.ppo.profile --game
primordial_soup``) charges the policy's forward pass about 160 µs a learner step, 1.3 ms a
batch of 8, where the same network at the same batch on its own takes about half that. This
times one forward pass of the default's network (``MaskedActorCriticPolicy``, 1,182 inputs,
two 256-unit tanh layers for the policy and two for the value, 290 actions, one torch
thread) at a batch of 8: back to back, and after touching 64 MB of other memory before each
pass, as the game code between two passes of a rollout does to the caches.
"""

from __future__ import annotations

import time

import numpy as np
import torch as th
from gymnasium import spaces

from primeval.training.ppo.masking import MaskedActorCriticPolicy

OBS, ACTIONS, BATCH = 1182, 290, 8


def timed(policy, obs, mask, flush: np.ndarray | None, n: int) -> float:
    """Mean µs of a forward pass over ``n`` passes (after 50 untimed)."""
    spent = 0.0
    for i in range(n + 50):
        if flush is not None:
            np.add(flush, 1.0, out=flush)
        start = time.perf_counter()
        with th.no_grad():
            policy(obs, action_masks=mask)
        if i >= 50:
            spent += time.perf_counter() - start
    return spent / n * 1e6


def main() -> None:
    th.set_num_threads(1)
    th.manual_seed(0)
    rng = np.random.default_rng(0)
    policy = MaskedActorCriticPolicy(spaces.Box(0, 1, (OBS,), np.float32),
                                     spaces.Discrete(ACTIONS), lambda _: 3e-4,
                                     net_arch=[256, 256], activation_fn=th.nn.Tanh)
    policy.set_training_mode(False)
    weights = sum(p.numel() * p.element_size() for p in policy.parameters())
    obs = th.as_tensor(rng.random((BATCH, OBS), dtype=np.float32))
    mask = rng.random((BATCH, ACTIONS)) < 0.05
    mask[:, 0] = True
    flush = np.zeros(64 * 2**20 // 8)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; weights "
          f"{weights / 2**20:.1f} MB; batch {BATCH}; µs a forward pass")
    print("| round | back to back | after touching 64 MB |")
    print("|---|---|---|")
    for r in range(3):
        print(f"| {r + 1} | {timed(policy, obs, mask, None, 1500):.0f} "
              f"| {timed(policy, obs, mask, flush, 500):.0f} |")


if __name__ == "__main__":
    main()
