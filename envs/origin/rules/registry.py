"""The Origin frame registry: player decisions and automatic steps (see envs/core/frames)."""

from __future__ import annotations

from primeval.envs.core.frames import FrameRegistry

REGISTRY = FrameRegistry()
decision = REGISTRY.decision
step = REGISTRY.step
