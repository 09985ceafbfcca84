"""How torch runs during PPO: threads per phase, and torch.distributions' argument checks.

* **Threads per phase.** A rollout evaluates the small policy network on a handful of
  observations at a time, where a second thread only adds synchronisation (and takes the core
  the envs would use); the update multiplies batches of hundreds of observations, where a
  second thread pays. :func:`phase_threads_callback` switches between the two.
* **Distribution checks.** ``torch.distributions`` checks every distribution's arguments when
  it is built (the default since torch 1.8, for debugging). MaskablePPO builds two to three
  categorical distributions over every action per env step, and the checks alone cost about
  a tenth of training time on the Origin env. :func:`distribution_checks_off` turns them off
  while training, as PyTorch's documentation suggests once a model works; they never change
  a value. They also avoid a known failure of the check on cached probabilities with many
  actions (sb3-contrib issue #322).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


def phase_threads_callback(update_threads: int, rollout_threads: int = 1) -> Any:
    """An SB3 callback setting ``torch.set_num_threads`` at each rollout's start and end."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    class PhaseThreads(BaseCallback):
        def _on_rollout_start(self) -> None:
            torch.set_num_threads(rollout_threads)

        def _on_rollout_end(self) -> None:
            torch.set_num_threads(update_threads)

        def _on_step(self) -> bool:
            return True

    return PhaseThreads()


@contextlib.contextmanager
def distribution_checks_off() -> Iterator[None]:
    """Within the block, ``torch.distributions`` skips its argument checks; the previous
    default is restored on leaving, even on an exception."""
    from torch.distributions import Distribution

    previous = Distribution._validate_args  # torch has no public getter for the default
    Distribution.set_default_validate_args(False)
    try:
        yield
    finally:
        Distribution.set_default_validate_args(previous)


@contextlib.contextmanager
def torch_threads(count: int) -> Iterator[None]:
    """Within the block torch uses ``count`` threads (game play after training evaluates the
    network one decision at a time, where more threads only wait on each other)."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)
