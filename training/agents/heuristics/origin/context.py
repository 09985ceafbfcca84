"""What the Origin heuristic knows of a position: per-rules tables and per-decision context.

:class:`_Static` holds what never changes for one rules object (territory colours and
continents, strait ends, pawn traits, action offsets); :class:`_Ctx` is the position seen by
the deciding player, with the costlier pieces (scores, threats, target distances) computed on
first use.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.rules.scoring import total
from primeval.envs.origin.state import EMPTY, OriginState

if TYPE_CHECKING:
    from primeval.training.agents.heuristics.origin.agent import ReferenceOriginHeuristic

ALL_COLUMNS = ("yellow", "orange", "purple", "brown")
OTHER_COLUMNS = ("yellow", "orange", "purple")
#: Action segments of the two halves of Evolve, Migrate and Swap.
FIRST_HALF = {"evolve": "evolve_at", "migrate": "migrate_from", "swap": "swap_from"}
SECOND_HALF = {"evolve": "evolve_pawn", "migrate": "migrate_to", "swap": "swap_onto"}


class _Static:
    """Per-rules tables: territory colours, continents, strait ends, pawn traits."""

    def __init__(self, rules: OriginRules) -> None:
        data = rules.data
        world = data.world
        self.size = world.size
        self.colour = [t.colour for t in world.territories]
        self.continent = [t.continent for t in world.territories]
        self.neighbours = world.neighbours
        self.distance = world.distance
        self.dist: list[list[int]] = world.distance.tolist()
        self.straits = world.straits
        self.strait_ends: list[list[tuple[int, int]]] = [[] for _ in range(world.size)]
        for s, (a, b) in enumerate(world.straits):
            self.strait_ends[a].append((s, b))
            self.strait_ends[b].append((s, a))
        self.traits = data.components.pawn_types
        self.tile_points = data.components.tile_points
        self.cards = data.cards
        self.card_colour = [c.colour for c in data.cards]
        self.origin = world.origin
        self.slot_colours = data.components.slot_colours
        layout = rules.layout
        self.offset = {name: layout.offset(name) for name in layout.names}
        self.pass_action = layout.encode("pass")


class _Ctx:
    """What one decision of one player needs: the position seen by that player. The costlier
    pieces are computed on first use."""

    def __init__(self, agent: ReferenceOriginHeuristic, rules: OriginRules, state: OriginState,
                 player: int) -> None:
        st = agent._static_for(rules)
        self.agent, self.rules, self.state, self.player, self.st = agent, rules, state, player, st
        self.n = state.num_players
        self.mine = state.territories_of(player)
        self.mine_types = [state.pawn[t] for t in self.mine]
        self.rounds_left = agent._rounds_left(state)
        self.ff = min(1.0, max(0.0, (self.rounds_left - 0.5) / 3.0))
        self.last_turn = state.phase == "final_round"
        self.objectives = [c for c in state.hands[player] if st.card_colour[c] == "purple"]
        self.hunt_spots = [t for t in range(st.size)
                           if state.hunt_owner[t] == -1 and state.hunt_value[t] > 0]
        self.hunts_on_board = len(self.hunt_spots)
        self.straits_on_board = sum(1 for o in state.strait_owner if o == -1)
        self.hunts_owned = sum(1 for o in state.hunt_owner if o == player)
        self.straits_owned = sum(1 for o in state.strait_owner if o == player)
        self._target_dist: dict[tuple[str, str], tuple[list[int], int]] = {}

    @cached_property
    def scores(self) -> list[int]:
        """Everybody's points so far (public information only)."""
        return [total(self.rules, self.state, q) for q in range(self.n)]

    @cached_property
    def lead(self) -> int:
        return self.scores[self.player] - max(
            s for q, s in enumerate(self.scores) if q != self.player)

    @cached_property
    def weight(self) -> list[float]:
        """How much an opponent's loss is worth to this player (the leader counts most)."""
        leader = max(s for q, s in enumerate(self.scores) if q != self.player)
        weight = [0.0] * self.n
        for q in range(self.n):
            if q != self.player:
                weight[q] = 1.0 if self.n == 2 else (0.55 if self.scores[q] == leader else 0.3)
        return weight

    @cached_property
    def colour_value(self) -> dict[str, float]:
        """Worth of the reward of a territory of each reward colour."""
        return {c: self.agent._colour_reward(self, c)[0] for c in ALL_COLUMNS}

    @cached_property
    def moving_objectives(self) -> list[int]:
        """Objectives in hand whose condition a move can change."""
        return [c for c in self.objectives
                if self.st.cards[c].kind not in ("column_level", "permanents_in_play")]

    @cached_property
    def obj_now(self) -> float:
        return self.agent._objective_value(self, self.mine, self.mine_types, 0, 0,
                                           self.moving_objectives)

    @cached_property
    def threat(self) -> list[int]:
        """Per territory, the widest opponent pawn that could swap onto it next turn (its
        height in steps away), or 0."""
        st, state = self.st, self.state
        threat = [0] * st.size
        for u, o in enumerate(state.owner):
            if o < 0 or o == self.player:
                continue
            h, w, _ = st.traits[state.pawn[u]]
            row = st.dist[u]
            for t in range(st.size):
                if row[t] <= h and w > threat[t]:
                    threat[t] = w
        return threat

    @cached_property
    def hunt_reach(self) -> dict[int, int]:
        """Empty territories with a hunting token -> how many own pawns reach them."""
        st, state = self.st, self.state
        reach = {}
        for k in self.hunt_spots:
            if state.owner[k] == EMPTY:
                reach[k] = sum(1 for t, p in zip(self.mine, self.mine_types, strict=True)
                               if st.dist[t][k] <= st.traits[p][0])
        return reach

    def targets(self, key: str, value: str) -> tuple[list[int], int]:
        """For the empty territories of a colour or continent: per territory, the distance to
        the nearest one (99 when there is none), and how many there are."""
        cached = self._target_dist.get((key, value))
        if cached is None:
            st, owner = self.st, self.state.owner
            table = st.colour if key == "colour" else st.continent
            targets = [t for t in range(st.size) if table[t] == value and owner[t] == EMPTY]
            dist = (st.distance[:, targets].min(axis=1).tolist() if targets
                    else [99] * st.size)
            cached = (dist, len(targets))
            self._target_dist[(key, value)] = cached
        return cached
