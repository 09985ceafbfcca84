"""How torch runs during PPO (training/torch_runtime.py)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from torch.distributions import Categorical, Distribution  # noqa: E402

from primeval.training.ppo.torch_runtime import (  # noqa: E402
    distribution_checks_off,
    phase_threads_callback,
)


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


@pytest.fixture
def checks_on():
    """Torch's default is to check; but importing torchrl (tests/integrations)
    turns the checks off for the whole process, so set the default here."""
    before = Distribution._validate_args
    Distribution.set_default_validate_args(True)
    yield
    Distribution.set_default_validate_args(before)


def test_distribution_checks_are_off_inside_the_block_and_restored_after(checks_on):
    bad = torch.tensor([[0.5, float("nan")]])
    with pytest.raises(ValueError, match="logits"):
        Categorical(logits=bad)
    with distribution_checks_off():
        assert Categorical(logits=bad).logits.shape == (1, 2)  # not checked
        good = Categorical(logits=torch.tensor([[0.0, 1.0]]))
        assert good.log_prob(torch.tensor([1])).item() == pytest.approx(
            Categorical(logits=torch.tensor([[0.0, 1.0]]), validate_args=True)
            .log_prob(torch.tensor([1])).item())
    with pytest.raises(ValueError, match="logits"):
        Categorical(logits=bad)


def test_distribution_checks_come_back_after_an_exception(checks_on):
    with pytest.raises(RuntimeError, match="inside"), distribution_checks_off():
        raise RuntimeError("inside")
    assert Distribution._validate_args is True


def test_the_block_restores_whatever_default_it_found():
    before = Distribution._validate_args
    try:
        Distribution.set_default_validate_args(False)
        with distribution_checks_off():
            pass
        assert Distribution._validate_args is False
    finally:
        Distribution.set_default_validate_args(before)
