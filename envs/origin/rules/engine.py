"""The Origin rules object: pure functions over :class:`OriginState`."""

from __future__ import annotations

import numpy as np

from primeval.envs.core.frames import FrameRules
from primeval.envs.origin.actions import build_layout
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.rules import (  # noqa: F401  (register the frames)
    cards,
    checks,
    hidden,
    objectives,
    rewards,
    scoring,
    setup,
    turn,
)
from primeval.envs.origin.rules.registry import REGISTRY
from primeval.envs.origin.state import OriginState


class OriginRules(FrameRules):
    """Origin for 2 to 4 players.

    Args:
        config: An :class:`OriginConfig`; keyword overrides build one when omitted.
    """

    name = "origin"
    registry = REGISTRY
    #: The sources of :meth:`points_by_source`.
    point_sources = scoring.POINT_SOURCES

    def __init__(self, config: OriginConfig | None = None, **overrides) -> None:
        if config is None:
            config = OriginConfig.from_overrides(**overrides)
        elif overrides:
            raise ValueError("pass either a config or keyword overrides, not both")
        self.config = config
        self.data = config.data
        self.num_players = config.num_players
        self.layout = build_layout(self.data)

    def initial_state(self, rng: np.random.Generator) -> OriginState:
        """Set up the table (origin.md "Setup") and play until the first decision."""
        state = setup.set_up_table(self, rng)
        self.advance(state, rng)
        return state

    def is_terminal(self, state: OriginState) -> bool:
        return state.phase == "game_over"

    def scores(self, state: OriginState) -> list[float]:
        """Final points; with ``score_tiebreak`` plus cards in hand / 100 (the tie-break)."""
        result = []
        for p, by_source in enumerate(scoring.all_points(self, state)):
            points = float(sum(by_source.values()))
            if self.config.score_tiebreak:
                points += len(state.hands[p]) / 100.0
            result.append(points)
        return result

    def points_by_source(self, state: OriginState) -> list[dict[str, int]]:
        """Every player's points by source (:data:`point_sources`), in seat order; their
        sums are :meth:`scores` without the tie-break."""
        return scoring.all_points(self, state)

    def points_in_prospect(self, state: OriginState) -> list[float]:
        """Per player, the points of the objectives in hand, each times how much of its
        condition holds now (:func:`~primeval.envs.origin.rules.objectives.progress`): what
        reward shaping may count ahead of the points themselves (the rules never ask)."""
        return [objectives.points_in_prospect(self, state, p)
                for p in range(state.num_players)]

    def sample_determinization(self, state: OriginState, observer: int,
                               rng: np.random.Generator) -> OriginState:
        """The other hands, the decks and the face-down tiles dealt anew from what
        ``observer`` cannot see (:func:`~primeval.envs.origin.rules.hidden.sample_determinization`)."""
        return hidden.sample_determinization(self, state, observer, rng)

    def determinizer(self, state: OriginState, observer: int):
        """:meth:`sample_determinization` of ``state`` as a function of the ``rng``, what
        every draw shares worked out once
        (:func:`~primeval.envs.origin.rules.hidden.determinizer`)."""
        return hidden.determinizer(self, state, observer)

    def state_from_dict(self, data: dict) -> OriginState:
        checks.check_dict(data)
        return OriginState.from_dict(data)

    def check_state(self, state: OriginState) -> None:
        """Raise ``ValueError`` naming the first field of a (loaded) state that breaks a rule
        (the invariants are in :mod:`~primeval.envs.origin.rules.checks`)."""
        checks.check_state(self, state)

    def describe_fields(self, state: OriginState, frame: dict) -> dict:
        """The frame's fields, its ``territory`` by the territory's id (``AF1``)."""
        fields = dict(frame)
        if isinstance(frame.get("territory"), int):
            fields["territory"] = self.data.world.territories[frame["territory"]].id
        return fields
