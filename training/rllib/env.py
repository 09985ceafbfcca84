"""A primeval game as an RLlib ``MultiAgentEnv``: RLlib's own ``PettingZooEnv`` over the
game's AEC env with PettingZoo's safety wrappers (``GAMES[name].env(...)``).

The observations stay PettingZoo's ``{"observation": float32, "action_mask": int8}``;
:class:`~primeval.training.rllib.module.MaskedPPOTorchRLModule` reads both keys. The
wrapped env, not ``raw_env``, because RLlib's env check steps random (illegal) actions: the
wrapped env ends such a game with -1 for the offender, where ``raw_env`` raises
``IllegalActionError`` (which RLlib reports as an "old gym API" error). Only the seat to act
is in each step's observations; every seat gets its final reward when the game ends, so a
policy shared by all seats learns from every seat's decisions.
"""

from __future__ import annotations

from typing import Any

from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

from primeval.envs.games import get_game

#: The env name :func:`register` gives RLlib (``AlgorithmConfig.environment(ENV_NAME)``).
ENV_NAME = "primeval"


def make_env(env_config: dict[str, Any]) -> PettingZooEnv:
    """The env RLlib builds in each EnvRunner from ``env_config`` (keys ``game``,
    ``players``, ``encoder``, ``env``: see
    :meth:`~primeval.training.rllib.config.RLlibTrainConfig.env_config`)."""
    game = get_game(env_config.get("game", "primordial_soup"))
    aec = game.env(env_config.get("players") or game.default_players,
                   obs_encoder=env_config.get("encoder", game.encoders[0]),
                   **env_config.get("env", {}))
    return PettingZooEnv(aec)


def register() -> str:
    """Register :func:`make_env` with Ray Tune's registry under :data:`ENV_NAME`."""
    register_env(ENV_NAME, make_env)
    return ENV_NAME
