"""TorchRL's ``PettingZooWrapper`` over both games (``info_form="ids"``: TorchRL makes every
info a tensor, and the default infos are strings). Skipped without TorchRL; ``make test``
installs it (the ``integrations`` extra). docs/integrations.md's example is the first test's
code."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from primeval.envs import origin_v0, primordial_soup_v1

# TorchRL is imported by the tests, not here: collecting this file stays cheap.
pytestmark = pytest.mark.skipif(importlib.util.find_spec("torchrl") is None,
                                reason="torchrl is not installed (the integrations extra)")


def check_every_action_was_legal(rollout, agents) -> None:
    """In each step the acting agent (TorchRL's ``mask``) took an action its
    ``action_mask`` allowed."""
    for agent in agents:
        acting = rollout[agent, "mask"].reshape(-1).numpy()
        actions = rollout[agent, "action"].reshape(-1).numpy()
        masks = rollout[agent, "action_mask"].reshape(len(acting), -1).numpy()
        assert masks[acting, actions[acting]].all()


def test_rollout_plays_origin_to_its_end_with_the_state():
    """``use_mask=True, return_state=True``: random legal actions (TorchRL samples from the
    action spec, which carries the mask) play a game to its end by the rules; the rewards
    are the rank rewards and ``state`` is ``env.state()`` at every step."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    aec = origin_v0.env(num_players=2, info_form="ids")
    env = PettingZooWrapper(aec, use_mask=True, return_state=True, seed=0)
    rollout = env.rollout(max_steps=10_000)  # random legal actions, to the end of the game

    raw = aec.unwrapped
    assert raw.rules.is_terminal(raw.game_state)  # ended by the rules, not an illegal move
    assert bool(rollout[-1]["next", "done"])
    final = [float(rollout[-1]["next", a, "reward"].sum()) for a in raw.possible_agents]
    assert sorted(final) == [-1.0, 1.0] or final == [0.0, 0.0]
    assert tuple(rollout["state"].shape[1:]) == raw.state_space.shape
    np.testing.assert_array_equal(rollout[-1]["next", "state"].numpy(), raw.state())
    check_every_action_was_legal(rollout, raw.possible_agents)
    assert set(rollout["player_0", "info"].keys()) == {"phase", "decision"}


def test_rollout_of_primordial_soup_with_box_observations_to_truncation():
    """``observation_form="box"`` (the mask from the infos) and a truncated game: the
    observation is the encoder's vector, every action legal, the rollout done at
    ``max_steps``."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    aec = primordial_soup_v1.env(num_players=3, info_form="ids", observation_form="box",
                                 max_steps=60)
    env = PettingZooWrapper(aec, use_mask=True, return_state=True, seed=1)
    rollout = env.rollout(max_steps=1_000)
    raw = aec.unwrapped
    assert len(rollout) == 60 and bool(rollout[-1]["next", "truncated"])
    assert tuple(rollout["player_0", "observation"].shape[-1:]) == raw.obs_encoder.space().shape
    check_every_action_was_legal(rollout, raw.possible_agents)


def test_string_infos_are_what_torchrl_cannot_take():
    """With the default ``info_form="names"`` TorchRL fails building its specs from the
    string infos (the reason for ``info_form="ids"``)."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    with pytest.raises(TypeError):
        PettingZooWrapper(origin_v0.env(num_players=2), use_mask=True, seed=0)
