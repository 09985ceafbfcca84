"""Procedure frames: the shared engine of games whose turns are stacks of small steps.

A game's state keeps a *procedure stack* (``state.stack``): a list of small dicts, each a
step of the game still to be carried out. The top frame is either a **decision** of one
player (``frame["player"]``) or an automatic **step** (dice, income, refills, ...). Interrupts
are frames pushed on top of the step they interrupt. Each rules module registers its frame
kinds in the game's :class:`FrameRegistry`; :class:`FrameRules` supplies the
``GameRules`` methods the adapter needs (current player, legal mask, apply) on top of it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from primeval.envs.core.errors import IllegalActionError
from primeval.envs.core.layout import ActionLayout

Frame = dict[str, Any]
#: The attribute under which a state returned by ``transition`` carries ``(rules, its mask,
#: a snapshot of the state)``: the mask is served while the state equals the snapshot.
_CACHE = "_legal_mask_cache"
LegalFn = Callable[[Any, Any, Frame, np.ndarray], None]
ApplyFn = Callable[[Any, Any, Frame, str, Any, np.random.Generator], None]
StepFn = Callable[[Any, Any, Frame, np.random.Generator], None]


@dataclass(frozen=True)
class Decision:
    """Handlers of one decision kind.

    ``legal(rules, state, frame, mask)`` marks the legal actions in a boolean mask.
    ``apply(rules, state, frame, segment, index, rng)`` receives the decoded action with the
    frame still on top of the stack and pops the frame when the decision is over.
    ``describe`` is a format string over the frame's fields and the ones the game adds
    (:meth:`FrameRules.describe_fields`), e.g. ``"player_{player} may double"``.
    """

    kind: str
    describe: str
    legal: LegalFn
    apply: ApplyFn


class FrameRegistry:
    """The decision and step kinds of one game."""

    def __init__(self) -> None:
        self.decisions: dict[str, Decision] = {}
        self.steps: dict[str, StepFn] = {}

    def decision(self, kind: str, describe: str) -> Callable[[type], type]:
        """Class decorator registering a decision kind with ``legal``/``apply`` statics."""

        def register(cls: type) -> type:
            if kind in self.decisions or kind in self.steps:
                raise ValueError(f"frame kind {kind!r} registered twice")
            self.decisions[kind] = Decision(kind, describe, cls.legal, cls.apply)
            return cls

        return register

    def step(self, kind: str) -> Callable[[StepFn], StepFn]:
        """Function decorator registering an automatic step."""

        def register(fn: StepFn) -> StepFn:
            if kind in self.decisions or kind in self.steps:
                raise ValueError(f"frame kind {kind!r} registered twice")
            self.steps[kind] = fn
            return fn

        return register


class FrameRules:
    """``GameRules`` methods for a game driven by a procedure stack.

    Subclasses set ``registry`` (a :class:`FrameRegistry`), ``layout`` (an
    :class:`ActionLayout` with a one-entry ``"pass"`` segment) and implement
    ``initial_state``, ``is_terminal`` and ``scores``; they may add fields for the decisions'
    ``describe`` templates (:meth:`describe_fields`). States need ``stack``, ``phase`` and
    ``copy()``.

    A decision whose only legal option is ``pass`` is not a choice: :meth:`advance` resolves
    it as ``pass`` without asking.
    """

    registry: FrameRegistry
    layout: ActionLayout
    carries_masks: bool = True
    """Whether a state :meth:`apply` returns carries its legal mask, with a snapshot of the
    state to check it against (see :meth:`legal_mask`). Worth it where a mask costs more to
    work out than a state's copy and comparison (Origin); a game whose masks are cheap and
    whose states are large sets it False (Primordial Soup: docs/benchmarks/history.md)."""

    @property
    def pass_action(self) -> int:
        return self.layout.encode("pass")

    def current_player(self, state) -> int:
        """The seat to decide now, or -1 when the game is over."""
        return state.stack[-1]["player"] if state.stack else -1

    def phase_name(self, state) -> str:
        return state.phase

    def decision_name(self, state) -> str:
        """The pending decision's kind, or ``""`` when the game is over."""
        return state.stack[-1]["kind"] if state.stack else ""

    def legal_mask(self, state) -> np.ndarray:
        """Boolean mask over all action ids; all False when the game is over.

        Where the game carries masks (:attr:`carries_masks`), a state that
        :meth:`transition` (or :meth:`apply`) returned carries the mask that
        :meth:`advance` worked out for it, with a snapshot of the state it is the mask of;
        while the state still equals its snapshot (nobody changed it in place: comparing is
        several times cheaper than working a mask out) this returns a copy of that mask,
        else it works the mask out anew (:meth:`computed_legal_mask`). A ``copy()`` carries
        no mask."""
        cached = getattr(state, _CACHE, None)
        if cached is not None and cached[0] is self and state == cached[2]:
            return cached[1].copy()
        return self.computed_legal_mask(state)

    def _legal_mask(self, state) -> np.ndarray:
        """:meth:`legal_mask` for reading only: the carried mask itself (never to be
        changed or handed out), else a mask worked out anew."""
        cached = getattr(state, _CACHE, None)
        if cached is not None and cached[0] is self and state == cached[2]:
            return cached[1]
        return self.computed_legal_mask(state)

    def computed_legal_mask(self, state) -> np.ndarray:
        """:meth:`legal_mask` worked out from the state by the decision's ``legal`` handler,
        never from a mask the state carries (the reference the carried masks are tested
        against)."""
        mask = self.layout.empty_mask()
        if state.stack:
            frame = state.stack[-1]
            self.registry.decisions[frame["kind"]].legal(self, state, frame, mask)
        return mask

    def legal_actions(self, state) -> list[int]:
        return np.flatnonzero(self.legal_mask(state)).tolist()

    def describe_decision(self, state) -> str:
        """The pending decision in the plain words its kind was registered with, or
        ``"game over"``: what the rules' own error messages name. The games' templates name
        no hidden card, so any player may be shown it; a game's view says more."""
        if not state.stack:
            return "game over"
        frame = state.stack[-1]
        template = self.registry.decisions[frame["kind"]].describe
        return template.format(**self.describe_fields(state, frame))

    def describe_fields(self, state, frame: Frame) -> dict[str, Any]:
        """The fields a decision's ``describe`` template may name: the frame's own; a game
        adds derived ones (an amoeba's number, a territory's id)."""
        return dict(frame)

    def sample_determinization(self, state, observer: int, rng: np.random.Generator):
        """A copy of ``state`` with what ``observer`` cannot see dealt anew at random, for
        planners that sample the hidden information (information-set search). Here: a
        plain copy, for a game whose state holds nothing hidden; a game with hidden cards
        overrides it."""
        return state.copy()

    def determinizer(self, state, observer: int):
        """:meth:`sample_determinization` of ``state`` for ``observer`` as a function of the
        ``rng``, for a planner that draws many from one state (a game may work out once
        what the draws share); ``state`` must not change while it is in use. Here: that
        call."""
        return lambda rng: self.sample_determinization(state, observer, rng)

    def action_to_str(self, state, action: int) -> str:
        """The action's plain name from the layout (the same in every state)."""
        return self.layout.describe(action)

    def apply(self, state, action: int, rng: np.random.Generator):
        """Return the state after ``action``; ``state`` itself is never changed.

        Raises:
            IllegalActionError: the action is not legal now; the message names the action,
                its meaning, the phase, the pending decision and some legal choices.
        """
        if type(self).transition is not FrameRules.transition or "transition" in vars(self):
            return self.transition(state, action, rng)[0]  # a subclass's own transition
        return self._transition(state, action, rng, None, False)[0]

    def transition(
        self, state, action: int, rng: np.random.Generator, mask: np.ndarray | None = None
    ) -> tuple[Any, np.ndarray]:
        """:meth:`apply`, and the legal mask of the new state, which :meth:`advance` works
        out on the way (so an env computes each state's mask once).

        Args:
            mask: ``legal_mask(state)`` when the caller has it already. A caller that keeps
                the masks itself (an env, a rollout) passes it; to a caller that does not
                (``apply``), the new state carries its mask for :meth:`legal_mask`.
        """
        return self._transition(state, action, rng, mask, True)

    def _transition(
        self, state, action: int, rng: np.random.Generator, mask: np.ndarray | None, shared: bool
    ) -> tuple[Any, np.ndarray]:
        """:meth:`transition`; ``shared``: whether the caller gets the new mask too (then
        the mask the new state carries is a copy of it)."""
        carry = mask is None
        if carry:  # (a subclass's own legal_mask, if it has one, is asked)
            own = type(self).legal_mask is FrameRules.legal_mask and "legal_mask" not in vars(self)
            mask = self._legal_mask(state) if own else self.legal_mask(state)
        if not (0 <= action < self.layout.n) or not mask[action]:
            raise IllegalActionError(self._illegal_message(state, action, mask))
        new = state.copy()
        frame = new.stack[-1]
        segment, index = self.layout.decode(action)
        self.registry.decisions[frame["kind"]].apply(self, new, frame, segment, index, rng)
        new_mask = self.advance(new, rng)
        if carry and self.carries_masks:
            with contextlib.suppress(AttributeError):  # a state without __dict__ carries none
                setattr(new, _CACHE, (self, new_mask.copy() if shared else new_mask, new.copy()))
        return new, new_mask

    def advance(self, state, rng: np.random.Generator) -> np.ndarray:
        """Carry out automatic steps until a player must decide or the stack is empty.

        Returns:
            The legal mask of the decision now pending (all False once the game is over).
        """
        decisions, steps = self.registry.decisions, self.registry.steps
        pass_action = self.pass_action
        while state.stack:
            frame = state.stack[-1]
            kind = frame["kind"]
            if kind in steps:
                steps[kind](self, state, frame, rng)
                continue
            mask = self.layout.empty_mask()
            decisions[kind].legal(self, state, frame, mask)
            count = np.count_nonzero(mask)
            if count == 0:
                raise RuntimeError(f"{type(self).__name__}: no legal action for {frame}")
            if count == 1 and mask[pass_action]:
                decisions[kind].apply(self, state, frame, "pass", 0, rng)
                continue
            return mask
        return self.layout.empty_mask()

    def _illegal_message(self, state, action, mask: np.ndarray) -> str:
        if 0 <= action < self.layout.n:
            meaning = self.layout.describe(action)
        else:
            meaning = f"out of range 0..{self.layout.n - 1}"
        legal = np.flatnonzero(mask)
        shown = ", ".join(f"{a}={self.layout.describe(a)}" for a in legal[:8])
        more = f" (+{len(legal) - 8} more)" if len(legal) > 8 else ""
        return (
            f"illegal action {action} ({meaning}) in phase {state.phase!r}: "
            f"{self.describe_decision(state)}; legal: {shown}{more}"
        )
