"""The fast Origin heuristic: the reference's very choices, at a fraction of the cost.

:class:`OriginHeuristic` overrides the hot paths of
:class:`~primeval.training.agents.heuristics.origin.agent.ReferenceOriginHeuristic` (the plain
reference, kept beside it as the encoders keep theirs) and nothing else; what it works out
once per decision (its context, caches and tables) is in :mod:`.fast_context`:

* **One loop over the moves** (``_values``): every complete move's worth is computed in one
  function with the reference's terms inlined, instead of five method calls and two rebuilt
  pawn lists per move.
* **Per-decision caches** (on the decision's :class:`~.context._Ctx`): the reward of entering
  each territory (each colour's reward computed only when asked for, tile values per level,
  draw values per colour), whether an effect is in force, the strait ends held before the
  move, the hunting tokens in reach before it, the swap threats (from per-rules lists of the
  territories within each distance), and each objective's standing with the current pawns.
* **Objectives by difference**: a move removes at most one pawn and adds one, so an
  objective that counts pawns on a colour or continent or the continents present is
  re-counted from cached counts (the two nearest pawns to its targets, the continents' pawn
  counts); connected groups are the groups without the moving pawn (one walk per pawn that
  moves), merged at the destination; pawn-type and token objectives are kept per pawn type.
* **Evolve options from a table**: the rules' per-pawn-type compatibility table replaces a
  pairwise test per target, and the second half of an Evolve values only its own territory.
* **The turn's moves reused**: the first half of a move only pushes the pending frame, so the
  second half (the very state but its stack, checked field by field) takes its moves' values
  from the turn's decision instead of valuing them again.
* **Trial columns**: a two-tile reward copies the player's columns, once a tile is placed,
  instead of the whole state; the slots that fit the player's own columns are found once per
  decision.
* **A cheaper context** (:class:`_FastCtx`): the same fields counted with ``list.count`` and
  ``list.index``, the hunting spots on first use, everybody's score from one pass over the
  tokens instead of one per player.
* **A move valued once per position**: a move's value is kept with the decision's context, so
  an extra action's moves, and the trial of a yellow card that widens the options (range,
  straits, mutation: it changes which moves are legal, never what one is worth), value only
  the moves they add; the trial takes over the context's caches but the card's effect kind.
* **Per source and per pawn type**: a pawn type's worth on a safe and on an exposed territory,
  and per own territory what a move from it takes away (its pawn's worth, the hunting tokens in
  its reach), once per decision.

A compiled kernel (numba) was measured and not taken: the per-move arithmetic it would replace
is about a fifth of a decision, and turning the state's lists and the moves into arrays costs
about as much (``docs/benchmarks/history.md``, 2026-12-03).

Every value is computed with the reference's arithmetic in the reference's order (the same
floats), so every comparison, every tie and every fallback draw is the same:
``tests/training/agents/heuristics/test_fast_equals_reference.py`` checks the action and the
generator state afterwards over recorded positions of every player count and variant.
"""

from __future__ import annotations

from primeval.envs.origin.rules.effects import evolve_changes, evolve_distance, has_effect
from primeval.envs.origin.rules.moves import migrate_options, swap_options
from primeval.envs.origin.rules.pawns import compatible_types
from primeval.envs.origin.state import EMPTY
from primeval.training.agents.heuristics.origin.agent import ReferenceOriginHeuristic
from primeval.training.agents.heuristics.origin.context import SECOND_HALF, _Ctx
from primeval.training.agents.heuristics.origin.fast_context import (
    _PAWN_COUNT_KINDS,
    _fast,
    _FastCtx,
    _inherit,
    _pawn_terms,
    _same_but_stack,
    group_effort,
    hunt_table,
    moved_pawns,
    objective_table,
    threat_table,
)

__all__ = ["OriginHeuristic"]


class OriginHeuristic(ReferenceOriginHeuristic):
    """Rule-based Origin player, fast (see :mod:`primeval.training.agents.heuristics.origin`
    and this module): the same choices and fallback draws as
    :class:`ReferenceOriginHeuristic`."""

    def __init__(self, rules=None, seed: int | None = None) -> None:
        super().__init__(rules, seed)
        self._turn_state = None
        self._turn_moves: dict = {}
        self._kept = None
        self._trial_of = None

    def _ctx(self, rules, state, player: int) -> _Ctx:
        ctx = _FastCtx(self, rules, state, player)
        trial_of = self._trial_of
        if trial_of is not None:
            self._trial_of = None
            _inherit(ctx, *trial_of)
        return ctx

    def _yellow_play_value(self, ctx: _Ctx, card_index: int, moves_now) -> float:
        """As the reference; a trial of the position with the card played (the first
        context built meanwhile) takes what does not depend on the card's effect from this
        decision's context."""
        self._trial_of = (ctx, card_index)
        try:
            return super()._yellow_play_value(ctx, card_index, moves_now)
        finally:
            self._trial_of = None

    # ---------------------------------------------------------------------------------------
    # Small caches
    # ---------------------------------------------------------------------------------------

    def _has(self, ctx: _Ctx, kind: str) -> bool:
        cache = _fast(ctx).effect
        value = cache.get(kind)
        if value is None:
            value = cache[kind] = has_effect(ctx.rules, ctx.state, ctx.player, kind)
        return value

    def _reward_value(self, ctx: _Ctx, territory: int, via: str) -> float:
        cache = _fast(ctx).reward
        key = (territory, via == "swap")
        value = cache.get(key)
        if value is None:
            value = cache[key] = self._reward_value_uncached(ctx, territory, via)
        return value

    def _reward_value_uncached(self, ctx: _Ctx, territory: int, via: str) -> float:
        st, state = ctx.st, ctx.state
        colour = st.colour[territory]
        if colour in ("yellow", "orange", "purple", "brown"):
            return self._colour_value(ctx, colour)
        if colour == "green" and via != "swap":
            if state.hunt_owner[territory] == -1 and state.hunt_value[territory] > 0:
                value = float(state.hunt_value[territory])
                if self._has(ctx, "hunt_draw"):
                    value += 1.2
                return value
            if self._has(ctx, "empty_hunt_draw"):
                return 1.2
        return 0.0

    def _colour_value(self, ctx: _Ctx, colour: str) -> float:
        """``ctx.colour_value[colour]``, computed for that colour alone (each colour's
        reward is independent of the others')."""
        values = ctx.__dict__.get("colour_value")
        if values is not None:
            return values[colour]
        cache = ctx.__dict__.setdefault("_colour_values", {})
        value = cache.get(colour)
        if value is None:
            value = cache[colour] = self._colour_reward(ctx, colour)[0]
        return value

    def _tile_value(self, ctx: _Ctx, level: int, columns: list[list[int]] | None = None) -> float:
        """As the reference, cached per level for the player's own columns."""
        own = ctx.state.columns[ctx.player]
        if columns is not None and columns is not own:
            return super()._tile_value(ctx, level, columns)
        cache = ctx.__dict__.get("_tile_values")
        if cache is None:
            cache = ctx.__dict__["_tile_values"] = {}
        value = cache.get(level)
        if value is None:
            value = cache[level] = super()._tile_value(ctx, level, own)
        return value

    def _card_draw_value(self, ctx: _Ctx, colour: str) -> float:
        cache = ctx.__dict__.setdefault("_draw_values", {})
        value = cache.get(colour)
        if value is None:
            value = cache[colour] = super()._card_draw_value(ctx, colour)
        return value

    def _best_tiles(
        self, ctx: _Ctx, colours: tuple[str, ...], count: int
    ) -> tuple[float, list[int]]:
        """As the reference, with only the player's columns copied for the trial (and only
        once a tile is placed on them)."""
        st, state, player = ctx.st, ctx.state, ctx.player
        own = columns = state.columns[player]
        slot_colours = st.slot_colours
        taken: list[int] = []
        worth = 0.0
        # The first pick builds on the player's own columns: the slots that fit them, found
        # once per decision.
        own_slots = ctx.__dict__.get("_own_slots")
        if own_slots is None:
            tops = {col[-1] for col in own if col}
            own_slots = ctx.__dict__["_own_slots"] = [
                (i, level, slot_colours[i])
                for i, level in enumerate(state.slots)
                if level and (level == 1 or level - 1 in tops)
            ]
        for pick in range(count):
            best, best_v = None, 0.0
            if pick == 0:
                for i, level, colour in own_slots:
                    if colour in colours:
                        v = self._tile_value(ctx, level, own)
                        if best is None or v > best_v:
                            best, best_v = i, v
                if best is None:
                    break
                taken.append(best)
                worth += best_v
                if count > 1:
                    columns = [list(col) for col in own]
                    level = state.slots[best]
                    if level == 1:
                        columns.append([1])
                    else:
                        for col in columns:
                            if col[-1] == level - 1:
                                col.append(level)
                                break
                continue
            tops = {col[-1] for col in columns if col}
            for i, level in enumerate(state.slots):
                if (
                    not level
                    or i in taken
                    or slot_colours[i] not in colours
                    or not (level == 1 or level - 1 in tops)
                ):
                    continue
                v = self._tile_value(ctx, level, columns)
                if best is None or v > best_v:
                    best, best_v = i, v
            if best is None:
                break
            taken.append(best)
            worth += best_v
            if count > 1:
                if columns is own:
                    columns = [list(col) for col in own]
                level = state.slots[best]
                if level == 1:
                    columns.append([1])
                else:
                    for col in columns:
                        if col[-1] == level - 1:
                            col.append(level)
                            break
        return worth, taken

    def _move_value(self, ctx: _Ctx, kind: str, src: int | None, dst: int, ptype: int) -> float:
        return self._values(ctx, [(kind, src, dst, ptype)])[0]

    def _values(self, ctx: _Ctx, moves: list[tuple[str, int | None, int, int]]) -> list[float]:
        """The reference's ``_move_value`` of each (kind, src, dst, pawn type), in one loop:
        the same terms, added in the same order (the same floats)."""
        st, state, player = ctx.st, ctx.state, ctx.player
        fast = _fast(ctx)
        ff = ctx.ff
        owner, pawn = state.owner, state.pawn
        strait_owner, strait_value, strait_ends = (
            state.strait_owner,
            state.strait_value,
            st.strait_ends,
        )
        hunt_owner, hunt_value = state.hunt_owner, state.hunt_value
        colour, traits, straits, dist = st.colour, st.traits, st.straits, st.dist
        rewards, holds = fast.reward, fast.holds
        reward_uncached = self._reward_value_uncached
        height_weight, width_weight = self.height_weight, self.width_weight
        exposed_weight = self.exposed_weight
        threat = threat_table(ctx) if ff > 0 else None
        strait_hold = self._strait_hold
        table = objective_table(ctx) if ctx.moving_objectives else None
        obj_now = ctx.obj_now if table is not None else 0.0
        decay = self.objective_decay
        pawn_weight, swap_harm = self.pawn_weight, self.swap_harm_weight
        hunt_weight = self.hunt_reach_weight
        hunts = hunt_table(ctx) if ff > 0 and ctx.hunt_reach else None
        continent = st.continent
        pawn_terms, sources = fast.pawn_terms, fast.sources
        out = []
        for kind, src, dst, ptype in moves:
            # The reward of entering ``dst``.
            key = (dst, kind == "swap")
            value = rewards.get(key)
            if value is None:
                value = rewards[key] = reward_uncached(ctx, dst, kind)
            # Strait tokens completed by entering ``dst``.
            gained = 0
            for s, other in strait_ends[dst]:
                if strait_owner[s] == -1 and other != src and owner[other] == player:
                    gained += 1
                    value += strait_value[s]
                    if self._has(ctx, "strait_tile"):
                        value += 0.8
            extra_hunts = 0
            if (
                kind != "swap"
                and colour[dst] == "green"
                and hunt_owner[dst] == -1
                and hunt_value[dst] > 0
            ):
                extra_hunts = 1
            if kind == "swap":
                victim = owner[dst]
                w = ctx.weight[victim]
                value += swap_harm * w * ff
                for s, other in strait_ends[src]:
                    if strait_owner[s] == -1 and owner[other] == victim:
                        value -= w * strait_value[s]
            # Objectives in hand, after the move.
            if table is not None:
                objectives = 0.0
                for _c, points, okind, cond, extra in table:
                    if okind in _PAWN_COUNT_KINDS:
                        cells, target, have, tdist, avail, first, second = extra
                        if src is not None and cells[src] == target:
                            have -= 1
                        if cells[dst] == target:
                            have += 1
                        need = cond["count"] - have
                        if need <= 0:
                            effort = 0.0
                        else:
                            nearest = (
                                first if src is None or first is None or first[1] != src else second
                            )
                            d = tdist[dst]
                            travel = d if nearest is None or d < nearest[0] else nearest[0]
                            if travel >= 99:
                                effort = need + 4.0
                            else:
                                effort = need + 0.5 * max(0, travel - 1)
                                if avail < need:
                                    effort += 2.0
                    elif okind == "connected_group":
                        effort = group_effort(self, ctx, cond, extra, src, dst)
                    elif okind == "continents_present":
                        have = len(extra)
                        if src is not None and extra[continent[src]] == 1:
                            have -= 1
                        left = extra.get(continent[dst], 0)
                        if src is not None and continent[src] == continent[dst]:
                            left -= 1
                        if left == 0:
                            have += 1
                        need = cond["count"] - have
                        effort = 0.0 if need <= 0 else 1.3 * need
                    elif extra is not None:  # pawn types or tokens: a few keys per decision
                        ekey = (None if src is None else pawn[src], ptype, extra_hunts, gained)
                        effort = extra.get(ekey)
                        if effort is None:
                            terrs, types = moved_pawns(ctx, src, dst, ptype)
                            effort = extra[ekey] = self._effort(
                                ctx, cond, terrs, types, extra_hunts, gained
                            )
                    else:
                        terrs, types = moved_pawns(ctx, src, dst, ptype)
                        effort = self._effort(ctx, cond, terrs, types, extra_hunts, gained)
                    if effort <= 0:
                        objectives += points
                    else:
                        objectives += points * ff * decay**effort
                value += objectives - obj_now
            # The placement's worth for the rest of the game.
            if ff <= 0:
                value += 0.0
                out.append(value)
                continue
            # A pawn's own worth (height, width, exposure) per pawn type and exposure,
            # worked out once per decision with the reference's expression.
            terms = pawn_terms.get(ptype)
            if terms is None:
                terms = pawn_terms[ptype] = _pawn_terms(
                    traits[ptype], height_weight, width_weight, exposed_weight
                )
            delta = terms[1] if terms[2] < threat[dst] else terms[0]
            if src is None:
                delta += pawn_weight
                adjusted = None
            else:
                from_src = sources.get(src)
                if from_src is None:
                    from_src = sources[src] = self._from_source(ctx, src, threat, hunts, pawn_terms)
                delta -= from_src[0]
                adjusted = from_src[1]
            left = (
                EMPTY if kind in ("migrate", "raft") else (owner[dst] if kind == "swap" else None)
            )
            seen = None
            for t in (src, dst):
                if t is None:
                    continue
                for s, _other in strait_ends[t]:
                    if strait_owner[s] != -1 or (seen is not None and s in seen):
                        continue
                    if seen is None:
                        seen = {s}
                    else:
                        seen.add(s)
                    a, b = straits[s]
                    v = strait_value[s]
                    after_a = player if a == dst else (left if a == src else owner[a])
                    after_b = player if b == dst else (left if b == src else owner[b])
                    held = holds.get(s)
                    if held is None:
                        held = holds[s] = strait_hold(player, owner[a], owner[b], v)
                    delta += strait_hold(player, after_a, after_b, v) - held
            if hunts is not None:
                # ``adjusted``: the hunting items with the moving pawn's reach taken away.
                after_best = 0
                reach = traits[ptype][0]
                dst_row = dist[dst]
                for k, count, v in hunts[0] if adjusted is None else adjusted:
                    if k != dst and (count > 0 or dst_row[k] <= reach) and v > after_best:
                        after_best = v
                delta += hunt_weight * (after_best - hunts[1])
            value += delta * ff
            out.append(value)
        return out

    def _from_source(self, ctx: _Ctx, src: int, threat, hunts, pawn_terms) -> tuple:
        """What a move from ``src`` takes away: the worth of the pawn standing there, and
        the hunting items (territory, own pawns in reach, value) with its reach removed."""
        st, pawn = ctx.st, ctx.state.pawn
        ptype = pawn[src]
        terms = pawn_terms.get(ptype)
        if terms is None:
            terms = pawn_terms[ptype] = _pawn_terms(
                st.traits[ptype], self.height_weight, self.width_weight, self.exposed_weight
            )
        term = terms[1] if terms[2] < threat[src] else terms[0]
        adjusted = None
        if hunts is not None:
            src_row, src_height = st.dist[src], st.traits[ptype][0]
            adjusted = [
                (k, count - 1 if src_row[k] <= src_height else count, v) for k, count, v in hunts[0]
            ]
        return term, adjusted

    def _evolve_options(self, ctx: _Ctx, only: int | None = None) -> dict[int, list[int]]:
        """As the reference (from the rules' compatibility table); ``only``: that target
        alone."""
        rules, state, player, st = ctx.rules, ctx.state, ctx.player, ctx.st
        if state.villages[player] <= 0:
            return {}
        types = [p for p, k in enumerate(state.reserve) if k > 0]
        if not types:
            return {}
        reach = evolve_distance(rules, state, player)
        table = compatible_types(st.traits, evolve_changes(rules, state, player))
        owner, pawn = state.owner, state.pawn
        occupied = [t for t, o in enumerate(owner) if o != EMPTY]
        options: dict[int, list[int]] = {}
        allowed_types: dict = {}
        for target in range(st.size) if only is None else (only,):
            if owner[target] != EMPTY:
                continue
            if reach == 1:
                refs = {pawn[u] for u in st.neighbours[target] if owner[u] != EMPTY}
            else:
                row = st.dist[target]
                refs = {pawn[u] for u in occupied if 1 <= row[u] <= reach}
            if not refs:
                continue
            # The types allowed beside one reference pawn type (or a set of them), listed
            # once per decision.
            key = next(iter(refs)) if len(refs) == 1 else frozenset(refs)
            ok = allowed_types.get(key)
            if ok is None:
                if len(refs) == 1:
                    allowed = table[key]
                else:
                    allowed = frozenset().union(*(table[r] for r in refs))
                ok = allowed_types[key] = [p for p in types if p in allowed]
            if ok:
                options[target] = ok
        return options

    def _moves(
        self, ctx: _Ctx, kinds, first: int | None = None
    ) -> list[tuple[float, str, int, int]]:
        rules, state, player = ctx.rules, ctx.state, ctx.player
        moves = []
        for kind in kinds:
            if kind == "evolve":
                for target, types in self._evolve_options(ctx, first).items():
                    for p in types:
                        moves.append((kind, None, target, p))
            else:
                fn = migrate_options if kind == "migrate" else swap_options
                for src, dests in fn(rules, state, player).items():
                    if first is not None and src != first:
                        continue
                    ptype = state.pawn[src]
                    for dst in dests:
                        moves.append((kind, src, dst, ptype))
        out = []
        if moves:
            fast = _fast(ctx)
            known = fast.known
            if known is None and fast.valued is not None:
                known = fast.known = dict(zip(*fast.valued, strict=True))
            if known is None:
                values = self._values(ctx, moves)
            else:
                missing = [m for m in moves if m not in known]
                if missing:
                    known.update(zip(missing, self._values(ctx, missing), strict=True))
                values = [known[m] for m in moves]
            if first is None and fast.valued is None and fast.known is None:
                fast.valued = (moves, values)
            out = [
                (v, kind, src if src is not None else dst, ptype if src is None else dst)
                for v, (kind, src, dst, ptype) in zip(values, moves, strict=True)
            ]
        if first is None and state is self._turn_state:
            memo = self._turn_moves
            for kind in kinds:
                memo[kind] = [m for m in out if m[1] == kind]
        return out

    # ---------------------------------------------------------------------------------------
    # The turn's moves, reused by the second half of the move chosen
    # ---------------------------------------------------------------------------------------

    def _decide_turn(self, rules, state, frame, player, mask):
        """As the reference; the complete moves it values for the position are kept, so
        that the second half of the move (a position that differs only by the pending
        frame: the first half pushes it and changes nothing else) need not value them
        again."""
        self._turn_state, self._turn_moves = state, {}
        try:
            return super()._decide_turn(rules, state, frame, player, mask)
        finally:
            moves, self._turn_state, self._turn_moves = self._turn_moves, None, {}
            if moves:
                self._kept = (rules, player, state.copy(), moves)

    def _decide_second_half(self, rules, state, frame, player, kind):
        kept = self._kept
        if (
            kept is not None
            and kept[0] is rules
            and kept[1] == player
            and kind in kept[3]
            and _same_but_stack(kept[2], state)
        ):
            first = frame["territory"]
            best = self._best([m for m in kept[3][kind] if m[2] == first])
            if best is None:
                return None
            return self._static_for(rules).offset[SECOND_HALF[kind]] + best[3]
        return super()._decide_second_half(rules, state, frame, player, kind)
