"""Tianshou's ``PettingZooEnv`` with its masked random policies plays both games. Skipped
without Tianshou; ``make test`` installs it (the ``integrations`` extra). docs/integrations.md's
example is this test's code for Origin."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from primeval.envs import origin_v0, primordial_soup_v1

# Tianshou is imported by the test, not here: collecting this file stays cheap. (And
# tests/conftest.py sets NUMBA_DISABLE_JIT: random policies need none of Tianshou's numba
# kernels, which it would compile when the first policy and collector are built.)
pytestmark = pytest.mark.skipif(importlib.util.find_spec("tianshou") is None,
                                reason="tianshou is not installed (the integrations extra)")


@pytest.mark.parametrize(("module", "players"), [(origin_v0, 2), (primordial_soup_v1, 3)])
def test_masked_random_policies_play_a_game(module, players):
    """One episode with Tianshou's Collector: a game played to its end by legal moves (the
    policies read the mask of PettingZoo's dict observation), with the rank rewards."""
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make_env():
        return PettingZooEnv(module.env(num_players=players))

    env = make_env()
    policy = MultiAgentPolicy({
        agent: MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy(env.action_space)
        for agent in env.agents})
    collector = Collector(policy, DummyVectorEnv([make_env]))
    result = collector.collect(n_episode=1, reset_before_collect=True,
                               gym_reset_kwargs={"seed": 0})

    returns = np.asarray(result.returns).reshape(-1)
    assert result.n_collected_episodes == 1 and len(returns) == players
    # Rank rewards sum to 0; an illegal move would end the game with -1 for the offender
    # and 0 for the others.
    assert returns.sum() == pytest.approx(0.0)
