"""Shared core of the games: action layouts, procedure frames, encoders, rewards, the adapter.

- :class:`ActionLayout`: flat action ids from named segments (encode, decode, masks, docs).
- :class:`FrameRegistry`, :class:`FrameRules`: turns as stacks of decisions and steps.
- :class:`ObservationEncoder`, :func:`make_encoder`, :class:`FeatureBuilder`: observations.
- :func:`rank_rewards`, :func:`reward_for_mode`: zero-sum final rewards.
- :class:`TurnBasedAECEnv`, :class:`GameRules`, :class:`GameView`: the one AEC adapter and
  what it needs of a game (its rules and its view).
- :func:`with_safety_wrappers`: PettingZoo's safety wrappers, as each game's ``env()`` returns.
- :class:`IllegalActionError`, :class:`InvalidActionTypeError`.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.core.errors import IllegalActionError, InvalidActionTypeError
from primeval.envs.core.frames import Decision, FrameRegistry, FrameRules
from primeval.envs.core.layout import ActionLayout, Segment
from primeval.envs.core.rewards import REWARD_MODES, rank_rewards, reward_for_mode

# The adapter and the encoders need gymnasium and pettingzoo; the rules import this package
# for layouts and frames, so those two load only when asked for.
_LAZY = {"GameRules": "aec", "GameView": "aec", "TurnBasedAECEnv": "aec", "FeatureBuilder": "encoders",
         "ObservationEncoder": "encoders", "make_encoder": "encoders",
         "with_safety_wrappers": "wrappers"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"primeval.envs.core.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "REWARD_MODES",
    "ActionLayout",
    "Decision",
    "FeatureBuilder",
    "FrameRegistry",
    "FrameRules",
    "GameRules",
    "GameView",
    "IllegalActionError",
    "InvalidActionTypeError",
    "ObservationEncoder",
    "Segment",
    "TurnBasedAECEnv",
    "make_encoder",
    "rank_rewards",
    "reward_for_mode",
    "with_safety_wrappers",
]
