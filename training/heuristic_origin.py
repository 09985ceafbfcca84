"""A rule-based heuristic agent for Origin.

:class:`OriginHeuristic` reads the rules state (``env.unwrapped.game_state``) and answers the
pending decision (the top frame of ``state.stack``) with rules of thumb and a one-move
evaluation; it never looks at hidden information (other hands, deck order, the tile reserve)
except where a card shows it (Barter). It plays the way a sensible beginner does:

* **Actions**: every complete Evolve (territory, pawn), Migrate (from, to) and Swap
  (from, onto) is scored in points: the reward of the territory entered (the best reward
  option for its colour: a tile that fits the columns, level 5 above all, with the card; a
  hunting token still on a green territory), strait tokens completed, the change in the
  player's own objectives (each valued by its points and how many pawns it still needs,
  checked exactly by counting), and a few positional terms scaled by how much of the game is
  left: pawns on the board, taller (range) and wider (swap protection) pawns, strait ends
  held, hunting tokens in reach, pawns an opponent's wider pawn could swap. Swaps also count
  what the victim loses.
* **Cards**: objectives are played as soon as they hold (they score at once; in the final
  round all of them). Orange permanents are played when their estimated worth over the rest
  of the game beats the point a card in hand is worth. Yellow cards are played when they pay:
  range / free straits / Mutation when they improve this turn's best action by more than a
  point, extra actions and the Raft when the extra move is worth it, Great Hunt, Raid, Claim
  the Strait and Theft against the leader, Foresight and Inspiration when they gain.
* **Rewards**: tile and card when a fitting tile is there (or when it is worth more than the
  draw), else draw 3; brown: the better of two brown tiles (taken greedily) and one tile from
  another column. Cards returned are the least useful; objectives above the hand limit are the
  least valuable.

Every answer is checked against the action mask; if a rule finds nothing legal the agent
falls back to a uniformly random legal action from its own seeded generator (counted in
``fallbacks``). A few thousand decisions per second on one core.

Usage::

    env = origin_v0.raw_env(num_players=3)
    agent = OriginHeuristic(env.unwrapped.rules, seed=0)
    action = agent.act(obs["observation"], obs["action_mask"],
                       state=env.unwrapped.game_state, seat=seat)
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.rules.common import (
    DECK_INDEX,
    can_place,
    compatible,
    evolve_changes,
    evolve_distance,
    has_effect,
    migrate_options,
    objective_limit,
    swap_options,
    takeable_slots,
)
from primeval.envs.origin.rules.scoring import total
from primeval.envs.origin.state import DECKS, EMPTY, OriginState

__all__ = ["OriginHeuristic"]

ALL_COLUMNS = ("yellow", "orange", "purple", "brown")
OTHER_COLUMNS = ("yellow", "orange", "purple")
FIRST_HALF = {"evolve": "evolve_at", "migrate": "migrate_from", "swap": "swap_from"}
SECOND_HALF = {"evolve": "evolve_pawn", "migrate": "migrate_to", "swap": "swap_onto"}

#: Yellow effects worth playing before the turn's action (the others wait until after it,
#: so that an extra action or a raft can still use the one yellow card of the turn).
PRE_ACTION_YELLOW = ("range_bonus", "free_straits", "evolve_changes", "great_hunt",
                     "steal_card", "steal_strait_token")
#: Worth (in points, over a whole game) of holding a yellow card for later, beyond its point.
YELLOW_KEEP = {
    "extra_action": 0.8, "range_bonus": 0.3, "raft": 0.4, "free_straits": 0.2,
    "steal_card": 0.3, "steal_tile": 0.6, "steal_strait_token": 0.3, "take_tile": 0.4,
    "draw_cards": 0.9, "barter": 0.1, "great_hunt": 0.8, "exchange_pawns": 0.0,
    "evolve_changes": 0.2,
}
#: Worth (in points, over a whole game) of an orange card's effect once in play.
ORANGE_EFFECT = {
    "range_bonus": 1.6, "objective_limit": 1.1, "fewer_returns": 1.6, "hunt_draw": 1.2,
    "free_straits": 1.2, "brown_any_columns": 1.4, "empty_hunt_draw": 1.1,
    "evolve_changes": 1.1, "swap_equal_width": 1.3, "evolve_distance": 1.3,
    "strait_tile": 1.3, "objective_bonus": 1.6, "column_bonus": 0.0, "leadership": 2.0,
}
#: Worth of a card just drawn from each deck, its point included.
CARD_DRAW = {"yellow": 1.3, "orange": 1.25, "purple": 1.35}


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

    def __init__(self, agent: OriginHeuristic, rules: OriginRules, state: OriginState,
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


class OriginHeuristic:
    """Rule-based Origin player (see the module docstring).

    Args:
        rules: The game's :class:`OriginRules` (best: ``env.unwrapped.rules``) or an
            :class:`OriginConfig`; ``None`` builds the default rules for the state's player
            count on first use.
        seed: Seed of the generator used for fallbacks (a uniformly random legal action).

    Attributes:
        name: ``"heuristic"``.
        rng: The fallback generator.
        fallbacks: How many decisions were answered by the random fallback.
    """

    name = "heuristic"

    #: How much an objective's worth shrinks per pawn (or token, tile, ...) it still needs.
    objective_decay = 0.55
    #: Positional worth (points, early in the game) of: one more pawn on the board; each
    #: height step (range) and width step (safe from swaps, able to swap); a pawn that an
    #: opponent's wider pawn could swap next turn (negative); holding one end of an open
    #: strait, per point of its token; the best hunting token in reach, per point.
    pawn_weight = 0.45
    height_weight = 0.18
    width_weight = 0.22
    exposed_weight = 0.35
    strait_end_weight = 0.2
    hunt_reach_weight = 0.2
    #: Worth of the cards kept with the "draw 3, return 2" option, relative to a drawn card.
    draw_option_factor = 1.0
    #: Worth of displacing an opponent's pawn by a swap (times the opponent's weight).
    swap_harm_weight = 0.3

    def __init__(self, rules: OriginRules | OriginConfig | None = None,
                 seed: int | None = None) -> None:
        if rules is None or isinstance(rules, OriginRules):
            self._rules = rules
        elif isinstance(rules, OriginConfig):
            self._rules = OriginRules(rules)
        else:
            raise TypeError(
                "OriginHeuristic takes OriginRules, an OriginConfig or None, "
                f"got {type(rules).__name__}"
            )
        self._default_rules: dict[int, OriginRules] = {}
        self._statics: dict[int, tuple[OriginRules, _Static]] = {}
        self.rng = np.random.default_rng(seed)
        #: Decisions the rules of thumb did not cover (answered by a random legal action).
        self.fallbacks = 0

    def seed(self, seed: int | None) -> None:
        """Reseed the fallback generator."""
        self.rng = np.random.default_rng(seed)

    # ---------------------------------------------------------------------------------------
    # Entry point
    # ---------------------------------------------------------------------------------------

    def act(self, observation: Any, action_mask: np.ndarray, *, state: OriginState | None = None,
            seat: int | None = None) -> int:
        """A legal action id for the pending decision of ``state``.

        Raises:
            ValueError: ``state`` is None (this agent needs the rules state), or the mask has no
                legal action.
        """
        if state is None:
            raise ValueError(
                "OriginHeuristic.act needs the rules state: pass "
                "state=env.unwrapped.game_state (and seat=the acting seat)"
            )
        mask = np.asarray(action_mask).astype(bool, copy=False)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("OriginHeuristic.act: the action mask has no legal action")
        if legal.size == 1:
            return int(legal[0])
        if not state.stack:
            self.fallbacks += 1
            return int(self.rng.choice(legal))
        frame = state.stack[-1]
        rules = self._rules_for(state)
        handler = getattr(self, "_decide_" + frame["kind"], None)
        action = None
        if handler is not None:
            player = frame.get("player", seat if seat is not None else state.current)
            action = handler(rules, state, frame, player, mask)
        if action is None or not (0 <= action < mask.size) or not mask[action]:
            self.fallbacks += 1
            action = int(self.rng.choice(legal))
        return int(action)

    def _rules_for(self, state: OriginState) -> OriginRules:
        if self._rules is not None:
            if self._rules.num_players != state.num_players:
                raise ValueError(
                    f"OriginHeuristic was given rules for {self._rules.num_players} players "
                    f"but the state has {state.num_players}"
                )
            return self._rules
        rules = self._default_rules.get(state.num_players)
        if rules is None:
            rules = OriginRules(num_players=state.num_players)
            self._default_rules[state.num_players] = rules
        return rules

    def _static_for(self, rules: OriginRules) -> _Static:
        entry = self._statics.get(id(rules))
        if entry is None or entry[0] is not rules:
            entry = (rules, _Static(rules))
            self._statics[id(rules)] = entry
        return entry[1]

    # ---------------------------------------------------------------------------------------
    # Game length
    # ---------------------------------------------------------------------------------------

    @staticmethod
    def _rounds_left(state: OriginState) -> float:
        """Rough number of rounds still to come, this one included (0.5: my last turn)."""
        if state.phase == "final_round":
            return 0.5
        if state.end_triggered:
            return 1.0
        n = state.num_players
        decks = min(len(d) for d in state.decks)
        by_decks = decks / (0.35 * n)
        tiles = sum(1 for s in state.slots if s) + sum(state.tile_reserve)
        by_tiles = tiles / (0.9 * n)
        by_pawns = sum(state.reserve) / (0.6 * n)
        by_villages = max(state.villages) / 0.6
        return 1.0 + min(by_decks, by_tiles, by_pawns, by_villages)

    # ---------------------------------------------------------------------------------------
    # Tiles and rewards
    # ---------------------------------------------------------------------------------------

    def _tile_value(self, ctx: _Ctx, level: int, columns: list[list[int]] | None = None) -> float:
        """Points a tile of this level is worth to the player (it must fit)."""
        st, state, player = ctx.st, ctx.state, ctx.player
        if columns is None:
            columns = state.columns[player]
        value = float(st.tile_points[level])
        value += 0.25 * (level - 1) * ctx.ff
        owned = {lv for col in columns for lv in col}
        if level not in owned:
            for c in state.hands[player]:
                card = st.cards[c]
                if card.colour == "orange" and card.level == level:
                    value += 0.6 * ctx.ff
                    break
        for c in ctx.objectives:
            cond = st.cards[c].effect
            if cond["kind"] == "column_level":
                top = max((col[-1] for col in columns if col), default=0)
                if top < cond["level"]:
                    if level >= cond["level"]:
                        value += st.cards[c].points
                    elif level == cond["level"] - 1 and level > top:
                        value += 0.4 * st.cards[c].points * ctx.ff
        for c in state.permanents[player]:
            effect = st.cards[c].effect
            if effect["kind"] == "column_bonus" and level == effect["level"]:
                value += effect["points"]
        if level < 5 and ctx.ff > 0 and any(s == level + 1 for s in state.slots):
            value += 0.15  # a higher tile face up that this one lets the player take next
        return value

    def _best_tiles(self, ctx: _Ctx, colours: tuple[str, ...], count: int
                    ) -> tuple[float, list[int]]:
        """Greedy best ``count`` tiles from slots of these colours: (worth, slots)."""
        st, state, player = ctx.st, ctx.state, ctx.player
        columns = [list(col) for col in state.columns[player]]
        taken: list[int] = []
        worth = 0.0
        for _ in range(count):
            best, best_v = None, 0.0
            for i, level in enumerate(state.slots):
                if (not level or i in taken or st.slot_colours[i] not in colours
                        or not _fits(columns, level)):
                    continue
                v = self._tile_value(ctx, level, columns)
                if best is None or v > best_v:
                    best, best_v = i, v
            if best is None:
                break
            taken.append(best)
            worth += best_v
            _place(columns, state.slots[best])
        return worth, taken

    def _card_draw_value(self, ctx: _Ctx, colour: str) -> float:
        value = CARD_DRAW[colour]
        if colour == "purple":
            limit = objective_limit(ctx.rules, ctx.state, ctx.player)
            if len(ctx.objectives) >= limit:
                value = 1.0 + 0.1
        return value * (1.0 if not ctx.last_turn else 1.0 / CARD_DRAW[colour])

    def _colour_reward(self, ctx: _Ctx, colour: str) -> tuple[float, int]:
        """Worth of the reward of a territory of this colour and the option (0 or 1)."""
        state, rules, player = ctx.state, ctx.rules, ctx.player
        if colour == "brown":
            any_column = has_effect(rules, state, player, "brown_any_columns")
            a, _ = self._best_tiles(ctx, ALL_COLUMNS if any_column else ("brown",), 2)
            b, _ = self._best_tiles(ctx, OTHER_COLUMNS, 1)
            return (a, 0) if a >= b else (b, 1)
        deck = state.decks[DECK_INDEX[colour]]
        tile, _ = self._best_tiles(ctx, (colour,), 1)
        a = tile + (self._card_draw_value(ctx, colour) if deck else 0.0)
        drawn = min(3, len(deck))
        returns = 2
        for c in state.permanents[player]:
            effect = ctx.st.cards[c].effect
            if effect["kind"] == "fewer_returns":
                returns = min(returns, int(effect["returns"]))
        keep = min(drawn, 3 - returns)  # the rules return drawn - (3 - returns) cards
        b = keep * self._card_draw_value(ctx, colour) * self.draw_option_factor
        if drawn > keep and keep > 0:
            b += 0.3 if colour != "purple" else 0.45  # keep the best of those drawn
        if colour == "purple" and keep and len(ctx.objectives) + keep > objective_limit(
                rules, state, player):
            b -= 0.1
        return (a, 0) if a >= b else (b, 1)

    def _reward_value(self, ctx: _Ctx, territory: int, via: str) -> float:
        st, state = ctx.st, ctx.state
        colour = st.colour[territory]
        if colour in ctx.colour_value:
            return ctx.colour_value[colour]
        if colour == "green" and via != "swap":
            if state.hunt_owner[territory] == -1 and state.hunt_value[territory] > 0:
                value = float(state.hunt_value[territory])
                if has_effect(ctx.rules, state, ctx.player, "hunt_draw"):
                    value += 1.2
                return value
            if has_effect(ctx.rules, state, ctx.player, "empty_hunt_draw"):
                return 1.2
        return 0.0

    # ---------------------------------------------------------------------------------------
    # Objectives and position
    # ---------------------------------------------------------------------------------------

    def _effort(self, ctx: _Ctx, cond: dict, terrs: list[int], types: list[int],
                extra_hunts: int, extra_straits: int) -> float:
        """Roughly how many more gains (pawns placed, tokens, tiles...) an objective needs."""
        st, state = ctx.st, ctx.state
        kind = cond["kind"]
        if kind in ("pawns_on_colour", "pawns_on_continent"):
            key = "colour" if kind == "pawns_on_colour" else "continent"
            value = cond[key]
            table = st.colour if key == "colour" else st.continent
            have = sum(1 for t in terrs if table[t] == value)
            need = cond["count"] - have
            if need <= 0:
                return 0.0
            dist, avail = ctx.targets(key, value)
            travel = min(dist[t] for t in terrs) if terrs else dist[st.origin]
            if travel >= 99:
                return need + 4.0
            effort = need + 0.5 * max(0, travel - 1)
            if avail < need:
                effort += 2.0
            return effort
        if kind == "connected_group":
            same = cond.get("same_continent", False)
            need_cont = cond.get("min_continents", 1)
            mine = set(terrs)
            seen: set[int] = set()
            need = cond["count"] + need_cont - 1
            for start in terrs:
                if start in seen:
                    continue
                group, frontier = {start}, [start]
                cont = st.continent[start]
                while frontier:
                    t = frontier.pop()
                    for u in st.neighbours[t]:
                        if u in mine and u not in group and (not same or st.continent[u] == cont):
                            group.add(u)
                            frontier.append(u)
                seen |= group
                short = max(0, need_cont - len({st.continent[t] for t in group}))
                need = min(need, max(0, cond["count"] - len(group)) + short)
            return float(need)
        if kind == "continents_present":
            have = len({st.continent[t] for t in terrs})
            need = cond["count"] - have
            return 0.0 if need <= 0 else 1.3 * need
        if kind == "pawns_with_trait":
            i = 0 if cond["trait"] == "height" else 1
            values = [st.traits[p][i] for p in types]
            have = sum(1 for v in values if v == cond["value"])
            need = cond["count"] - have
            if need <= 0:
                return 0.0
            top = max(values, default=1)
            return need + (0.0 if top >= cond["value"] - 1 else 1.0) + 0.3 * need
        if kind == "colour_set":
            counts = [0, 0, 0]
            for p in types:
                counts[st.traits[p][2]] += 1
            return float(sum(max(0, cond["count"] - k) for k in counts))
        if kind == "tokens_owned":
            if cond["token"] == "hunting":
                have, left = ctx.hunts_owned + extra_hunts, ctx.hunts_on_board - extra_hunts
            else:
                have, left = ctx.straits_owned + extra_straits, ctx.straits_on_board - extra_straits
            need = cond["count"] - have
            if need <= 0:
                return 0.0
            return need + (0.5 if cond["token"] == "strait" else 0.0) + (3.0 if left < need
                                                                          else 0.0)
        if kind == "column_level":
            top = max((col[-1] for col in state.columns[ctx.player] if col), default=0)
            return float(max(0, cond["level"] - top))
        if kind == "permanents_in_play":
            need = cond["count"] - len(state.permanents[ctx.player])
            return float(max(0, need))
        return 3.0  # a condition kind this agent does not know: assume it is far off

    def _objective_worth(self, ctx: _Ctx, points: float, effort: float) -> float:
        if effort <= 0:
            return points
        return points * ctx.ff * self.objective_decay ** effort

    def _objective_value(self, ctx: _Ctx, terrs: list[int], types: list[int],
                         extra_hunts: int, extra_straits: int,
                         objectives: list[int] | None = None) -> float:
        """Worth of the objectives in hand (all, or the given ones) with these pawns."""
        value = 0.0
        for c in ctx.objectives if objectives is None else objectives:
            card = ctx.st.cards[c]
            effort = self._effort(ctx, card.effect, terrs, types, extra_hunts, extra_straits)
            value += self._objective_worth(ctx, card.points, effort)
        return value

    def _vulnerability(self, ctx: _Ctx, territory: int, ptype: int) -> float:
        """1 when an opponent's wider pawn could swap this pawn away next turn, else 0."""
        return 1.0 if ctx.st.traits[ptype][1] < ctx.threat[territory] else 0.0

    def _pawn_term(self, ctx: _Ctx, territory: int, ptype: int) -> float:
        """Worth of one pawn standing here: height (range), width (swaps), safety."""
        h, w, _ = ctx.st.traits[ptype]
        return (self.height_weight * (h - 1) + self.width_weight * (w - 1)
                - self.exposed_weight * self._vulnerability(ctx, territory, ptype))

    def _strait_hold(self, player: int, owner_a: int, owner_b: int, value: int) -> float:
        """Worth of holding one end of an open strait: more when the other end is empty."""
        worth = 0.0
        for mine, other in ((owner_a, owner_b), (owner_b, owner_a)):
            if mine == player and other != player:
                if other == EMPTY:
                    worth += self.strait_end_weight * value
                elif other >= 0:
                    worth += 0.25 * self.strait_end_weight * value
        return worth

    def _positional_delta(self, ctx: _Ctx, kind: str, src: int | None, dst: int,
                          ptype: int) -> float:
        """Change in the placement's worth for the rest of the game: pawns on the board,
        their traits and safety, strait ends held, the best hunting token in reach."""
        if ctx.ff <= 0:
            return 0.0
        st, state, player = ctx.st, ctx.state, ctx.player
        owner = state.owner
        delta = self._pawn_term(ctx, dst, ptype)
        if src is None:
            delta += self.pawn_weight
        else:
            delta -= self._pawn_term(ctx, src, state.pawn[src])
        left = EMPTY if kind in ("migrate", "raft") else (owner[dst] if kind == "swap" else None)

        def after(x: int) -> int:
            if x == dst:
                return player
            if x == src:
                return left
            return owner[x]

        seen = set()
        for t in (src, dst):
            if t is None:
                continue
            for s, _other in st.strait_ends[t]:
                if s in seen or state.strait_owner[s] != -1:
                    continue
                seen.add(s)
                a, b = st.straits[s]
                v = state.strait_value[s]
                delta += (self._strait_hold(player, after(a), after(b), v)
                          - self._strait_hold(player, owner[a], owner[b], v))
        if ctx.hunt_reach:
            before = after_best = 0
            src_height = st.traits[state.pawn[src]][0] if src is not None else 0
            for k, count in ctx.hunt_reach.items():
                v = state.hunt_value[k]
                if count > 0:
                    before = max(before, v)
                if k == dst:
                    continue
                if src is not None and st.dist[src][k] <= src_height:
                    count -= 1
                if count > 0 or st.dist[dst][k] <= st.traits[ptype][0]:
                    after_best = max(after_best, v)
            delta += self.hunt_reach_weight * (after_best - before)
        return delta * ctx.ff

    # ---------------------------------------------------------------------------------------
    # Moves
    # ---------------------------------------------------------------------------------------

    def _move_value(self, ctx: _Ctx, kind: str, src: int | None, dst: int, ptype: int) -> float:
        """Worth in points of a complete move: ``kind`` is evolve, migrate, swap or raft."""
        st, state, player = ctx.st, ctx.state, ctx.player
        value = self._reward_value(ctx, dst, kind)
        terrs = list(ctx.mine)
        types = list(ctx.mine_types)
        if src is not None:
            i = terrs.index(src)
            del terrs[i]
            del types[i]
        terrs.append(dst)
        types.append(ptype)
        # Strait tokens completed by entering ``dst``.
        gained = 0
        for s, other in st.strait_ends[dst]:
            if state.strait_owner[s] == -1 and other != src and state.owner[other] == player:
                gained += 1
                value += state.strait_value[s]
                if has_effect(ctx.rules, state, player, "strait_tile"):
                    value += 0.8
        extra_hunts = 0
        if (kind != "swap" and st.colour[dst] == "green" and state.hunt_owner[dst] == -1
                and state.hunt_value[dst] > 0):
            extra_hunts = 1
        if kind == "swap":
            victim = state.owner[dst]
            w = ctx.weight[victim]
            value += self.swap_harm_weight * w * ctx.ff  # the victim loses a position
            for s, other in st.strait_ends[src]:
                if state.strait_owner[s] == -1 and state.owner[other] == victim:
                    value -= w * state.strait_value[s]
        if ctx.moving_objectives:
            value += self._objective_value(ctx, terrs, types, extra_hunts, gained,
                                           ctx.moving_objectives) - ctx.obj_now
        value += self._positional_delta(ctx, kind, src, dst, ptype)
        return value

    def _evolve_options(self, ctx: _Ctx) -> dict[int, list[int]]:
        """Empty territory -> pawn types that may evolve there (as the rules'
        ``evolve_options``, with neighbour lists for the usual one-step reach)."""
        rules, state, player, st = ctx.rules, ctx.state, ctx.player, ctx.st
        if state.villages[player] <= 0:
            return {}
        types = [p for p, k in enumerate(state.reserve) if k > 0]
        if not types:
            return {}
        reach = evolve_distance(rules, state, player)
        changes = evolve_changes(rules, state, player)
        owner, pawn, traits = state.owner, state.pawn, st.traits
        occupied = [t for t, o in enumerate(owner) if o != EMPTY]
        options: dict[int, list[int]] = {}
        for target in range(st.size):
            if owner[target] != EMPTY:
                continue
            if reach == 1:
                refs = {traits[pawn[u]] for u in st.neighbours[target] if owner[u] != EMPTY}
            else:
                refs = {traits[pawn[u]] for u in occupied
                        if 1 <= st.dist[target][u] <= reach}
            if not refs:
                continue
            ok = [p for p in types if any(compatible(traits[p], r, changes) for r in refs)]
            if ok:
                options[target] = ok
        return options

    def _moves(self, ctx: _Ctx, kinds, first: int | None = None
               ) -> list[tuple[float, str, int, int]]:
        """(worth, kind, first-half index, second-half index) of complete moves."""
        rules, state, player = ctx.rules, ctx.state, ctx.player
        out = []
        for kind in kinds:
            if kind == "evolve":
                for target, types in self._evolve_options(ctx).items():
                    if first is not None and target != first:
                        continue
                    for p in types:
                        out.append((self._move_value(ctx, kind, None, target, p), kind,
                                    target, p))
            else:
                fn = migrate_options if kind == "migrate" else swap_options
                for src, dests in fn(rules, state, player).items():
                    if first is not None and src != first:
                        continue
                    ptype = state.pawn[src]
                    for dst in dests:
                        out.append((self._move_value(ctx, kind, src, dst, ptype), kind, src,
                                    dst))
        return out

    @staticmethod
    def _best(moves):
        best = None
        for m in moves:
            if best is None or m[0] > best[0]:
                best = m
        return best

    def _open_kinds(self, st: _Static, mask) -> list[str]:
        kinds = []
        for kind, seg in FIRST_HALF.items():
            off = st.offset[seg]
            if mask[off: off + st.size].any():
                kinds.append(kind)
        return kinds

    # ---------------------------------------------------------------------------------------
    # Cards
    # ---------------------------------------------------------------------------------------

    def _card_keep_value(self, ctx: _Ctx, card_index: int) -> float:
        """Worth of holding a card (its end-of-game point plus what it may still do)."""
        st, state = ctx.st, ctx.state
        card = st.cards[card_index]
        ff = max(ctx.ff, 0.0)
        if card.colour == "purple":
            effort = self._effort(ctx, card.effect, ctx.mine,
                                  [state.pawn[t] for t in ctx.mine], 0, 0)
            return 1.0 + self._objective_worth(ctx, card.points, effort) * (
                1.0 if not ctx.last_turn or effort <= 0 else 0.0)
        if card.colour == "yellow":
            util = YELLOW_KEEP.get(card.kind, 0.2)
            if card.kind == "great_hunt" and ctx.hunts_on_board == 0:
                util = 0.0
            return 1.0 + util * ff
        tiles = state.tiles_of(ctx.player)
        top = max((col[-1] for col in state.columns[ctx.player] if col), default=0)
        if card.level in tiles:
            chance = 1.0
        elif card.level <= top + 1:
            chance = 0.6
        else:
            chance = 0.3
        return 1.0 + self._orange_effect(ctx, card_index) * chance * ff * 0.6

    def _orange_effect(self, ctx: _Ctx, card_index: int) -> float:
        """Estimated worth of an orange card's effect over the rest of the game."""
        st, state, player = ctx.st, ctx.state, ctx.player
        card = st.cards[card_index]
        kind = card.kind
        if kind == "column_bonus":
            cols = sum(1 for col in state.columns[player] if col and col[-1] >= card.effect["level"])
            near = sum(1 for col in state.columns[player]
                       if col and col[-1] == card.effect["level"] - 1)
            return card.effect["points"] * (cols + 0.5 * near * ctx.ff)
        value = ORANGE_EFFECT.get(kind, 0.8) * min(1.0, ctx.rounds_left / 4.0)
        if kind == "hunt_draw" and ctx.hunts_on_board == 0:
            value = 0.0  # no hunting token left to take
        if kind == "objective_limit" and len(ctx.objectives) < 2:
            value *= 0.5
        # Objectives that count permanents in play.
        for c in ctx.objectives:
            cond = st.cards[c].effect
            if cond["kind"] == "permanents_in_play":
                need = cond["count"] - len(state.permanents[player])
                if need == 1:
                    value += st.cards[c].points
                elif need > 1:
                    value += st.cards[c].points * 0.5 ** (need - 1) * ctx.ff
        return value

    def _best_victim(self, ctx: _Ctx, victims: list[int]) -> int | None:
        if not victims:
            return None
        return max(victims, key=lambda q: (ctx.scores[q], -((q - ctx.player) % ctx.n)))

    def _yellow_play_value(self, ctx: _Ctx, card_index: int, moves_now) -> float:
        """Net gain (points, the card's own point deducted) of playing a yellow card now."""
        st, state, player = ctx.st, ctx.state, ctx.player
        card = st.cards[card_index]
        kind = card.kind
        taken = state.turn_state.get("action_taken", False)
        keep = self._card_keep_value(ctx, card_index)
        if kind in ("range_bonus", "free_straits", "evolve_changes"):
            if taken or moves_now is None:
                return -keep
            base = self._best(moves_now)
            base_v = base[0] if base else 0.0
            trial = state.copy()
            trial.turn_state["turn_cards"] = (*trial.turn_state.get("turn_cards", ()),
                                              card_index)
            tctx = _Ctx(self, ctx.rules, trial, player)
            better = self._best(self._moves(tctx, ("evolve", "migrate", "swap")))
            gain = (better[0] if better else 0.0) - base_v
            return gain - keep
        if kind == "extra_action":
            if not taken:
                return -keep
            best = self._best(self._moves(ctx, (card.effect["action"],)))
            return (best[0] if best else -9.0) - keep
        if kind == "raft":
            best = self._best_raft(ctx)
            return (best[0] if best else -9.0) - keep
        if kind == "great_hunt":
            targets = _hunt_targets(st, state, player, card.effect["distance"])
            best = max((state.hunt_value[t] for t in targets), default=0)
            if has_effect(ctx.rules, state, player, "hunt_draw"):
                best += 1.2
            return best + self._token_objective_bonus(ctx, "hunting") - 1.0
        if kind == "steal_tile":
            best = self._best_raid(ctx)
            return (best[0] if best else -9.0) - 1.0
        if kind == "steal_strait_token":
            best = -9.0
            for s, (a, b) in enumerate(st.straits):
                q = state.strait_owner[s]
                if q in (-1, player) or player not in (state.owner[a], state.owner[b]):
                    continue
                v = state.strait_value[s] * (1 + ctx.weight[q])
                best = max(best, v)
            return best + (self._token_objective_bonus(ctx, "strait") if best > 0 else 0) - 1.0
        if kind == "steal_card":
            victims = [q for q in range(ctx.n) if q != player and state.hands[q]]
            if not victims:
                return -9.0
            q = self._best_victim(ctx, victims)
            return 1.0 + ctx.weight[q] - keep - 0.05
        if kind == "take_tile":
            worth, slots = self._best_tiles(ctx, ALL_COLUMNS, card.effect["count"])
            return (worth if slots else -9.0) - keep
        if kind == "draw_cards":
            if not any(state.decks):
                return -9.0
            deck, v = self._best_deck(ctx, card.effect["count"])
            return v - keep
        return -keep  # barter, exchange_pawns: kept as a point in hand

    def _token_objective_bonus(self, ctx: _Ctx, token: str) -> float:
        bonus = 0.0
        for c in ctx.objectives:
            cond = ctx.st.cards[c].effect
            if cond["kind"] == "tokens_owned" and cond["token"] == token:
                have = ctx.hunts_owned if token == "hunting" else ctx.straits_owned
                need = cond["count"] - have
                if need == 1:
                    bonus += ctx.st.cards[c].points
                elif need > 1:
                    bonus += ctx.st.cards[c].points * 0.3 * ctx.ff
        return bonus

    def _best_raid(self, ctx: _Ctx):
        """(worth, victim, column) of the best Raid (top tile of another player's column)."""
        st, state, player = ctx.st, ctx.state, ctx.player
        best = None
        for q in range(ctx.n):
            if q == player:
                continue
            for i, col in enumerate(state.columns[q]):
                level = col[-1]
                v = st.tile_points[level] * ctx.weight[q]
                if can_place(state, player, level):
                    v += self._tile_value(ctx, level)
                key = (v, ctx.scores[q])
                if best is None or key > best[3]:
                    best = (v, q, i, key)
        return best

    def _best_deck(self, ctx: _Ctx, count: int) -> tuple[int, float]:
        """The deck to draw ``count`` cards from, and the worth of the draw."""
        state = ctx.state
        best, best_v = None, -99.0
        for i, name in enumerate(DECKS):
            deck = state.decks[i]
            if not deck:
                continue
            got = min(count, len(deck))
            v = self._card_draw_value(ctx, name) * got
            if name == "purple":
                limit = objective_limit(ctx.rules, state, ctx.player)
                over = len(ctx.objectives) + got - limit
                if over > 0:
                    v -= over * (self._card_draw_value(ctx, name) - 0.1)
            if len(deck) <= count:  # emptying a deck triggers the end of the game
                v += 1.5 if ctx.lead > 0 else -1.5
            if best is None or v > best_v:
                best, best_v = i, v
        return (best if best is not None else 0), best_v

    def _best_raft(self, ctx: _Ctx):
        st, state, player = ctx.st, ctx.state, ctx.player
        moves = _raft_moves(st, state, player)
        best = None
        for src, dests in moves.items():
            for dst in dests:
                v = self._move_value(ctx, "raft", src, dst, state.pawn[src])
                if best is None or v > best[0]:
                    best = (v, src, dst)
        return best

    # ---------------------------------------------------------------------------------------
    # Decisions
    # ---------------------------------------------------------------------------------------

    def _decide_keep_objective(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        ctx.ff = 1.0
        st = ctx.st
        best, best_v = None, None
        for c in frame["dealt"]:
            card = st.cards[c]
            effort = self._effort(ctx, card.effect, [], [], 0, 0)
            v = card.points * self.objective_decay ** effort
            if best is None or v > best_v:
                best, best_v = c, v
        return st.offset["keep_objective"] + best

    def _decide_turn(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        off = st.offset["play_card"]
        playable = [c for c in state.hands[player] if mask[off + c]]
        taken = state.turn_state.get("action_taken", False)
        # 1. Objectives score at once: play the best one that holds.
        purples = [c for c in playable if st.card_colour[c] == "purple"]
        if purples:
            return off + max(purples, key=lambda c: (st.cards[c].points, -c))
        # 2. Orange permanents worth more than the point they are in hand.
        oranges = [c for c in playable if st.card_colour[c] == "orange"]
        if oranges:
            scored = [(self._orange_effect(ctx, c) - 1.0, c) for c in oranges]
            value, card = max(scored)
            if value > 0.05:
                return off + card
        kinds = self._open_kinds(st, mask)
        moves = self._moves(ctx, kinds) if kinds else []
        # 3. A yellow card when it pays (before the action: range / straits / mutation;
        #    after it: extra actions, raft, theft, raids, ...).
        yellows = [c for c in playable if st.card_colour[c] == "yellow"
                   and (taken or st.cards[c].kind in PRE_ACTION_YELLOW)]
        if yellows:
            value, card = max((self._yellow_play_value(ctx, c, moves if not taken else None), c)
                              for c in yellows)
            if value > 0.15:
                return off + card
        # 4. The action (or an extra one granted by a card).
        best = self._best(moves)
        if best is not None and (not taken or best[0] > -0.5 or not mask[st.pass_action]):
            return st.offset[FIRST_HALF[best[1]]] + best[2]
        if mask[st.pass_action]:
            return st.pass_action
        return None

    def _decide_second_half(self, rules, state, frame, player, kind):
        ctx = _Ctx(self, rules, state, player)
        best = self._best(self._moves(ctx, (kind,), first=frame["territory"]))
        if best is None:
            return None
        return ctx.st.offset[SECOND_HALF[kind]] + best[3]

    def _decide_evolve_pawn(self, rules, state, frame, player, mask):
        return self._decide_second_half(rules, state, frame, player, "evolve")

    def _decide_migrate_to(self, rules, state, frame, player, mask):
        return self._decide_second_half(rules, state, frame, player, "migrate")

    def _decide_swap_onto(self, rules, state, frame, player, mask):
        return self._decide_second_half(rules, state, frame, player, "swap")

    def _decide_reward_option(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        _value, option = self._colour_reward(ctx, frame["colour"])
        return ctx.st.offset["reward_option"] + option

    def _decide_take_tile(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        slots = takeable_slots(rules, state, player, frame["colours"])
        if not slots:
            return st.pass_action
        best = max(slots, key=lambda i: (self._tile_value(ctx, state.slots[i]), -i))
        return st.offset["take_tile"] + best

    def _decide_return_card(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        off = st.offset["return_card"]
        cards = [c for c in state.hands[player] if mask[off + c]]
        if not cards:
            return None
        worst = min(cards, key=lambda c: (self._card_keep_value(ctx, c), c))
        return off + worst

    def _decide_choose_deck(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        if not any(state.decks):
            return st.pass_action
        deck, _v = self._best_deck(ctx, frame.get("count", 1))
        return st.offset["choose_deck"] + deck

    def _choose_player(self, ctx: _Ctx, mask, victims: list[int]):
        off = ctx.st.offset["choose_player"]
        legal = [q for q in victims if mask[off + (q - ctx.player) % ctx.n - 1]]
        q = self._best_victim(ctx, legal)
        if q is None:
            return None
        return off + (q - ctx.player) % ctx.n - 1

    def _decide_steal_card(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        return self._choose_player(ctx, mask, [q for q in range(ctx.n) if q != player])

    def _decide_barter_player(self, rules, state, frame, player, mask):
        return self._decide_steal_card(rules, state, frame, player, mask)

    def _decide_steal_tile(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        best = self._best_raid(ctx)
        if best is None:
            return None
        return ctx.st.offset["choose_player"] + (best[1] - player) % ctx.n - 1

    def _decide_steal_tile_column(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        victim = frame["victim"]
        best, best_v = None, None
        for i, col in enumerate(state.columns[victim]):
            level = col[-1]
            v = ctx.st.tile_points[level] * ctx.weight[victim]
            if can_place(state, player, level):
                v += self._tile_value(ctx, level)
            if best is None or v > best_v:
                best, best_v = i, v
        if best is None:
            return None
        return ctx.st.offset["choose_column"] + best

    def _decide_claim_strait(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        off = st.offset["choose_strait"]
        legal = [s for s in range(len(st.straits)) if mask[off + s]]
        if not legal:
            return None
        best = max(legal, key=lambda s: (state.strait_value[s]
                                         * (1 + ctx.weight[state.strait_owner[s]]), -s))
        return off + best

    def _decide_great_hunt(self, rules, state, frame, player, mask):
        st = self._static_for(rules)
        off = st.offset["choose_territory"]
        legal = [t for t in range(st.size) if mask[off + t]]
        if not legal:
            return None
        return off + max(legal, key=lambda t: (state.hunt_value[t], -t))

    def _decide_raft_pawn(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        best = self._best_raft(ctx)
        if best is None:
            return None
        return ctx.st.offset["choose_territory"] + best[1]

    def _decide_raft_destination(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        src = frame["territory"]
        off = st.offset["choose_territory"]
        legal = [t for t in range(st.size) if mask[off + t]]
        if not legal:
            return None
        best = max(legal, key=lambda t: (self._move_value(ctx, "raft", src, t, state.pawn[src]),
                                         -t))
        return off + best

    def _decide_barter_take(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        off = ctx.st.offset["take_card"]
        legal = [c for c in state.hands[frame["victim"]] if mask[off + c]]
        if not legal:
            return None
        return off + max(legal, key=lambda c: (self._card_keep_value(ctx, c), -c))

    def _decide_barter_give(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        off = ctx.st.offset["give_card"]
        legal = [c for c in state.hands[player] if mask[off + c]]
        if not legal:
            return None
        return off + min(legal, key=lambda c: (self._card_keep_value(ctx, c), c))

    def _decide_exchange_first(self, rules, state, frame, player, mask):
        """Resettlement: the widest pawn goes where a pawn is most at risk of a swap."""
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        mine = ctx.mine
        if len(mine) < 2:
            return None
        risky = max(mine, key=lambda t: (self._vulnerability(ctx, t, state.pawn[t]),
                                         -st.traits[state.pawn[t]][1], -t))
        return st.offset["choose_territory"] + risky

    def _decide_exchange_second(self, rules, state, frame, player, mask):
        ctx = _Ctx(self, rules, state, player)
        st = ctx.st
        first = frame["territory"]
        others = [t for t in ctx.mine if t != first]
        if not others:
            return None
        widest = max(others, key=lambda t: (st.traits[state.pawn[t]][1], -t))
        return st.offset["choose_territory"] + widest


# -------------------------------------------------------------------------------------------
# Small rule helpers (mirrors of the rules' own reachability checks)
# -------------------------------------------------------------------------------------------


def _fits(columns: list[list[int]], level: int) -> bool:
    return level == 1 or any(col and col[-1] == level - 1 for col in columns)


def _place(columns: list[list[int]], level: int) -> None:
    if level == 1:
        columns.append([1])
        return
    for col in columns:
        if col[-1] == level - 1:
            col.append(level)
            return


def _raft_moves(st: _Static, state: OriginState, player: int) -> dict[int, list[int]]:
    mine = state.territories_of(player)
    ends = set()
    for a, b in st.straits:
        if a in mine:
            ends.add(b)
        if b in mine:
            ends.add(a)
    dests = sorted(t for t in ends if state.owner[t] == EMPTY)
    return {src: dests for src in mine} if dests else {}


def _hunt_targets(st: _Static, state: OriginState, player: int, distance: int) -> list[int]:
    mine = state.territories_of(player)
    return [t for t in range(st.size)
            if state.hunt_owner[t] == -1 and state.hunt_value[t] > 0
            and st.colour[t] == "green"
            and any(st.dist[t][m] <= distance for m in mine)]

