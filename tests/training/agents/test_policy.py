"""A sampling PolicyAgent draws from its own generator, never from torch's global one."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from primeval.envs import primordial_soup_v1  # noqa: E402
from primeval.training.agents.policy import PolicyAgent  # noqa: E402


@pytest.fixture(scope="module", params=["MlpPolicy", "primeval"])
def checkpoint(untrained_checkpoint, request):
    """A checkpoint of sb3-contrib's policy, and one of primeval train's."""
    return untrained_checkpoint(request.param, net_arch=None)


def _choices(agent: PolicyAgent, obs, mask, n=40) -> list[int]:
    return [agent.act(obs, mask) for _ in range(n)]


def test_sampling_is_seeded_and_ignores_torch_global_state(checkpoint):
    env = primordial_soup_v1.env(num_players=3)
    env.reset(seed=3)
    obs = env.last()[0]
    legal = np.flatnonzero(obs["action_mask"])
    assert legal.size > 1  # a real choice

    a = PolicyAgent(checkpoint, deterministic=False, seed=7)
    torch.manual_seed(1)
    first = _choices(a, obs["observation"], obs["action_mask"])
    b = PolicyAgent(checkpoint, deterministic=False, seed=7)
    torch.manual_seed(99999)
    torch.rand(1000)
    state_before = torch.get_rng_state()
    second = _choices(b, obs["observation"], obs["action_mask"])
    assert second == first
    assert torch.equal(torch.get_rng_state(), state_before)  # global generator untouched
    assert set(first) <= set(legal.tolist())
    assert len(set(first)) > 1  # it does sample

    c = PolicyAgent(checkpoint, deterministic=False, seed=8)
    assert _choices(c, obs["observation"], obs["action_mask"]) != first
