"""Chance events of the rules, and an explicit-chance mode for planners.

Every random event of a game (a die, a card or tile drawn, a shuffle, the start player)
goes through one of three functions of this module: :func:`roll_die`, :func:`pick` (one of
``n`` equally likely, or weighted) and :func:`shuffle`. Each takes the ``rng`` the rules
were given:

- a ``numpy.random.Generator`` (what the envs pass): the same numpy call as always, so the
  same seed gives the same game;
- a :class:`ChanceSource`: the event is handed to its :meth:`~ChanceSource.draw` as a
  :class:`ChanceEvent` (what may happen, with which probability) and the source picks the
  outcome. :class:`ScriptedChance` fixes the next dice and draws for a test or an analysis;
  :class:`ExplicitChance` turns every event into a **chance node** a planner can branch on.

A shuffle is a sequence of draws: position 1 takes one of the ``n`` items, position 2 one of
the ``n - 1`` left, and so on, so every chance node has at most ``n`` outcomes.

Explicit chance (for MCTS, expectimax, OpenSpiel): ``chance = ExplicitChance(rules)``;
``chance.initial_state()`` and ``chance.apply(state, action)`` return either a rules state
(a player decides next) or a :class:`ChanceNode`; ``chance.chance_outcomes(node)`` lists
``(outcome, probability)``; ``chance.apply_chance(node, outcome)`` goes on. A chance node
replays the transition it interrupts with the outcomes fixed so far, so the rules need no
chance frames of their own and the ordinary env is untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "CHANCE_PLAYER",
    "ChanceEvent",
    "ChanceExhaustedError",
    "ChanceNode",
    "ChanceSource",
    "DuplicateChance",
    "ExplicitChance",
    "SampledChance",
    "ScriptedChance",
    "pick",
    "roll_die",
    "shuffle",
]

CHANCE_PLAYER = -2
"""What :meth:`ExplicitChance.current_player` returns at a chance node (-1 is game over)."""

_GENERATOR = np.random.Generator
_DIE = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class ChanceEvent:
    """One random event: its kind, label (``"die"``, ``"environment card"``, ...) and
    outcomes.

    ``kind`` is ``"die"``, ``"pick"`` or ``"shuffle"`` (one position of a shuffle: the
    outcome is the index among the items not placed yet). ``outcomes`` are the values the
    event may take (die faces 1..6, or indices ``0..n-1``), ``weights`` their relative
    chances (``None`` = equally likely).
    """

    kind: str
    label: str
    outcomes: tuple[int, ...]
    weights: tuple[int, ...] | None = None

    def probabilities(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]``, summing to 1."""
        if self.weights is None:
            p = 1.0 / len(self.outcomes)
            return [(o, p) for o in self.outcomes]
        total = sum(self.weights)
        return [(o, w / total) for o, w in zip(self.outcomes, self.weights, strict=True)]

    def check(self, outcome: Any) -> int:
        """``outcome`` as an int, or ``ValueError`` naming the event and what it may be."""
        if (isinstance(outcome, bool | np.bool_) or not isinstance(outcome, int | np.integer)
                or int(outcome) not in self._possible()):
            shown = list(self._possible())
            if len(shown) > 12:
                shown = f"{shown[:12]}... ({len(shown)} in all)"
            raise ValueError(f"chance event {self.label!r}: outcome {outcome!r} is not "
                             f"possible; it may be {shown}")
        return int(outcome)

    def _possible(self) -> tuple[int, ...]:
        if self.weights is None:
            return self.outcomes
        return tuple(o for o, w in zip(self.outcomes, self.weights, strict=True) if w > 0)

    def sample(self, rng: np.random.Generator) -> int:
        """An outcome drawn with the event's probabilities."""
        if self.weights is None:
            return self.outcomes[int(rng.integers(len(self.outcomes)))]
        pick_ = int(rng.integers(sum(self.weights)))
        for o, w in zip(self.outcomes, self.weights, strict=True):
            if pick_ < w:
                return o
            pick_ -= w
        raise RuntimeError("unreachable")


class ChanceSource:
    """Decides the outcome of each chance event the rules meet (instead of a generator)."""

    def draw(self, event: ChanceEvent) -> int:
        raise NotImplementedError


class ChanceExhaustedError(LookupError):
    """A :class:`ScriptedChance` without a fallback ran out of scripted outcomes."""


class SampledChance(ChanceSource):
    """Samples every event from ``rng`` by its probabilities (not the envs' numpy calls: the
    same seed gives other games than an env; use it where only the distribution matters)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def draw(self, event: ChanceEvent) -> int:
        return event.sample(self.rng)


class ScriptedChance(ChanceSource):
    """The next outcomes, fixed: ``ScriptedChance([6, 2])`` makes the next two dice a 6 and
    a 2 (for a pick, the outcome is the index :class:`ChanceEvent` lists; see
    ``chance_outcomes``). Each is checked against its event (``ValueError`` naming it).

    Args:
        outcomes: The outcomes, in the order the events happen.
        then: Where later events come from once the script is used up: a generator or a
            seed (sampled by each event's probabilities), another :class:`ChanceSource`
            (it draws them), or ``None`` to raise :class:`ChanceExhaustedError` naming the
            event.
    """

    def __init__(self, outcomes: Iterable[int],
                 then: np.random.Generator | ChanceSource | int | None = None) -> None:
        self.outcomes = list(outcomes)
        self.used = 0
        self.events: list[ChanceEvent] = []
        self.then = np.random.default_rng(then) if isinstance(then, int) else then

    @property
    def remaining(self) -> list[int]:
        """The scripted outcomes not used yet."""
        return self.outcomes[self.used:]

    def draw(self, event: ChanceEvent) -> int:
        self.events.append(event)
        if self.used < len(self.outcomes):
            outcome = event.check(self.outcomes[self.used])
            self.used += 1
            return outcome
        if self.then is None:
            raise ChanceExhaustedError(
                f"the script's {len(self.outcomes)} outcome(s) are used up; next event: "
                f"{event.label!r} with outcomes {list(event._possible())[:12]}")
        if isinstance(self.then, ChanceSource):
            return self.then.draw(event)
        return event.sample(self.then)


class DuplicateChance(ChanceSource):
    """Chance fixed per event, for duplicate games: the ``k``-th event with a given label
    (``"die"``, ``"environment card"``, ``"deck (3 of 40)"``, ...) in a given ``context`` of a
    game seeded ``seed`` draws the ``k``-th uniform number ``u`` of a stream fixed by
    ``(seed, context, label)``, and its outcome is the one whose share of the probability
    holds ``u``.

    ``context`` is whatever the game loop sets before a step (``None`` at the setup);
    :func:`~primeval.training.evaluate.play_game` sets the seat that acts, so that the
    ``k``-th die rolled during seat 2's decisions is the same in every game of this seed,
    whoever sits there and whatever happened elsewhere. So two games with the same seed get
    the same setup (deal, start player) and, as far as play lets them, the same luck per
    seat (an event whose possible outcomes differ between the games, a deck already thinned
    otherwise, say, may fall differently). Tournaments replay each seed for every seat
    rotation of the same agents (``duplicate=True``), so that luck cancels across seats.
    The env's generator is not used (``env.unwrapped.use_chance(DuplicateChance(seed))``).
    """

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self.context: Any = None
        self._streams: dict[tuple[Any, str], np.random.Generator] = {}
        self._counts: dict[tuple[Any, str], int] = {}

    def draw(self, event: ChanceEvent) -> int:
        key = (self.context, event.label)
        stream = self._streams.get(key)
        if stream is None:
            import zlib

            words = [zlib.crc32(repr(part).encode("utf-8")) for part in key]
            stream = self._streams[key] = np.random.default_rng([self.seed, *words])
        self._counts[key] = self._counts.get(key, 0) + 1
        u = float(stream.random())
        weights = event.weights or (1,) * len(event.outcomes)
        target = u * sum(weights)
        for outcome, weight in zip(event.outcomes, weights, strict=True):
            if target < weight:
                return outcome
            target -= weight
        return next(o for o, w in zip(event.outcomes[::-1], weights[::-1], strict=True) if w)

    def get_state(self) -> dict[tuple[Any, str], int]:
        """How many events of each (context, label) were drawn, and the context
        (:meth:`set_state` rewinds to it)."""
        return {**self._counts, "context": self.context}

    def set_state(self, state: dict) -> None:
        """Rewind to :meth:`get_state`'s counts (the env does, when a step fails)."""
        self._streams, self._counts = {}, {}
        for key, count in state.items():
            if key == "context":
                continue
            self.context = key[0]
            for _ in range(count):
                self.draw(ChanceEvent("pick", key[1], (0,)))
        self.context = state.get("context")


# -- the three kinds of event, as the rules call them ----------------------------------


def roll_die(rng: Any, label: str = "die") -> int:
    """One six-sided die: 1..6."""
    if type(rng) is _GENERATOR:
        return int(rng.integers(1, 7))
    return rng.draw(ChanceEvent("die", label, _DIE))


def pick(rng: Any, n: int, label: str, weights: Sequence[int] | None = None) -> int:
    """One of ``0..n-1``: equally likely, or by integer ``weights`` (counts of identical
    items, e.g. face-down tiles by level)."""
    if type(rng) is _GENERATOR:
        if weights is None:
            return int(rng.integers(n))
        chosen = int(rng.integers(sum(weights)))
        for i, w in enumerate(weights):
            if chosen < w:
                return i
            chosen -= w
        raise RuntimeError("unreachable")
    if weights is not None:
        possible = [i for i, w in enumerate(weights) if w > 0]
        if len(possible) == 1:  # a certain outcome is no chance node
            return possible[0]
    elif n == 1:
        return 0
    return rng.draw(ChanceEvent("pick", label, tuple(range(n)),
                                None if weights is None else tuple(weights)))


def shuffle(rng: Any, n: int, label: str) -> list[int] | np.ndarray:
    """A random order of ``0..n-1`` (a permutation), drawn position by position from a
    :class:`ChanceSource`: the outcome of draw ``i`` is the index among the items left."""
    if type(rng) is _GENERATOR:
        return rng.permutation(n)
    left = list(range(n))
    order = []
    for i in range(n):
        k = 0 if len(left) == 1 else rng.draw(
            ChanceEvent("shuffle", f"{label} ({i + 1} of {n})", tuple(range(len(left)))))
        order.append(left.pop(k))
    return order


# -- explicit chance ---------------------------------------------------------------------


@dataclass(frozen=True)
class ChanceNode:
    """A point where chance moves next: the transition from ``state`` by ``action`` (or the
    setup, when ``action`` is ``None``) with ``outcomes`` fixed so far, waiting on
    ``event``. Immutable; ``state`` is never changed."""

    state: Any
    action: int | None
    outcomes: tuple[int, ...]
    event: ChanceEvent


class _Pending(Exception):  # noqa: N818  (a control-flow signal, not an error)
    def __init__(self, event: ChanceEvent) -> None:
        self.event = event


class _Recorded(SampledChance):
    """:class:`SampledChance` that notes each event it draws for and the outcome drawn."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.met: list[tuple[ChanceEvent, int]] = []

    def draw(self, event: ChanceEvent) -> int:
        outcome = super().draw(event)
        self.met.append((event, outcome))
        return outcome


class _Replay(ChanceSource):
    """Gives the fixed outcomes, then stops the transition at the next event."""

    def __init__(self, outcomes: tuple[int, ...]) -> None:
        self.outcomes = outcomes
        self.used = 0

    def draw(self, event: ChanceEvent) -> int:
        if self.used < len(self.outcomes):
            self.used += 1
            return self.outcomes[self.used - 1]
        raise _Pending(event)


class ExplicitChance:
    """The rules with every random event as a chance node.

    Works with any rules object whose random events go through this module's functions and
    whose ``apply(state, action, rng)`` copies the state before changing it (the
    :class:`~primeval.envs.core.frames.FrameRules` games do). States that are not
    :class:`ChanceNode` are ordinary rules states: ``legal_mask``, ``scores``, the encoders
    and views take them as they are.
    """

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    def initial_state(self) -> Any:
        """The setup: a chance node (the first random event of the setup) or a state."""
        return self._run(None, None, ())

    def apply(self, state: Any, action: int) -> Any:
        """The state after a player's ``action``, or the chance node the transition meets
        first. ``IllegalActionError`` as ``rules.apply``."""
        if isinstance(state, ChanceNode):
            raise ValueError("apply: chance moves at this node; use apply_chance")
        return self._run(state, action, ())

    @staticmethod
    def is_chance_node(state: Any) -> bool:
        return isinstance(state, ChanceNode)

    def current_player(self, state: Any) -> int:
        """:data:`CHANCE_PLAYER` at a chance node, else the rules' seat (-1: game over)."""
        if isinstance(state, ChanceNode):
            return CHANCE_PLAYER
        return self.rules.current_player(state)

    def is_terminal(self, state: Any) -> bool:
        return not isinstance(state, ChanceNode) and self.rules.is_terminal(state)

    def chance_outcomes(self, node: ChanceNode) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` of the pending event; the probabilities sum to 1."""
        self._need_node(node, "chance_outcomes")
        return [(o, p) for o, p in node.event.probabilities() if p > 0]

    def apply_chance(self, node: ChanceNode, outcome: int) -> Any:
        """The state (or next chance node) once the pending event has ``outcome``;
        ``ValueError`` naming the event if that outcome cannot happen."""
        self._need_node(node, "apply_chance")
        outcome = node.event.check(outcome)
        return self._run(node.state, node.action, (*node.outcomes, outcome))

    def apply_sampled(self, state: Any, action: int,
                      rng: np.random.Generator) -> list[tuple[int | None, Any]]:
        """``apply(state, action)``, then, while that gives a chance node, an outcome of its
        event drawn with ``event.sample(rng)`` and ``apply_chance`` of it, and so on: the list
        ``[(None, what apply gave), (outcome, what apply_chance gave), ...]``, the last
        one's state a player decides in (or the game's end).

        The same list, and ``rng`` left in the same state, as those calls (the events are
        sampled in the order they are met), in one run of the rules' transition where the
        calls run it once to the first event and again once per event: a shuffle of ``n``
        cards is ``n - 1`` events, so a planner that samples its way through chance pays one
        transition instead of ``n + 1`` (``tests/envs/core/test_chance_sampled.py`` checks
        it against those calls). ``IllegalActionError`` as ``rules.apply``."""
        if isinstance(state, ChanceNode):
            raise ValueError("apply_sampled: chance moves at this node; use "
                             "apply_chance_sampled")
        return self._sampled_run(state, action, (), None, rng)[0]

    def transition_sampled(self, state: Any, action: int, rng: np.random.Generator,
                           mask: np.ndarray) -> tuple[list[tuple[int | None, Any]], Any]:
        """:meth:`apply_sampled` for a caller that has ``state``'s legal mask and keeps the
        masks itself (as ``rules.transition`` is for ``rules.apply``): the walk, and the
        legal mask of its last state (``None`` when the rules have no ``transition``). The
        states carry no mask of their own."""
        if isinstance(state, ChanceNode):
            raise ValueError("transition_sampled: chance moves at this node; use "
                             "apply_chance_sampled")
        return self._sampled_run(state, action, (), None, rng, mask)

    def apply_chance_sampled(self, node: ChanceNode, outcome: int,
                             rng: np.random.Generator) -> list[tuple[int, Any]]:
        """``apply_chance(node, outcome)``, then, while that gives a chance node, an outcome
        of its event drawn with ``event.sample(rng)`` and ``apply_chance`` of it, and so on:
        the list of ``(outcome, what apply_chance gave)``, the first pair ``outcome``'s, the
        last one's state a player decides in (or the game's end); in one run of the
        transition, as :meth:`apply_sampled`."""
        self._need_node(node, "apply_chance_sampled")
        return self._sampled_run(node.state, node.action,
                                 (*node.outcomes, node.event.check(outcome)), outcome, rng)[0]

    def _sampled_run(self, state: Any, action: int | None, fixed: tuple[int, ...],
                     first: int | None, rng: np.random.Generator,
                     mask: np.ndarray | None = None) -> tuple[list[tuple[Any, Any]], Any]:
        """One run of the transition from ``state`` by ``action`` (the setup when ``None``)
        with ``fixed`` outcomes, then every later event sampled from ``rng``: ``(first,
        the first node or state reached)`` and ``(outcome, the next)`` for each event
        sampled, each chance node the one :meth:`apply_chance` would give there; and, given
        ``state``'s ``mask``, the last state's (by ``rules.transition``), else ``None``."""
        sampled = _Recorded(rng)
        source = ScriptedChance(fixed, then=sampled)  # the fixed outcomes, then sampled ones
        end_mask = None
        if action is None:
            end = self.rules.initial_state(source)
        elif mask is not None and hasattr(self.rules, "transition"):
            end, end_mask = self.rules.transition(state, action, source, mask)
        else:
            end = self.rules.apply(state, action, source)
        outcomes, reached = fixed, []
        for event, drawn in sampled.met:
            reached.append(ChanceNode(state, action, outcomes, event))
            outcomes = (*outcomes, drawn)
        reached.append(end)
        return list(zip((first, *(o for _, o in sampled.met)), reached, strict=True)), end_mask

    def sample_chance(self, node: ChanceNode, rng: np.random.Generator) -> int:
        """An outcome of the pending event, drawn with its probabilities."""
        self._need_node(node, "sample_chance")
        return node.event.sample(rng)

    def resolve(self, state: Any, rng: np.random.Generator) -> Any:
        """Sample chance nodes until a player decides (or the game is over): each outcome
        drawn with ``event.sample(rng)``, the transition run once
        (:meth:`apply_chance_sampled`)."""
        if isinstance(state, ChanceNode):
            state = self.apply_chance_sampled(state, state.event.sample(rng), rng)[-1][1]
        return state

    # internals

    @staticmethod
    def _need_node(node: Any, what: str) -> None:
        if not isinstance(node, ChanceNode):
            raise ValueError(f"{what}: not a chance node (a player moves here)")

    def _run(self, state: Any, action: int | None, outcomes: tuple[int, ...]) -> Any:
        replay = _Replay(outcomes)
        try:
            if action is None:
                return self.rules.initial_state(replay)
            return self.rules.apply(state, action, replay)
        except _Pending as pending:
            return ChanceNode(state, action, outcomes, pending.event)
