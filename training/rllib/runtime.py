"""How torch runs in RLlib's processes: one thread while sampling, more while updating,
``torch.distributions``' argument checks off (as :mod:`primeval.training.ppo.torch_runtime`
does for the SB3 backend, and for the same reasons).

Sampling evaluates the network on one observation at a time, where a second OpenMP thread
only adds a barrier; on a busy 2-core machine each such barrier waits milliseconds for the
other thread to be scheduled (a ``tanh`` over 256 values measured 4.4 ms with 2 threads,
14 µs with one). :class:`TorchPhases` is an RLlib callback: every EnvRunner samples with one
thread; in the driver, where the local EnvRunner (``num_env_runners: 0``) and the learner
take turns, it switches to ``update_threads`` when sampling ends and back to one when the
iteration's result is in.
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.callbacks.callbacks import RLlibCallback
from torch.distributions import Distribution


def sampling_mode() -> None:
    torch.set_num_threads(1)
    Distribution.set_default_validate_args(False)


class TorchPhases(RLlibCallback):
    """Torch threads per phase (see the module docstring)."""

    def __init__(self, update_threads: int = 2) -> None:
        super().__init__()
        self.update_threads = update_threads

    def on_algorithm_init(self, *, algorithm: Any, **kwargs: Any) -> None:
        sampling_mode()

    def on_environment_created(self, *, env_runner: Any, **kwargs: Any) -> None:
        sampling_mode()

    def on_sample_end(self, *, env_runner: Any = None, **kwargs: Any) -> None:
        if env_runner is not None and not getattr(env_runner, "worker_index", 0):
            torch.set_num_threads(self.update_threads)  # the driver: the update is next

    def on_train_result(self, *, algorithm: Any, **kwargs: Any) -> None:
        sampling_mode()
