"""Torch threads per PPO phase (training/threads.py)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from primeval.training.threads import phase_threads_callback  # noqa: E402


def test_one_thread_for_rollouts_and_more_for_updates():
    before = torch.get_num_threads()
    try:
        callback = phase_threads_callback(update_threads=2)
        callback.on_rollout_start()
        assert torch.get_num_threads() == 1
        callback.on_rollout_end()
        assert torch.get_num_threads() == 2
        assert callback._on_step() is True  # never stops training
    finally:
        torch.set_num_threads(before)
