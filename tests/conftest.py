"""Fixtures shared across the suite (builders of positions are in ``tests/helpers.py`` and
each game's ``builders.py``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

# Tianshou (tests/integrations, docs/integrations.md) compiles numba kernels when its first
# policy and collector are built, about 10 s of CPU per process that the random policies of
# the tests never use. numba reads this when first imported and again at every compile, so it
# is set before any test module imports it (the docs' example sets it for the same reason).
os.environ.setdefault("NUMBA_DISABLE_JIT", "1")


@pytest.fixture(scope="session", autouse=True)
def _sb3_log_folder(tmp_path_factory):
    """SB3 makes a folder in the temp dir each time a model without ``tensorboard_log``
    starts to learn (the package gives its own models a logger without one:
    ``training.files.quiet_sb3_logger``); the tests' own models log into this session's
    folder instead, so a test run leaves none behind."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3"))
    yield
    if before is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = before


@pytest.fixture(scope="session")
def untrained_checkpoint(tmp_path_factory) -> Callable[..., Path]:
    """``make(policy="MlpPolicy", net_arch=(16,))``: the path of a real, untrained
    MaskablePPO checkpoint of 3-player Primordial Soup (made once per argument set), saved
    as the package saves its own (with ``primeval.json``, so it loads without unpickling).
    ``policy`` is ``"MlpPolicy"`` (sb3-contrib's) or ``"primeval"`` (primeval train's);
    ``net_arch=None`` keeps SB3's default network; ``encoder`` is the observation's."""
    made: dict[tuple, Path] = {}

    def make(policy: str = "MlpPolicy", net_arch: tuple[int, ...] | None = (16,),
             encoder: str = "flat") -> Path:
        key = (policy, net_arch, encoder)
        if key not in made:
            from sb3_contrib import MaskablePPO

            from primeval.envs.games import make_raw_env
            from primeval.training.agents.checkpoint import env_spec, save_model
            from primeval.training.ppo.masking import POLICIES
            from primeval.wrappers.single_agent import SingleAgentEnv

            kwargs = {"policy_kwargs": {"net_arch": list(net_arch)}} if net_arch else {}
            model = MaskablePPO(POLICIES["sb3" if policy == "MlpPolicy" else policy],
                                SingleAgentEnv(make_raw_env("primordial_soup", 3,
                                                            obs_encoder=encoder)),
                                n_steps=64, batch_size=64, seed=0, device="cpu", **kwargs)
            path = tmp_path_factory.mktemp("checkpoint") / "model.zip"
            save_model(model, path, env_spec("primordial_soup", 3, encoder))
            made[key] = path
        return made[key]

    return make


@pytest.fixture
def third_game():
    """The tests' third game, Pig (``tests/thirdgame``), in the catalogue for one test, by
    its descriptor alone; taken out again after it, so other tests see the real catalogue."""
    from primeval.envs import games
    from tests.thirdgame import GAME

    unregister = games.register(GAME)
    try:
        yield GAME
    finally:
        unregister()
