"""How the Origin heuristic values a position and a move, in points.

:class:`_Evaluation` holds the weights and value functions that
:class:`ReferenceOriginHeuristic` inherits: the game length still to come, tiles and the
reward of each territory colour, objectives (counted exactly, then discounted by what they
still need), the positional worth of pawns, straits and hunting tokens, and the worth of
every complete Evolve, Migrate and Swap.
"""

from __future__ import annotations

from primeval.envs.origin.rules.cards import DECK_INDEX
from primeval.envs.origin.rules.effects import (
    evolve_changes,
    evolve_distance,
    has_effect,
    objective_limit,
)
from primeval.envs.origin.rules.moves import migrate_options, swap_options
from primeval.envs.origin.rules.pawns import compatible
from primeval.envs.origin.rules.tiles import can_place, place_tile
from primeval.envs.origin.state import EMPTY, OriginState
from primeval.training.agents.heuristics.origin.context import (
    ALL_COLUMNS,
    FIRST_HALF,
    OTHER_COLUMNS,
    _Ctx,
    _Static,
)

#: Worth of a card just drawn from each deck, its point included.
CARD_DRAW = {"yellow": 1.3, "orange": 1.25, "purple": 1.35}


def pawn_groups(st, terrs: list[int], same_continent: bool) -> list[set[int]]:
    """The connected groups of the pawns on ``terrs`` (neighbours on the map; with
    ``same_continent``, within one continent), in the order of each group's first territory
    in ``terrs``: one walk per group."""
    mine = set(terrs)
    seen: set[int] = set()
    groups = []
    for start in terrs:
        if start in seen:
            continue
        group, frontier = {start}, [start]
        cont = st.continent[start]
        while frontier:
            t = frontier.pop()
            for u in st.neighbours[t]:
                if (u in mine and u not in group
                        and (not same_continent or st.continent[u] == cont)):
                    group.add(u)
                    frontier.append(u)
        seen |= group
        groups.append(group)
    return groups


class _Evaluation:
    """Weights and value functions of the Origin heuristic (a mixin of the agent)."""

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
        # Each tile taken is placed on a copy of the state, so that the next pick sees the
        # columns it would build on.
        trial = state.copy() if count > 1 else state
        taken: list[int] = []
        worth = 0.0
        for _ in range(count):
            best, best_v = None, 0.0
            for i, level in enumerate(state.slots):
                if (not level or i in taken or st.slot_colours[i] not in colours
                        or not can_place(trial, player, level)):
                    continue
                v = self._tile_value(ctx, level, trial.columns[player])
                if best is None or v > best_v:
                    best, best_v = i, v
            if best is None:
                break
            taken.append(best)
            worth += best_v
            if trial is not state:
                place_tile(trial, player, state.slots[best])
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
            need = cond["count"] + need_cont - 1
            for group in pawn_groups(st, terrs, same):
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
