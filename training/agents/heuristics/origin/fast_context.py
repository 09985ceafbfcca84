"""What the fast Origin heuristic (:mod:`.fast`) works out once per decision: its context
(:class:`_FastCtx`, the reference's :class:`~.context._Ctx` counted more cheaply), the caches
kept with it (:class:`_Fast`), what a trial of the position with a yellow card played takes
over from it (:func:`_inherit`), and the tables its one loop over the moves reads: each moving
objective's standing kept by difference (:func:`objective_table`, :func:`connected_groups`,
:func:`group_effort`), the hunting tokens in reach (:func:`hunt_table`) and the swap threats
(:func:`threat_table`). Every value is the reference's, in the reference's arithmetic.
"""

from __future__ import annotations

from functools import cached_property
from operator import attrgetter

from primeval.envs.origin.rules.scoring import all_points
from primeval.envs.origin.state import OriginState
from primeval.training.agents.heuristics.origin.context import _Ctx
from primeval.training.agents.heuristics.origin.evaluation import _Evaluation, pawn_groups

_PAWN_COUNT_KINDS = ("pawns_on_colour", "pawns_on_continent")
_TYPE_KINDS = ("pawns_with_trait", "colour_set")


class _Fast:
    """Per-decision caches of the fast agent (one per :class:`_Ctx`)."""

    __slots__ = (
        "effect",
        "holds",
        "hunt",
        "known",
        "objectives",
        "pawn_terms",
        "reward",
        "sources",
        "valued",
    )

    def __init__(self) -> None:
        self.reward: dict[tuple[int, bool], float] = {}
        self.holds: dict[int, float] = {}
        self.effect: dict[str, bool] = {}
        self.hunt = None
        self.objectives = None
        #: The first complete moves valued for this position and their values, and (built
        #: when a later call asks) move -> value: a move is valued once per position.
        self.valued: tuple[list, list] | None = None
        #: Pawn type -> its worth on a safe and an exposed territory, and its width; own
        #: territory -> what a move from there takes away (:meth:`~OriginHeuristic._from_source`).
        self.pawn_terms: dict[int, tuple[float, float, int]] = {}
        self.sources: dict[int, tuple] = {}
        self.known: dict | None = None


def _fast(ctx: _Ctx) -> _Fast:
    fast = ctx.__dict__.get("_fast")
    if fast is None:
        fast = ctx.__dict__["_fast"] = _Fast()
    return fast


_reference_rounds_left = _Evaluation._rounds_left


def _rounds_left(state) -> float:
    """The reference's ``_rounds_left`` with counts by ``list.count`` (the same numbers in
    the same arithmetic)."""
    if state.phase == "final_round":
        return 0.5
    if state.end_triggered:
        return 1.0
    n = state.num_players
    decks = min(map(len, state.decks))
    by_decks = decks / (0.35 * n)
    slots = state.slots
    tiles = len(slots) - slots.count(0) + sum(state.tile_reserve)
    by_tiles = tiles / (0.9 * n)
    by_pawns = sum(state.reserve) / (0.6 * n)
    by_villages = max(state.villages) / 0.6
    return 1.0 + min(by_decks, by_tiles, by_pawns, by_villages)


def _pawn_terms(traits, height_weight: float, width_weight: float, exposed_weight: float):
    """The reference's worth of one pawn of these traits standing on a territory, safe and
    exposed (its ``_pawn_term``, the same expression), and the pawn's width."""
    h, w, _ = traits
    safe = height_weight * (h - 1) + width_weight * (w - 1) - exposed_weight * 0.0
    exposed = height_weight * (h - 1) + width_weight * (w - 1) - exposed_weight * 1.0
    return safe, exposed, w


class _FastCtx(_Ctx):
    """:class:`_Ctx` built with cheaper counts (``list.count``, ``list.index``), the hunting
    spots on first use and everybody's score from one pass over the tokens: the very same
    fields."""

    def __init__(self, agent, rules, state, player: int) -> None:
        st = agent._static_for(rules)
        self.agent, self.rules, self.state, self.player, self.st = agent, rules, state, player, st
        self.n = state.num_players
        self.mine = mine = state.territories_of(player)
        pawn = state.pawn
        self.mine_types = [pawn[t] for t in mine]
        if type(agent)._rounds_left is _reference_rounds_left:
            self.rounds_left = rounds_left = _rounds_left(state)
        else:
            self.rounds_left = rounds_left = agent._rounds_left(state)
        self.ff = min(1.0, max(0.0, (rounds_left - 0.5) / 3.0))
        self.last_turn = state.phase == "final_round"
        card_colour = st.card_colour
        self.objectives = [c for c in state.hands[player] if card_colour[c] == "purple"]
        strait_owner = state.strait_owner
        self.straits_on_board = strait_owner.count(-1)
        self.hunts_owned = state.hunt_owner.count(player)
        self.straits_owned = strait_owner.count(player)
        self._target_dist = {}

    @cached_property
    def hunt_spots(self) -> list[int]:
        state = self.state
        hunt_value = state.hunt_value
        return [t for t, o in enumerate(state.hunt_owner) if o == -1 and hunt_value[t] > 0]

    @cached_property
    def hunts_on_board(self) -> int:
        return len(self.hunt_spots)

    @cached_property
    def scores(self) -> list[int]:
        """Everybody's points so far: :func:`~primeval.envs.origin.rules.scoring.total` of
        each player, from one :func:`all_points` pass."""
        return [sum(p.values()) for p in all_points(self.rules, self.state)]


#: Every field of an Origin state but its stack, as one tuple (compared in C).
_BUT_STACK = attrgetter(*(name for name in OriginState.__dataclass_fields__ if name != "stack"))


def _same_but_stack(a, b) -> bool:
    """Whether two Origin states are equal in everything but their stacks of pending frames."""
    return _BUT_STACK(a) == _BUT_STACK(b)


#: Every field of an Origin state but the turn's state (its cards played this turn).
_BUT_TURN_STATE = attrgetter(
    *(name for name in OriginState.__dataclass_fields__ if name != "turn_state")
)
#: What a context computes from the position without asking which effects are in force
#: (or only about effects of other kinds than the cards a trial plays: reward colours,
#: tiles, draws): shared by a trial of the position with a yellow card played.
_INHERITED = (
    "colour_value",
    "_colour_values",
    "_tile_values",
    "_draw_values",
    "scores",
    "lead",
    "weight",
    "threat",
    "hunt_spots",
    "hunts_on_board",
    "hunt_reach",
    "moving_objectives",
    "obj_now",
    "_target_dist",
)


def _inherit(trial: _Ctx, ctx: _Ctx, card: int) -> None:
    """Give ``trial`` (a context of ``ctx``'s position with yellow ``card`` played this turn
    besides) what ``ctx`` has worked out and that card cannot change: every value the
    heuristic computes reads effects of other kinds only (the card changes which moves are
    legal, not what a move is worth), so the moves ``ctx`` valued keep their values. Nothing
    is shared unless the two positions are equal but for that one card in the turn's
    cards."""
    state, other = trial.state, ctx.state
    if trial.player != ctx.player or trial.rules is not ctx.rules:
        return
    if _BUT_TURN_STATE(state) != _BUT_TURN_STATE(other):
        return
    before, after = dict(other.turn_state), dict(state.turn_state)
    if after.pop("turn_cards", ()) != (*before.pop("turn_cards", ()), card):
        return
    if before != after:
        return
    kind = ctx.st.cards[card].kind
    mine, theirs = trial.__dict__, ctx.__dict__
    for name in _INHERITED:
        if name in theirs:
            value = theirs[name]
            mine[name] = dict(value) if isinstance(value, dict) else value
    parent = theirs.get("_fast")
    if parent is None:
        return
    fast = _fast(trial)
    fast.reward = dict(parent.reward)
    fast.holds = dict(parent.holds)
    fast.hunt = parent.hunt
    fast.objectives = parent.objectives
    fast.effect = {k: v for k, v in parent.effect.items() if k != kind}
    known = parent.known
    if known is None and parent.valued is not None:
        known = parent.known = dict(zip(*parent.valued, strict=True))
    if known is not None:
        fast.known = dict(known)


def objective_table(ctx: _Ctx) -> list:
    """Per moving objective: (card, points, kind, cond, precomputed counts)."""
    fast = _fast(ctx)
    if fast.objectives is not None:
        return fast.objectives
    st, mine = ctx.st, ctx.mine
    table = []
    for c in ctx.moving_objectives:
        card = st.cards[c]
        cond = card.effect
        kind = cond["kind"]
        extra = None
        if kind in _PAWN_COUNT_KINDS:
            key = "colour" if kind == "pawns_on_colour" else "continent"
            value = cond[key]
            cells = st.colour if key == "colour" else st.continent
            have = sum(1 for t in mine if cells[t] == value)
            dist, avail = ctx.targets(key, value)
            first = second = None  # the two nearest own pawns: (distance, territory)
            for t in mine:
                d = dist[t]
                if first is None or d < first[0]:
                    first, second = (d, t), first
                elif second is None or d < second[0]:
                    second = (d, t)
            extra = (cells, value, have, dist, avail, first, second)
        elif kind == "continents_present":
            counts: dict = {}
            for t in mine:
                counts[st.continent[t]] = counts.get(st.continent[t], 0) + 1
            extra = counts
        elif kind in _TYPE_KINDS or kind == "tokens_owned" or kind == "connected_group":
            extra = {}
        table.append((c, card.points, kind, cond, extra))
    fast.objectives = table
    return table


def connected_groups(ctx: _Ctx, cond: dict, extra: dict, src: int | None) -> list:
    """The connected groups of the own pawns but ``src`` (as the reference's walk finds
    them): per group (members, size, continents, its need)."""
    groups = extra.get(src)
    if groups is not None:
        return groups
    st = ctx.st
    same = cond.get("same_continent", False)
    need_cont = cond.get("min_continents", 1)
    terrs = [t for t in ctx.mine if t != src]
    groups = []
    for group in pawn_groups(st, terrs, same):
        continents = {st.continent[t] for t in group}
        short = max(0, need_cont - len(continents))
        groups.append(
            (group, len(group), continents, max(0, cond["count"] - len(group)) + short)
        )
    extra[src] = groups
    return groups


def group_effort(agent, ctx: _Ctx, cond: dict, extra: dict, src: int | None, dst: int) -> float:
    """The reference's connected-group effort for the pawns after the move: the groups
    without ``src``, those next to ``dst`` merged with it."""
    if dst in ctx.mine and dst != src:
        terrs, types = moved_pawns(ctx, src, dst, 0)
        return agent._effort(ctx, cond, terrs, types, 0, 0)
    st = ctx.st
    same = cond.get("same_continent", False)
    need_cont = cond.get("min_continents", 1)
    count = cond["count"]
    need = count + need_cont - 1
    cont = st.continent[dst]
    neighbours = st.neighbours[dst]
    size = 1
    continents = {cont}
    for group, gsize, gconts, gneed in connected_groups(ctx, cond, extra, src):
        if (not same or cont in gconts) and any(u in group for u in neighbours):
            size += gsize
            continents |= gconts
        elif gneed < need:
            need = gneed
    merged = max(0, count - size) + max(0, need_cont - len(continents))
    if merged < need:
        need = merged
    return float(need)


def moved_pawns(ctx: _Ctx, src: int | None, dst: int, ptype: int):
    terrs = list(ctx.mine)
    types = list(ctx.mine_types)
    if src is not None:
        i = terrs.index(src)
        del terrs[i]
        del types[i]
    terrs.append(dst)
    types.append(ptype)
    return terrs, types


def hunt_table(ctx: _Ctx):
    fast = _fast(ctx)
    if fast.hunt is None:
        state = ctx.state
        items = [(k, count, state.hunt_value[k]) for k, count in ctx.hunt_reach.items()]
        before = 0
        for _k, count, v in items:
            if count > 0:
                before = max(before, v)
        fast.hunt = (items, before)
    return fast.hunt


def threat_table(ctx: _Ctx) -> list[int]:
    """``ctx.threat`` (the reference's table), from per-rules lists of the territories
    within each distance of each territory."""
    threat = ctx.__dict__.get("threat")
    if threat is not None:
        return threat
    st, state = ctx.st, ctx.state
    within = st.__dict__.get("_within")
    if within is None:
        top = max(h for h, _w, _c in st.traits)
        within = st.__dict__["_within"] = [
            [[t for t in range(st.size) if row[t] <= h] for h in range(top + 1)]
            for row in st.dist
        ]
    threat = [0] * st.size
    pawn, traits, player = state.pawn, st.traits, ctx.player
    for u, o in enumerate(state.owner):
        if o < 0 or o == player:
            continue
        h, w, _ = traits[pawn[u]]
        for t in within[u][h]:
            if w > threat[t]:
                threat[t] = w
    ctx.__dict__["threat"] = threat
    return threat
