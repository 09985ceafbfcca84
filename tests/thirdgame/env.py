"""Pig as a PettingZoo AEC env (``pig_v0``) on the shared adapter and its builder."""

from __future__ import annotations

from typing import Any

from primeval.envs.core.aec import TurnBasedAECEnv
from primeval.envs.core.builder import EnvBuilder
from tests.thirdgame.encoders import ENCODERS
from tests.thirdgame.rules import PHASES, PigConfig, PigRules
from tests.thirdgame.view import PigView

INFO_NAMES = {"phase": PHASES, "decision": ("turn", "")}


class PigEnv(TurnBasedAECEnv):
    """Pig's AEC core; :func:`raw_env` builds it with the forms asked for."""

    metadata = {
        "name": "pig_v0",
        "render_modes": list(PigView.render_modes),
        "is_parallelizable": False,
    }


#: Pig has no state() (no state encoder): state_private=True is refused by the builder.
BUILDER = EnvBuilder(PigEnv, PigConfig.from_overrides, PigRules, ENCODERS, PigView, INFO_NAMES)


def raw_env(num_players: int = 2, obs_encoder: Any = "flat", **kwargs: Any):
    return BUILDER.raw_env(num_players, obs_encoder, **kwargs)


def env(num_players: int = 2, obs_encoder: Any = "flat", **kwargs: Any):
    return BUILDER.env(num_players, obs_encoder, **kwargs)
