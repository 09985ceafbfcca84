"""A sampling PolicyAgent draws from its own generator, never from torch's global one."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

from primeval.envs import primordial_soup_v0  # noqa: E402
from primeval.training.agents.policy import PolicyAgent  # noqa: E402
from primeval.training.ppo.masking import MaskedActorCriticPolicy  # noqa: E402
from primeval.wrappers.single_agent import SingleAgentEnv  # noqa: E402


@pytest.fixture(scope="module", params=["MlpPolicy", "MaskedActorCriticPolicy"])
def checkpoint(tmp_path_factory, request):
    """A checkpoint of sb3-contrib's policy, and one of primeval train's."""
    policy = MaskedActorCriticPolicy if request.param != "MlpPolicy" else "MlpPolicy"
    env = SingleAgentEnv(primordial_soup_v0.raw_env(num_players=3))
    model = MaskablePPO(policy, env, seed=0, device="cpu", n_steps=64, batch_size=64)
    path = tmp_path_factory.mktemp("policy") / "model.zip"
    model.save(path)
    return path


def _choices(agent: PolicyAgent, obs, mask, n=40) -> list[int]:
    return [agent.act(obs, mask) for _ in range(n)]


def test_sampling_is_seeded_and_ignores_torch_global_state(checkpoint):
    env = primordial_soup_v0.env(num_players=3)
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
