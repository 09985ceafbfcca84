"""Torch threads per phase of PPO: one while collecting rollouts, more while updating.

A rollout evaluates the small policy network on a handful of observations at a time, where a
second thread only adds synchronisation (and takes the core the envs would use); the update
multiplies batches of hundreds of observations, where a second thread pays.
"""

from __future__ import annotations

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
