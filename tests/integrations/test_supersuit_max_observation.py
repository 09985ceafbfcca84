"""SuperSuit's ``max_observation_v0`` over the default dict observation: it is not refused
(as the other observation wrappers are) but loses the observation and its mask, as
docs/integrations.md's table says; with ``observation_form="box"`` it is mask-safe
(``test_supersuit.py``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

ss = pytest.importorskip("supersuit")

from primeval.envs import origin_v0, primordial_soup_v1  # noqa: E402


@pytest.mark.parametrize("module", [primordial_soup_v1, origin_v0])
def test_over_the_dict_it_builds_and_the_mask_is_lost(module):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = ss.max_observation_v0(module.env(), 2)  # not refused
        env.reset(seed=0)
        obs, _, _, _, info = env.last()
    assert isinstance(obs, np.ndarray) and obs.shape == () and obs.dtype == object
    assert "action_mask" not in info
    with pytest.raises(IndexError):
        obs["action_mask"]  # what a masked agent reads first


def test_over_the_box_the_mask_stays_in_the_infos():
    env = ss.max_observation_v0(primordial_soup_v1.env(observation_form="box"), 2)
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    core = env.unwrapped
    assert obs.shape == core.observation_space(core.agent_selection)["observation"].shape
    np.testing.assert_array_equal(info["action_mask"], core.action_mask(core.agent_selection))


def test_the_docs_list_it_as_unusable_over_the_dict():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs/integrations.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `max_observation_v0`"))
    assert "| mask-safe | **unusable** (not refused) |" in row
    refused = next(line for line in text.splitlines() if "refused (Box only)" in line)
    assert "max_observation_v0" not in refused
