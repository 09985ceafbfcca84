"""Pig as a PettingZoo AEC env (``pig_v0``) on the shared adapter."""

from __future__ import annotations

from typing import Any

from primeval.envs.core.aec import TurnBasedAECEnv
from primeval.envs.core.encoders import make_encoder
from primeval.envs.core.wrappers import with_safety_wrappers
from tests.thirdgame.encoders import ENCODERS
from tests.thirdgame.rules import PHASES, PigConfig, PigRules
from tests.thirdgame.view import PigView

INFO_NAMES = {"phase": PHASES, "decision": ("turn", "")}


class raw_env(TurnBasedAECEnv):  # noqa: N801  (PettingZoo naming)
    metadata = {
        "name": "pig_v0",
        "render_modes": list(PigView.render_modes),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        obs_encoder: Any = "flat",
        render_mode: str | None = None,
        max_steps: int | None = None,
        reward_mode: str = "rank",
        observation_form: str = "dict",
        mask_in_info: bool | None = None,
        info_form: str = "names",
        state_private: bool = False,
        **config_overrides: Any,
    ) -> None:
        if state_private is not False:
            raise ValueError(f"state_private={state_private!r}: pig has no state(); allowed: False")
        rules = PigRules(PigConfig.from_overrides(num_players=num_players, **config_overrides))
        super().__init__(
            rules,
            make_encoder(ENCODERS, obs_encoder, rules),
            PigView(rules),
            render_mode=render_mode,
            max_steps=max_steps,
            reward_mode=reward_mode,
            observation_form=observation_form,
            mask_in_info=mask_in_info,
            info_form=info_form,
            info_names=INFO_NAMES,
        )


def env(**kwargs: Any):
    return with_safety_wrappers(raw_env(**kwargs))
