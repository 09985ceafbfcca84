"""The Primordial Soup frame registry: player decisions and automatic steps.

Each rule module registers its frames here by kind (``@decision("feed", ...)``,
``@step("phase1")``), so a reader finds a rule by its name. The machinery is the shared
:mod:`primeval.envs.core.frames`.
"""

from __future__ import annotations

from primeval.envs.core.frames import FrameRegistry

REGISTRY = FrameRegistry()
DECISIONS = REGISTRY.decisions
STEPS = REGISTRY.steps
decision = REGISTRY.decision
step = REGISTRY.step
