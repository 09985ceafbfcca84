"""Issue 23: one forward pass of the rollout (8 observations) and one update minibatch (512,
forward, backward and Adam step) of the 256x256 MLP policy at Origin's sizes (1,486
observation features, 564 actions), float32 against bfloat16 autocast, one torch thread.
Usage: python docs/benchmarks/bf16-2026-12-07/minibatch.py (minibatch.txt: its output)."""

import contextlib
import time

import numpy as np
import torch as th
from gymnasium import spaces

from primeval.training.ppo.masking import MaskedActorCriticPolicy

th.set_num_threads(1)
th.manual_seed(0)
policy = MaskedActorCriticPolicy(spaces.Box(0.0, 1.0, (1486,), np.float32), spaces.Discrete(564),
                                 lambda _: 3e-4, net_arch=[256, 256], activation_fn=th.nn.Tanh)
g = th.Generator().manual_seed(1)


def batch(n):
    obs = (th.rand(n, 1486, generator=g) < 0.1).float()
    masks = th.rand(n, 564, generator=g) < 0.05
    masks[:, 0] = True
    return obs, masks, th.multinomial(masks.float(), 1, generator=g).squeeze(1)


def microseconds(fn, reps):
    for _ in range(5):
        fn()
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - start) / reps * 1e6


obs8, masks8, _ = batch(8)
obs512, masks512, actions512 = batch(512)
for round_ in range(3):
    for dtype in ("float32", "bfloat16"):
        def autocast(dtype=dtype):
            return (th.autocast("cpu", dtype=th.bfloat16) if dtype == "bfloat16"
                    else contextlib.nullcontext())

        def forward():
            with th.no_grad(), autocast():
                policy.forward(obs8, action_masks=masks8.numpy())

        def update():
            with autocast():
                values, log_prob, entropy = policy.evaluate_actions(
                    obs512, actions512, action_masks=masks512.numpy())
                loss = (-log_prob.float().mean() + 0.5 * values.float().pow(2).mean()
                        - 0.01 * entropy.float().mean())
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()

        print(f"round {round_} {dtype}: forward, batch of 8: {microseconds(forward, 400):.0f} "
              f"µs; update, minibatch of 512: {microseconds(update, 40):.0f} µs", flush=True)
