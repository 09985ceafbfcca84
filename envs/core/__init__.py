"""Shared core of the games: action layouts, procedure frames, encoders, rewards, the adapter.

- :class:`ActionLayout`: flat action ids from named segments (encode, decode, masks, docs).
- :class:`FrameRegistry`, :class:`FrameRules`: turns as stacks of decisions and steps.
- :class:`ObservationEncoder`, :func:`make_encoder`, :class:`FeatureBuilder`: observations.
- :func:`rank_rewards`, :func:`reward_for_mode`: zero-sum final rewards.
- :class:`TurnBasedAECEnv`, :class:`GameRules`: the one AEC adapter and what it needs.
- :class:`IllegalActionError`, :class:`InvalidActionTypeError`.
"""

from __future__ import annotations

from primeval.envs.core.aec import GameRules, TurnBasedAECEnv
from primeval.envs.core.encoders import FeatureBuilder, ObservationEncoder, make_encoder
from primeval.envs.core.errors import IllegalActionError, InvalidActionTypeError
from primeval.envs.core.frames import Decision, FrameRegistry, FrameRules
from primeval.envs.core.layout import ActionLayout, Segment
from primeval.envs.core.rewards import REWARD_MODES, rank_rewards, reward_for_mode

__all__ = [
    "REWARD_MODES",
    "ActionLayout",
    "Decision",
    "FeatureBuilder",
    "FrameRegistry",
    "FrameRules",
    "GameRules",
    "IllegalActionError",
    "InvalidActionTypeError",
    "ObservationEncoder",
    "Segment",
    "TurnBasedAECEnv",
    "make_encoder",
    "rank_rewards",
    "reward_for_mode",
]
