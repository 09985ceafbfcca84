"""PettingZoo's safety wrappers around a raw env, as each game's ``env()`` returns it.

``with_safety_wrappers(raw)`` stacks PettingZoo's TerminateIllegal (-1 to the offender),
AssertOutOfBounds and OrderEnforcing wrappers. They are PettingZoo's own classes with one
change: the attributes a training loop reads every step (``agent_selection``, ``agents``,
``terminations``, ...) are read from the raw env directly instead of through
``BaseWrapper.__getattr__`` one wrapper at a time, which cost about a quarter of a step.
Behaviour is unchanged.

The raw env is any :class:`~primeval.envs.core.aec.TurnBasedAECEnv`; this module does not
import the adapter, so the two do not depend on each other.
"""

from __future__ import annotations

import operator
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

__all__ = ["AssertOutOfBoundsWrapper", "OrderEnforcingWrapper", "TerminateIllegalWrapper",
           "with_safety_wrappers"]


def with_safety_wrappers(env: AECEnv) -> OrderEnforcingWrapper:
    """PettingZoo's TerminateIllegal (-1 to the offender), AssertOutOfBounds and
    OrderEnforcing wrappers around a raw env: what each game's ``env()`` returns."""
    wrapped = TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped = AssertOutOfBoundsWrapper(wrapped)
    return OrderEnforcingWrapper(wrapped)


_HOT_ATTRIBUTES = ("agent_selection", "agents", "terminations", "truncations", "rewards",
                   "infos", "_cumulative_rewards", "num_agents")


def _direct(name: str, *, after_reset: bool) -> property:
    def get_after_reset(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def set_(self, value) -> None:
        setattr(self._raw, name, value)

    # attrgetter reads self._raw.<name> without a Python frame: these are read ~20 times a step
    get = get_after_reset if after_reset else operator.attrgetter(f"_raw.{name}")
    return property(get, set_, doc=f"The raw env's ``{name}``.")


class _DirectAttributes:
    """Reads :data:`_HOT_ATTRIBUTES` from the raw env (``self._raw``) in one step."""

    _after_reset = False

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for name in _HOT_ATTRIBUTES:
            setattr(cls, name, _direct(name, after_reset=cls._after_reset))

    def __init__(self, env, *args, **kwargs) -> None:
        self._raw = env.unwrapped
        super().__init__(env, *args, **kwargs)


class TerminateIllegalWrapper(_DirectAttributes, wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper``, reading hot attributes directly, that judges
    an action by the mask of the state it is taken in: the mask kept from the last
    ``observe()`` is dropped when the game changed since (``set_state``,
    ``set_game_state``), instead of ending the new game for an action legal in it. When an
    illegal action ends the game, masks in the infos (``mask_in_info``) become all zeros."""

    _observed: Any = None  # the raw env's game state when _prev_obs was kept

    def observe(self, agent: Any) -> Any:
        observation = super().observe(agent)
        if agent == self._raw.agent_selection:
            self._observed = self._raw.game_state
        return observation

    def step(self, action: Any) -> None:
        if self._prev_obs is not None and self._observed is not self._raw.game_state:
            self._prev_obs = self._prev_info = None
        ended = self._terminated
        super().step(action)
        if self._terminated and not ended:  # the game ended here: no agent has a legal action
            for agent, info in self._raw.infos.items():
                if "action_mask" in info:  # a form's mask in the infos
                    info["action_mask"] = self._raw.action_mask(agent)


class AssertOutOfBoundsWrapper(_DirectAttributes, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper``, reading hot attributes directly, whose
    refusal names the value and the range (``InvalidActionTypeError`` for a non-integer,
    ``IllegalActionError`` out of range) and holds under ``python -O`` too. An in-range id
    that is not legal now goes on to ``TerminateIllegalWrapper`` (the game ends, -1)."""

    def step(self, action: Any) -> None:
        raw = self._raw
        agent = raw.agent_selection
        if not (raw.terminations[agent] or raw.truncations[agent]):
            raw._action_id(action)  # the check of the parent's assert, with a clear error
        # A dead agent's action goes on to the raw env, which accepts only None.
        wrappers.BaseWrapper.step(self, action)


class OrderEnforcingWrapper(_DirectAttributes, wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, reading hot attributes directly (still an
    ``AttributeError`` before ``reset``, or before ``set_game_state``, which starts a game as
    ``reset`` does)."""

    _after_reset = True

    def set_game_state(self, state: Any, seed: int | None = None) -> None:
        """The raw env's ``set_game_state``; the game it starts counts as a reset."""
        self.env.set_game_state(state, seed)
        self._has_reset = self._has_updated = True
